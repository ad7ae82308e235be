/** Names, limits and texts the customer pages share with server/customers (no server code here: pages import it). */
export type SignInMethod = "password" | "google" | "other";

const METHOD_LABELS: Record<SignInMethod, string> = {
  password: "Password",
  google: "Google",
  other: "Other provider",
};

/** Every account can ask for an emailed sign-in link; it leaves no account row, so it is always listed last. */
export function methodLabels(methods: readonly SignInMethod[]): string[] {
  return [...methods.map((m) => METHOD_LABELS[m]), "Email link"];
}

export const ROLE_LABELS = { customer: "Customer", staff: "Staff", admin: "Admin" } as const;

export const BAN_REASON_MAX = 500;
export const CUSTOMER_INTENTS = { ban: "ban", unban: "unban" } as const;
export const MAX_SEARCH_LENGTH = 100;

export const BAN_MESSAGES = {
  notFound: "This account doesn't exist (any more).",
  staff: "Staff and admin accounts can't be banned here. An admin manages staff on the Staff page.",
  alreadyBanned: "This customer is already banned.",
  notBanned: "This customer isn't banned.",
  banned: (sessions: number) =>
    `Customer banned. ${sessions === 1 ? "1 session was" : `${sessions} sessions were`} ended.`,
  unbanned: "Customer unbanned. They can sign in again.",
} as const;
