/**
 * Which of Better Auth's HTTP endpoints the store serves, and why: everything else its plugins
 * mount (the admin plugin's /admin/*, two-factor disable and backup codes, organization update,
 * account linking, session listing …) answers 404. The back office does what those did through
 * its own audited functions (server/staff/, server/customers/, server/trade/).
 *
 * - "browser": the page's script (or a link in a mail, or Google's redirect) calls it at /api/auth/*.
 * - "store": only the store's own route actions call it, through callAuthEndpoint (forward.ts),
 *   which hands the request to Better Auth's handler in-process; /api/auth/* answers 404 for it.
 *
 * tests/integration/auth-surface.test.ts walks every endpoint the mounted plugins expose.
 */
import type { BetterAuthPlugin } from "better-auth";

export type AuthCaller = "browser" | "store";

export interface OpenAuthEndpoint {
  /** Better Auth's path, as its endpoint declares it (`:name` is one path segment). */
  path: string;
  methods: readonly ("GET" | "POST")[];
  caller: AuthCaller;
  reason: string;
}

export const OPEN_AUTH_ENDPOINTS: readonly OpenAuthEndpoint[] = [
  {
    path: "/sign-up/email",
    methods: ["POST"],
    caller: "browser",
    reason: "/register creates an account (its no-JS form posts the same through the page's action)",
  },
  { path: "/sign-in/email", methods: ["POST"], caller: "browser", reason: "/login with a password" },
  {
    path: "/sign-in/magic-link",
    methods: ["POST"],
    caller: "browser",
    reason: '/login: "Email me a sign-in link" (customers only: staff are mailed a refusal)',
  },
  { path: "/magic-link/verify", methods: ["GET"], caller: "browser", reason: "the emailed sign-in link" },
  { path: "/request-password-reset", methods: ["POST"], caller: "browser", reason: "/forgot-password" },
  {
    path: "/reset-password/:token",
    methods: ["GET"],
    caller: "browser",
    reason: "the emailed reset link, which redirects to /reset-password",
  },
  { path: "/verify-email", methods: ["GET"], caller: "browser", reason: "the emailed address confirmation link" },
  {
    path: "/sign-in/social",
    methods: ["POST"],
    caller: "browser",
    reason: '"Continue with Google" opens the provider (customers only: staff sessions are refused)',
  },
  { path: "/callback/:id", methods: ["GET", "POST"], caller: "browser", reason: "Google's redirect back to the store" },
  {
    path: "/error",
    methods: ["GET"],
    caller: "browser",
    reason: "where Better Auth sends a failed provider redirect; a page, it changes nothing",
  },
  {
    path: "/sign-out",
    methods: ["POST"],
    caller: "browser",
    reason: "the user menu's Log out (and /logout, /account/delete)",
  },
  { path: "/reset-password", methods: ["POST"], caller: "store", reason: "/reset-password sets the new password" },
  {
    path: "/change-password",
    methods: ["POST"],
    caller: "store",
    reason: "/account: Change password (a staff session must have passed a code)",
  },
  {
    path: "/two-factor/enable",
    methods: ["POST"],
    caller: "store",
    reason: "/admin/two-factor: first enrolment (refused once enrolled: a reset by an admin comes first)",
  },
  {
    path: "/two-factor/verify-totp",
    methods: ["POST"],
    caller: "store",
    reason: "/two-factor and /admin/two-factor: a code (counted per account, each time step once)",
  },
  {
    path: "/two-factor/verify-backup-code",
    methods: ["POST"],
    caller: "store",
    reason: "/two-factor and /admin/two-factor: a backup code (counted per account)",
  },
  {
    path: "/organization/invite-member",
    methods: ["POST"],
    caller: "store",
    reason: "/account/company: an owner invites a buyer",
  },
  {
    path: "/organization/cancel-invitation",
    methods: ["POST"],
    caller: "store",
    reason: "/account/company: an owner cancels an invitation",
  },
  {
    path: "/organization/remove-member",
    methods: ["POST"],
    caller: "store",
    reason: "/account/company: an owner removes a member",
  },
  {
    path: "/organization/accept-invitation",
    methods: ["POST"],
    caller: "store",
    reason: "/account/company/join: the invitee accepts",
  },
  {
    path: "/organization/reject-invitation",
    methods: ["POST"],
    caller: "store",
    reason: "/account/company/join: the invitee declines",
  },
];

function matches(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const got = path.split("/");
  return (
    want.length === got.length && want.every((part, i) => (part.startsWith(":") ? got[i].length > 0 : part === got[i]))
  );
}

/** The allow-list entry for a request to Better Auth's `path` (below its base path), or null. */
function openAuthEndpoint(method: string, path: string): OpenAuthEndpoint | null {
  const verb = method === "HEAD" ? "GET" : method;
  return (
    OPEN_AUTH_ENDPOINTS.find((e) => (e.methods as readonly string[]).includes(verb) && matches(e.path, path)) ?? null
  );
}

/** Whether `caller` may reach the endpoint: the browser only its own entries, the store's actions every entry. */
export function authEndpointOpenTo(caller: AuthCaller, method: string, path: string): boolean {
  const entry = openAuthEndpoint(method, path);
  return entry !== null && (caller === "store" || entry.caller === "browser");
}

/**
 * A plugin whose onRequest closes every endpoint not on the list for any request that reaches
 * Better Auth's handler (the Express mount and callAuthEndpoint alike). Server calls through
 * auth.api.* don't pass the handler, so the store's own functions can still use them.
 */
export function httpSurface(basePath: string): BetterAuthPlugin {
  return {
    id: "store-http-surface",
    onRequest(request) {
      const { pathname } = new URL(request.url);
      const path = pathname.startsWith(basePath) ? pathname.slice(basePath.length) || "/" : pathname;
      if (authEndpointOpenTo("store", request.method, path)) return Promise.resolve(undefined);
      return Promise.resolve({ response: new Response("Not Found", { status: 404 }) });
    },
  };
}
