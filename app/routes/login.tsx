import { useEffect, useRef, useState } from "react";
import { data, Link, redirect, useLocation, useNavigate, useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/login";
import { AuthCard } from "../components/account/AuthCard.tsx";
import { EmailField } from "../components/account/EmailField.tsx";
import { PasswordField } from "../components/account/PasswordField.tsx";
import { StaticAlert, useAlert } from "../components/ui/Alert.tsx";
import { postAuth, toPublicUser } from "../lib/auth-client.ts";
import { ACCOUNT_SUSPENDED_MESSAGE, authErrorMessage } from "../lib/auth-errors.ts";
import {
  AUTH_MESSAGES,
  checkLogin,
  isStaffRoleName,
  isValidEmail,
  STAFF_CODE_PATH,
  STAFF_PASSWORD_ONLY,
  STAFF_PASSWORD_ONLY_MESSAGE,
} from "../lib/auth-rules.ts";
import { useCurrentUser } from "../lib/current-user.tsx";
import { seo } from "../lib/seo.ts";
import { ALERT_MS } from "../lib/site.ts";
import { callAuthEndpoint, withCookies } from "../../server/auth/forward.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { formText } from "../lib/form-text.ts";
import { useHydrated } from "../lib/use-hydrated.ts";

export const LINK_SENT_MESSAGE =
  "If an account uses that email, a sign-in link is on its way. It works once and expires in 15 minutes.";
export const STAFF_SESSION_ENDED_MESSAGE = "Your back-office session ended after 12 hours. Sign in again.";
export const LINK_INVALID_MESSAGE = "That sign-in link has expired or was already used. Request a new one below.";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Login",
    description: "Sign in to your ToolHub Wholesale account.",
    path: "/login",
    matches,
    noindex: true,
  });
}

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const error = params.get("error") ?? "";
  return {
    email: params.get("email")?.slice(0, 254) ?? "",
    notice: /banned/i.test(error)
      ? ACCOUNT_SUSPENDED_MESSAGE
      : error === STAFF_PASSWORD_ONLY
        ? STAFF_PASSWORD_ONLY_MESSAGE
        : params.has("error")
          ? LINK_INVALID_MESSAGE
          : params.has("expired")
            ? STAFF_SESSION_ENDED_MESSAGE
            : params.get("registered")
              ? AUTH_MESSAGES.registered
              : null,
    registered: params.has("registered"),
    verified: params.has("verified"),
  };
}

/** The no-JavaScript path. It goes through the auth HTTP handler, so rate limits and origin checks apply. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readSmallForm(request);
  const email = formText(form, "email").slice(0, 300);
  if (form.get("intent") === "magic-link") {
    if (!isValidEmail(email.trim()))
      return data({ error: "Enter your email address to get a sign-in link.", email, sent: false }, { status: 400 });
    const result = await callAuthEndpoint(request, "/sign-in/magic-link", {
      email: email.trim(),
      callbackURL: "/",
      errorCallbackURL: "/login",
    });
    if (!result.ok && result.status !== 400)
      return data(
        {
          error: authErrorMessage("other", {
            status: result.status,
            ...result.body,
            retryAfterSeconds: Number(result.response.headers.get("x-retry-after")) || null,
          }),
          email,
          sent: false,
        },
        { status: result.status },
      );
    return { error: null, email, sent: true };
  }
  const password = formText(form, "password");
  const check = checkLogin({ email, password });
  if (!check.ok) return data({ error: check.message, email, sent: false }, { status: 400 });
  const result = await callAuthEndpoint(request, "/sign-in/email", { email: email.trim(), password, rememberMe: true });
  if (!result.ok) {
    const retry = Number(result.response.headers.get("x-retry-after")) || null;
    const body = (result.body ?? {}) as { code?: string; message?: string };
    return data(
      {
        error: authErrorMessage("login", {
          status: result.status,
          code: body.code,
          message: body.message,
          retryAfterSeconds: retry,
        }),
        email,
        sent: false,
      },
      { status: result.status === 401 ? 401 : result.status },
    );
  }
  // An account with two-factor authentication (staff) has no session yet: the code comes next.
  if (result.body?.twoFactorRedirect) throw redirect("/two-factor", { headers: withCookies({}, result.setCookies) });
  // Staff who haven't set up two-factor authentication yet: their session can only do that.
  if (isStaffRoleName((result.body?.user as { role?: unknown } | undefined)?.role))
    throw redirect(STAFF_CODE_PATH, { headers: withCookies({}, result.setCookies) });
  throw redirect("/", { headers: withCookies({}, result.setCookies) });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const alert = useAlert();
  const { setUser } = useCurrentUser();
  const formRef = useRef<HTMLFormElement>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const hydrated = useHydrated();
  // Registration with JavaScript arrives here with the new account's email in history state.
  const [justRegistered, setJustRegistered] = useState(false);

  // Registration hands over email and password in history state; read them once, then drop the password.
  useEffect(() => {
    const state = location.state as { email?: string; password?: string } | null;
    if (!state?.email && !state?.password) return;
    // History state is only readable in the browser, after hydration.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setJustRegistered(true);
    const form = formRef.current;
    if (form) {
      (form.elements.namedItem("email") as HTMLInputElement).value = state.email ?? "";
      (form.elements.namedItem("password") as HTMLInputElement).value = state.password ?? "";
    }
    // Drop the password from this history entry (React Router keeps its state under "usr").
    const entry = (window.history.state ?? {}) as { usr?: Record<string, unknown> };
    window.history.replaceState({ ...entry, usr: { email: state.email } }, "");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const form = new FormData(event.currentTarget);
    const email = formText(form, "email").trim();
    const password = formText(form, "password");
    setMessage(null);
    if (submitter?.value === "magic-link") {
      if (!isValidEmail(email)) return alert.show("Enter your email address to get a sign-in link.", { tone: "error" });
      setBusy(true);
      const result = await postAuth("/sign-in/magic-link", { email, callbackURL: "/", errorCallbackURL: "/login" });
      setBusy(false);
      if (!result.ok && result.status !== 400) return setMessage(result.message);
      setMessage(LINK_SENT_MESSAGE);
      return;
    }
    const check = checkLogin({ email, password });
    if (!check.ok) return alert.show(check.message, { tone: "error" });
    setBusy(true);
    const result = await postAuth<{
      user: { name: string; email: string; image: string | null; role?: string };
      twoFactorRedirect?: boolean;
    }>("/sign-in/email", { email, password, rememberMe: true }, "login");
    if (!result.ok) {
      setBusy(false);
      setMessage(result.message);
      alert.show(result.message, { tone: "error", durationMs: 4000 });
      return;
    }
    if (result.data.twoFactorRedirect) return navigate("/two-factor");
    if (isStaffRoleName(result.data.user.role)) return navigate(STAFF_CODE_PATH);
    setUser(toPublicUser(result.data.user));
    alert.show(AUTH_MESSAGES.loggedIn, { tone: "success", durationMs: ALERT_MS });
    window.setTimeout(() => {
      void revalidator.revalidate();
      void navigate("/");
    }, ALERT_MS);
  }

  const serverError = actionData?.error ?? null;
  const shown = message ?? serverError ?? (actionData?.sent ? LINK_SENT_MESSAGE : null);
  return (
    <AuthCard title="Login" footer={{ text: "New here?", linkText: "Create an account", to: "/register" }}>
      {!hydrated && loaderData.notice ? <StaticAlert tone="success" text={loaderData.notice} /> : null}
      {loaderData.verified || loaderData.registered || justRegistered ? (
        <p role="status" className="mb-4 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {loaderData.verified ? AUTH_MESSAGES.emailConfirmed : AUTH_MESSAGES.confirmEmailSent}
        </p>
      ) : null}
      <form ref={formRef} method="post" className="space-y-4" noValidate onSubmit={onSubmit}>
        <EmailField id="login-email" defaultValue={actionData?.email ?? loaderData.email} />
        <PasswordField id="login-password" autoComplete="current-password" />
        {shown ? (
          <p
            role="alert"
            className={`rounded-md p-3 text-sm ${shown === LINK_SENT_MESSAGE ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
          >
            {shown}
          </p>
        ) : null}
        {(loaderData.notice === STAFF_SESSION_ENDED_MESSAGE || loaderData.notice === STAFF_PASSWORD_ONLY_MESSAGE) &&
        hydrated ? (
          <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">{loaderData.notice}</p>
        ) : null}
        {loaderData.notice === ACCOUNT_SUSPENDED_MESSAGE && !shown ? (
          <p className="rounded-md bg-red-50 p-3 text-sm text-red-900">{ACCOUNT_SUSPENDED_MESSAGE}</p>
        ) : null}
        {loaderData.notice === LINK_INVALID_MESSAGE && !shown ? (
          <p className="rounded-md bg-red-50 p-3 text-sm text-red-900">{LINK_INVALID_MESSAGE}</p>
        ) : null}
        <button
          type="submit"
          name="intent"
          value="login"
          className="btn-primary w-full"
          disabled={busy || navigation.state === "submitting"}
        >
          Login
        </button>
        <button type="submit" name="intent" value="magic-link" className="btn-outline w-full" disabled={busy}>
          Email me a sign-in link
        </button>
        <p className="text-center text-sm">
          <Link to="/forgot-password" className="font-semibold text-brand-800 hover:underline">
            Forgot your password?
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
