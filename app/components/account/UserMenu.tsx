import { lazy, Suspense, useEffect, useState, type ComponentProps, type ComponentType } from "react";
import type { LogoutDialog as Dialog } from "./LogoutDialog.tsx";
import { useRevalidator } from "react-router";
import { useCurrentUser } from "../../lib/current-user.tsx";
import { LOGOUT_NOTICE_MS } from "../../lib/site.ts";
import { useAlert } from "../ui/Alert.tsx";
// Loaded when a member asks to log out: not part of every page's first load.
// If it can't load (an old tab after a deploy), the confirmation page without JavaScript asks instead.
const LogoutDialog = lazy<ComponentType<ComponentProps<typeof Dialog>>>(() =>
  import("./LogoutDialog.tsx").then(
    (m) => ({ default: m.LogoutDialog }),
    () => ({ default: AskOnLogoutPage }),
  ),
);

function AskOnLogoutPage() {
  useEffect(() => window.location.assign("/logout"), []);
  return null;
}

export function UserAvatar({
  fullName,
  email,
  profilePhoto,
}: {
  fullName: string;
  email: string;
  profilePhoto: string | null;
}) {
  if (profilePhoto) {
    return (
      <img
        src={profilePhoto}
        alt=""
        width={32}
        height={32}
        referrerPolicy="no-referrer"
        className="h-8 w-8 rounded-full object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-500 text-xs font-bold text-ink"
    >
      {initials(fullName, email)}
    </span>
  );
}

/** What the user menu shows when signed out. */
function LoginLink({ variant }: { variant: "desktop" | "mobile" }) {
  return (
    <a
      href="/login"
      className={
        variant === "desktop" ? "btn-primary ml-2" : "block rounded px-3 py-2 text-sm font-medium text-slate-700"
      }
    >
      Login
    </a>
  );
}

/** Login link when signed out; the user icon and a Logout button when signed in. */
export function UserMenu({ variant }: { variant: "desktop" | "mobile" }) {
  const { user, known, setUser } = useCurrentUser();
  const alert = useAlert();
  const revalidator = useRevalidator();
  const [confirming, setConfirming] = useState(false);
  // The dialog stays in the page once it has been asked for, so closing it returns focus to Logout.
  const [asked, setAsked] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!user && !known) {
    // Until the page has read who this is, the Login link's place is kept empty (no link flashes
    // for a signed-in visitor, nothing moves for a guest); without JavaScript <noscript> shows it.
    return (
      <>
        <noscript>
          <LoginLink variant={variant} />
        </noscript>
        {variant === "desktop" ? (
          <span aria-hidden="true" className="btn-primary invisible ml-2">
            Login
          </span>
        ) : null}
      </>
    );
  }
  if (!user) return <LoginLink variant={variant} />;

  async function logOut() {
    setBusy(true);
    try {
      const response = await fetch("/api/auth/sign-out", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!response.ok) throw new Error(String(response.status));
      setUser(null);
      setConfirming(false);
      alert.show("You successfully Logout.", { title: "Logout!", tone: "success", durationMs: LOGOUT_NOTICE_MS });
      void revalidator.revalidate();
    } catch {
      setConfirming(false);
      alert.show("We couldn't log you out. Check your connection and try again.", { tone: "error", durationMs: 4000 });
    } finally {
      setBusy(false);
    }
  }

  // Logout is a button. Without JavaScript its form asks on /logout (a GET: it only shows the
  // confirmation page); with JavaScript the submit opens the confirmation dialog instead.
  return (
    <div className={variant === "desktop" ? "ml-2 flex items-center gap-2" : "flex items-center gap-2 px-3 py-2"}>
      <a
        href="/account"
        className="rounded-full"
        aria-label={`Your account (${user.fullName || user.email})`}
        title={user.fullName || user.email}
      >
        <UserAvatar {...user} />
      </a>
      <form
        method="get"
        action="/logout"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(true);
          setConfirming(true);
        }}
      >
        <button type="submit" className="btn-outline">
          Logout
        </button>
      </form>
      {asked ? (
        <Suspense fallback={null}>
          <LogoutDialog
            id={`logout-${variant}`}
            open={confirming}
            busy={busy}
            onConfirm={logOut}
            onCancel={() => setConfirming(false)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The avatar's letters: the first two words of the name, else the first letter of the email. */
function initials(name: string, fallbackEmail: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length ? parts.slice(0, 2).map((p) => p[0]) : [fallbackEmail[0] ?? "?"];
  return letters.join("").toUpperCase();
}
