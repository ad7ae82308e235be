import { useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator, useRouteLoaderData } from "react-router";
import { AUTH_MESSAGES, STAFF_PASSWORD_ONLY_MESSAGE } from "../../lib/auth-rules.ts";
import { postAuth, toPublicUser } from "../../lib/auth-client.ts";
import { useCurrentUser } from "../../lib/current-user.tsx";
import { ALERT_MS } from "../../lib/site.ts";
import type { RootData } from "../../root.tsx";
import { useAlert } from "../ui/Alert.tsx";
import { GoogleIcon } from "../ui/icons.tsx";

export const GOOGLE_POPUP_MESSAGE = "toolhub:google-sign-in";
const POPUP_WIDTH = 500;
const POPUP_HEIGHT = 600;
/** The spec's provider value: a closed popup is noticed within 8 seconds. */
const CLOSED_CHECK_MS = 1000;

export const GOOGLE_MESSAGES = {
  notConfigured: "Google sign-in isn't set up on this store",
  blocked: "Your browser blocked the Google sign-in window. Allow pop-ups for this site and try again.",
  closed: "The Google sign-in window was closed before you finished signing in.",
  alreadyOpen: "The Google sign-in window is already open.",
  unauthorizedDomain:
    "Google sign-in isn't allowed from this address (unauthorized domain). Open the store at its usual address and try again.",
  network: "We couldn't reach Google. Check your connection and try again.",
  internal: "Google sign-in failed because of a problem on our side. Please try again.",
  notLinked: "An account with this email already exists. Log in with your password to link Google to it.",
  staffPasswordOnly: STAFF_PASSWORD_ONLY_MESSAGE,
} as const;

type PopupOutcome = {
  type: typeof GOOGLE_POPUP_MESSAGE;
  ok: boolean;
  error?: string;
  user?: { name: string; email: string; image: string | null };
};

export function GoogleButton() {
  const root = useRouteLoaderData<RootData>("root");
  const alert = useAlert();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const { setUser } = useCurrentUser();
  const popupRef = useRef<Window | null>(null);
  const watchRef = useRef<number | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => () => window.clearInterval(watchRef.current), []);

  function fail(message: string) {
    setBusy(false);
    alert.show(message, { tone: "error", durationMs: 5000 });
  }

  async function start() {
    if (!root?.googleEnabled) return fail(GOOGLE_MESSAGES.notConfigured);
    if (!root.authorizedOrigins.includes(window.location.origin)) return fail(GOOGLE_MESSAGES.unauthorizedDomain);
    if (popupRef.current && !popupRef.current.closed) {
      popupRef.current.focus();
      alert.show(GOOGLE_MESSAGES.alreadyOpen, { tone: "info", durationMs: 3000 });
      return;
    }
    const left = Math.max(0, window.screenX + (window.outerWidth - POPUP_WIDTH) / 2);
    const top = Math.max(0, window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2);
    const popup = window.open(
      "",
      "toolhub-google-sign-in",
      `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`,
    );
    if (!popup) return fail(GOOGLE_MESSAGES.blocked);
    popupRef.current = popup;
    setBusy(true);

    const result = await postAuth<{ url?: string }>("/sign-in/social", {
      provider: "google",
      callbackURL: "/auth/google/done",
      errorCallbackURL: "/auth/google/done",
      disableRedirect: true,
    });
    if (!result.ok || !result.data.url) {
      popup.close();
      if (!result.ok && result.status === 0) return fail(GOOGLE_MESSAGES.network);
      if (!result.ok && result.status === 403) return fail(GOOGLE_MESSAGES.unauthorizedDomain);
      if (!result.ok && result.status === 429) return fail(result.message);
      return fail(GOOGLE_MESSAGES.internal);
    }
    popup.location.href = result.data.url;

    const finish = (outcome: PopupOutcome | null) => {
      window.removeEventListener("message", onMessage);
      window.clearInterval(watchRef.current);
      popupRef.current = null;
      if (!outcome) return fail(GOOGLE_MESSAGES.closed);
      if (!outcome.ok || !outcome.user) {
        const key = outcome.error as keyof typeof GOOGLE_MESSAGES | undefined;
        return fail(key && key in GOOGLE_MESSAGES ? GOOGLE_MESSAGES[key] : GOOGLE_MESSAGES.internal);
      }
      setBusy(false);
      setUser(toPublicUser(outcome.user));
      alert.show(AUTH_MESSAGES.googleLoggedIn, { tone: "success", durationMs: ALERT_MS });
      window.setTimeout(() => {
        void revalidator.revalidate();
        void navigate("/");
      }, ALERT_MS);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const data = event.data as PopupOutcome;
      if (data?.type === GOOGLE_POPUP_MESSAGE) finish(data);
    };
    window.addEventListener("message", onMessage);
    watchRef.current = window.setInterval(() => {
      if (popup.closed) {
        // Give a message posted just before closing a moment to arrive.
        window.setTimeout(() => popupRef.current === popup && finish(null), 300);
        window.clearInterval(watchRef.current);
      }
    }, CLOSED_CHECK_MS);
  }

  return (
    <button type="button" className="btn-outline w-full" onClick={start} aria-busy={busy}>
      <GoogleIcon width={18} height={18} />
      {busy ? "Waiting for Google…" : "Continue with Google"}
    </button>
  );
}
