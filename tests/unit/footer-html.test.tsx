// @vitest-environment jsdom
import { act } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Footer, RenderedFooter } from "../../app/components/layout/Footer.tsx";
import { renderedFooter } from "../../app/lib/footer-html.server.ts";

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

const page = (year: number) => (
  <MemoryRouter>
    <Footer year={year} />
  </MemoryRouter>
);

describe("the footer rendered once per year (app/lib/footer-html.server.ts)", () => {
  it("writes the same HTML as the footer rendered in place", () => {
    const inPlace = renderToString(page(2026));
    const once = renderToString(<RenderedFooter value={renderedFooter(2026)}>{page(2026)}</RenderedFooter>);
    expect(once).toBe(inPlace);
    expect(once).toContain("2026");
    expect(once).toContain('href="/faq"');
  });

  it("is not used for another year than the page's", () => {
    const html = renderToString(<RenderedFooter value={renderedFooter(2025)}>{page(2026)}</RenderedFooter>);
    expect(html).toContain("© <!-- -->2026");
    expect(html).not.toContain("2025");
  });

  it("hydrates under React Router's client without a mismatch, and its links still navigate in place", async () => {
    const frame = document.createElement("div");
    frame.innerHTML = renderToString(<RenderedFooter value={renderedFooter(2026)}>{page(2026)}</RenderedFooter>);
    document.body.append(frame);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(frame, page(2026), { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    const link = frame.querySelector<HTMLAnchorElement>('a[href="/faq"]')!;
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    await act(async () => {
      link.dispatchEvent(click);
    });
    expect(click.defaultPrevented).toBe(true); // the router took it: no page load
  });
});
