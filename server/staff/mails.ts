/**
 * The mails the back office's staff management sends (server/staff/membership.ts, manage.ts):
 * invitations, access granted to an existing account, a second factor reset by an admin. Each is
 * queued with enqueueMail in the transaction of the change it reports.
 */
import type { OutgoingMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";
import type { StaffRole } from "./roles.ts";

export const INVITE_DAYS = 7;

const SIGNED_OUT = "Every session of yours has been signed out.";

const CHOOSE_PASSWORD = `Choose a password with the link below (it works once, for ${INVITE_DAYS} days), then sign in and open the back office at /admin, where you will set up two-factor authentication.`;

/** An invitation to the back office: the paragraphs end with how to choose a password from the link. */
function joinMail(to: string, paragraphs: string[], link: string, footer: string): OutgoingMail {
  return {
    to,
    subject: "You're invited to the ToolHub Wholesale back office",
    ...renderMail({
      heading: "Join the back office",
      paragraphs,
      action: { label: "Choose my password", url: link },
      footer,
    }),
  };
}

/** A new account: choose a password from the link, then enrol at /admin. */
export function inviteMail(to: string, name: string, link: string, invitedBy: string): OutgoingMail {
  return joinMail(
    to,
    [`Hello ${name},`, `${invitedBy} has invited you to run the ToolHub Wholesale store. ${CHOOSE_PASSWORD}`],
    link,
    "If you weren't expecting this, ignore this email.",
  );
}

/**
 * An account whose address was never confirmed was given a role: whoever had set its password may
 * not own the address, so the password, sessions and second factor were removed; the owner of the
 * mailbox chooses a password from the link.
 */
export function reclaimedAccountMail(
  to: string,
  name: string,
  link: string,
  role: StaffRole,
  invitedBy: string,
): OutgoingMail {
  return joinMail(
    to,
    [
      `Hello ${name},`,
      `${invitedBy} has given your ToolHub Wholesale account the ${role} role, to run the store.`,
      `This email address had an account whose address was never confirmed, so we can't be sure who chose its password. To keep the back office safe we removed that password and any two-factor set-up, and signed the account out everywhere.`,
      CHOOSE_PASSWORD,
    ],
    link,
    "If you weren't expecting this, ignore this email: nobody can sign in to the account without this mailbox.",
  );
}

/** A confirmed account was given a role; its sessions ended so the next one follows staff rules. */
export function accessMail(to: string, name: string, link: string, role: StaffRole): OutgoingMail {
  return {
    to,
    subject: "You now have access to the ToolHub Wholesale back office",
    ...renderMail({
      heading: "Back office access",
      paragraphs: [
        `Hello ${name},`,
        `Your account now has the ${role} role. ${SIGNED_OUT} Sign in again as usual and open the back office; the first time, you will set up two-factor authentication.`,
      ],
      action: { label: "Open the back office", url: link },
      footer: "If you weren't expecting this, tell the store's admin.",
    }),
  };
}

/** An admin removed a colleague's second factor: they enrol again at their next sign-in. */
export function twoFactorResetMail(to: string, name: string, link: string, resetBy: string): OutgoingMail {
  return {
    to,
    subject: "Your two-factor authentication was reset",
    ...renderMail({
      heading: "Two-factor authentication reset",
      paragraphs: [
        `Hello ${name},`,
        `${resetBy} reset the two-factor authentication of your ToolHub Wholesale back-office account: your authenticator app and backup codes no longer work for it. ${SIGNED_OUT}`,
        "The next time you sign in and open the back office, you will set up two-factor authentication again.",
      ],
      action: { label: "Sign in", url: link },
      footer: "If you did not ask for this, tell another admin at once.",
    }),
  };
}
