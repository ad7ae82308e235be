// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createRoutesStub, Outlet } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GOOGLE_MESSAGES, GoogleButton } from "../../app/components/account/GoogleButton.tsx";
import { AlertProvider } from "../../app/components/ui/Alert.tsx";

function renderButton(root: { googleEnabled: boolean; authorizedOrigins: string[] }) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ ...root, wishlistIds: [], cartCount: 0, user: null, siteUrl: "", year: 2026 }),
      Component: () => (
        <AlertProvider>
          <Outlet />
        </AlertProvider>
      ),
      children: [{ index: true, Component: GoogleButton }],
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Continue with Google", () => {
  it("says so when Google isn't configured, instead of failing silently", async () => {
    const open = vi.spyOn(window, "open");
    renderButton({ googleEnabled: false, authorizedOrigins: [window.location.origin] });
    fireEvent.click(await screen.findByRole("button", { name: "Continue with Google" }));
    expect((await screen.findByRole("alert")).textContent).toBe(GOOGLE_MESSAGES.notConfigured);
    expect(GOOGLE_MESSAGES.notConfigured).toBe("Google sign-in isn't set up on this store");
    expect(open).not.toHaveBeenCalled();
  });

  it("refuses an origin outside the authorized domains before opening a popup", async () => {
    const open = vi.spyOn(window, "open");
    renderButton({ googleEnabled: true, authorizedOrigins: ["https://shop.example"] });
    fireEvent.click(await screen.findByRole("button", { name: "Continue with Google" }));
    expect((await screen.findByRole("alert")).textContent).toContain("unauthorized domain");
    expect(open).not.toHaveBeenCalled();
  });
});
