/** Names and limits the Messages pages share with their server code (no zod here: it stays out of the browser bundle). */
export const REPLY_MAX = 10_000;
export const MESSAGE_INTENTS = { handled: "handled", unhandled: "unhandled", reply: "reply" } as const;
export const MAIL_INTENTS = { requeue: "requeue", requeueAllFailed: "requeue-all-failed" } as const;

export type MessageFilter = "all" | "unhandled" | "handled";
export const MESSAGE_FILTERS: readonly MessageFilter[] = ["all", "unhandled", "handled"];

export const NEWSLETTER_STATUSES = ["pending", "confirmed", "unsubscribed"] as const;
export const MAIL_STATUS_NAMES = ["queued", "sending", "transmitting", "sent", "failed", "unknown"] as const;

/** "Re: <their subject>", without stacking a second "Re:". */
export function replySubject(subject: string): string {
  return /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;
}
