/**
 * Mails that tell an account's owner about a change to how it is protected: a second factor set
 * up, code entry locked after wrong codes, a sign-in link refused for a staff account. They carry
 * nothing a requester typed, only the store's own words.
 */
import type { OutgoingMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";

const FOOTER = "If this wasn't you, change your password at once and tell a colleague who is an admin.";

function greeting(name: string | null | undefined): string {
  return `Hello ${name?.trim() || "there"},`;
}

export function secondFactorEnabledMail(to: string, name: string | null | undefined, siteUrl: string): OutgoingMail {
  return {
    to,
    subject: "Two-factor authentication is on for your ToolHub Wholesale account",
    ...renderMail({
      heading: "Two-factor authentication is on",
      paragraphs: [
        greeting(name),
        "An authenticator app was just set up for your account. From now on, signing in to the back office asks for a code from that app after your password.",
      ],
      action: { label: "Open the back office", url: `${siteUrl}/admin` },
      footer: FOOTER,
    }),
  };
}

export function secondFactorLockedMail(to: string, name: string | null | undefined, minutes: number): OutgoingMail {
  return {
    to,
    subject: "Code entry on your ToolHub Wholesale account is paused",
    ...renderMail({
      heading: "Too many wrong authentication codes",
      paragraphs: [
        greeting(name),
        `Wrong authentication codes were entered for your account several times in a row, so no code will be accepted for the next ${minutes} minutes.`,
        "Whoever entered them already knew your password or had your email. If it wasn't you, change your password and ask an admin to check your account.",
      ],
      footer: FOOTER,
    }),
  };
}

export function staffLinkRefusedMail(to: string, siteUrl: string): OutgoingMail {
  return {
    to,
    subject: "Sign-in links don't work for staff accounts",
    ...renderMail({
      heading: "Sign in with your password",
      paragraphs: [
        "Someone asked for a sign-in link for this address. Staff accounts of ToolHub Wholesale sign in only with their password and a code from their authenticator app, so no link was sent.",
        "If you forgot your password, choose a new one from the login page; your authenticator app is still needed after it.",
      ],
      action: { label: "Sign in", url: `${siteUrl}/login` },
      footer: FOOTER,
    }),
  };
}
