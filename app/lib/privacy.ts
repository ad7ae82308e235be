/** Texts and rules of "Your data" (download and account deletion), shared by server and pages. */

/** A sign-in this recent confirms an account without a password (Google or email link only). */
export const FRESH_SIGN_IN_MINUTES = 10;

/** What the person types to confirm the deletion. */
export const DELETE_CONFIRMATION_WORD = "DELETE";

export const PRIVACY_MESSAGES = {
  passwordRequired: "Enter your password to confirm it's you.",
  wrongPassword: "That password isn't right. Nothing was changed.",
  signInAgain: `For your safety, sign in again (with Google or an email link), then come back within ${FRESH_SIGN_IN_MINUTES} minutes.`,
  tooManyAttempts: (seconds: number) =>
    `Too many attempts. Try again in ${Math.max(1, Math.ceil(seconds / 60))} minute${seconds > 60 ? "s" : ""}.`,
  typeDelete: `Type ${DELETE_CONFIRMATION_WORD} in capital letters to confirm.`,
  untrustedOrigin: "This request didn't come from the store's own pages, so it was refused.",
  deleted: "Your account has been deleted and you've been signed out.",
} as const;

/** Error codes the download redirects back with (/account?data-error=…), and what to tell the person. */
export const DATA_DOWNLOAD_ERRORS: Record<string, string> = {
  PASSWORD_REQUIRED: PRIVACY_MESSAGES.passwordRequired,
  WRONG_PASSWORD: PRIVACY_MESSAGES.wrongPassword,
  SIGN_IN_AGAIN: PRIVACY_MESSAGES.signInAgain,
  TOO_MANY_ATTEMPTS: "Too many attempts. Try again in a few minutes.",
};

/** How the account confirms it's the owner: its password, or (no password) a recent sign-in. */
export interface IdentityCheck {
  hasPassword: boolean;
  freshSignIn: boolean;
}
