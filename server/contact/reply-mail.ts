/** The mail that answers a contact message from the back office. */
import type { ContactMessageRow } from "../db/schema.ts";
import type { OutgoingMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";
import { replySubject } from "../../app/lib/admin/message-constants.ts";

export { replySubject };

export function contactReplyMail(
  message: Pick<ContactMessageRow, "name" | "email" | "subject" | "message" | "created_at">,
  reply: string,
  options: { storeInbox: string; siteUrl: string },
): OutgoingMail {
  const quoted = message.message
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join("\n");
  return {
    to: message.email,
    replyTo: options.storeInbox,
    subject: replySubject(message.subject),
    ...renderMail({
      heading: replySubject(message.subject),
      paragraphs: [`Hello ${message.name},`, reply, `On ${message.created_at.slice(0, 10)} you wrote:\n${quoted}`],
      action: { label: "Visit ToolHub Wholesale", url: `${options.siteUrl}/` },
      footer:
        "You're getting this email because you sent us a message through the contact form. Reply to this email to continue the conversation.",
    }),
  };
}
