import { renderMail } from "../mail/templates.ts";
import type { OutgoingMail } from "../mail/queue.ts";

const ROLE_NAMES: Record<string, string> = { owner: "an owner", approver: "an approver", buyer: "a buyer" };

export function invitationMail(input: { email: string; role: string; companyName: string; inviterName: string; link: string }): OutgoingMail {
  const mail = renderMail({
    heading: `Join ${input.companyName} on ToolHub Wholesale`,
    paragraphs: [
      `${input.inviterName || "A colleague"} invited you to order for ${input.companyName} as ${ROLE_NAMES[input.role] ?? "a member"}, at the company's trade prices.`,
      "Sign in (or create an account) with this email address, then accept the invitation. It works for 7 days.",
    ],
    action: { label: "See the invitation", url: input.link },
    footer: "If you don't know this company, ignore this email: nothing happens unless you accept.",
  });
  return { to: input.email, subject: `Invitation to join ${input.companyName} on ToolHub Wholesale`, ...mail };
}

export function applicationReceivedMail(input: { email: string; name: string; companyName: string; link: string }): OutgoingMail {
  const mail = renderMail({
    heading: "We've received your trade account application",
    paragraphs: [`Hello ${input.name || "there"},`, `Thank you for applying for a trade account for ${input.companyName}. Our team checks each application, usually within one working day, and will email you the decision.`],
    action: { label: "See your application", url: input.link },
  });
  return { to: input.email, subject: "Your ToolHub Wholesale trade account application", ...mail };
}

export function applicationDecidedMail(input: { email: string; name: string; companyName: string; approved: boolean; reason: string | null; link: string }): OutgoingMail {
  const mail = input.approved
    ? renderMail({
        heading: `${input.companyName} now has a trade account`,
        paragraphs: [
          `Hello ${input.name || "there"},`,
          `Your trade account application for ${input.companyName} is approved. You are the company's owner: invite colleagues, set their spending limits and order at your company's prices.`,
        ],
        action: { label: "Open your company account", url: input.link },
      })
    : renderMail({
        heading: "About your trade account application",
        paragraphs: [
          `Hello ${input.name || "there"},`,
          `We could not approve the trade account application for ${input.companyName}.`,
          ...(input.reason ? [`Reason: ${input.reason}`] : []),
          "You can correct the details and apply again, or reply through our contact page.",
        ],
        action: { label: "See your application", url: input.link },
      });
  return { to: input.email, subject: input.approved ? "Your ToolHub Wholesale trade account is approved" : "Your ToolHub Wholesale trade account application", ...mail };
}
