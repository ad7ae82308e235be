/**
 * The company page's posts: invite a colleague, cancel an invitation, remove a member, accept or
 * decline an invitation. Each goes through Better Auth's organization endpoints over its HTTP
 * handler, so the plugin checks the caller's company role (and its rate limits and origin checks
 * apply); this module only reads the form and turns the answers into readable messages.
 */
import { z } from "zod";
import { callAuthEndpoint } from "../auth/forward.ts";
import { COMPANY_ROLES } from "../auth/company-roles.ts";
import { ALREADY_IN_COMPANY_MESSAGE } from "./company.ts";
import { formText } from "../../app/lib/form-text.ts";

export interface CompanyActionResult {
  ok: boolean;
  status: number;
  message: string;
  field?: "email" | "role";
}

const MESSAGES: Record<string, string> = {
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "That person is already a member of your company.",
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: "That person already has an invitation.",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: "Only the company's owners can invite colleagues.",
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: "Only the company's owners can cancel invitations.",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: "Only the company's owners can remove members.",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: "The company needs at least one owner.",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: "The company needs at least one owner.",
  INVITATION_NOT_FOUND: "This invitation no longer exists: it was cancelled, used or has expired.",
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION:
    "This invitation was sent to another email address. Sign in with that address to accept it.",
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION:
    "Confirm your email address first (from the mail we sent when you registered), then accept the invitation.",
  MEMBER_NOT_FOUND: "That member is no longer in your company.",
  INVITATION_LIMIT_REACHED: "Your company has too many open invitations. Cancel some first.",
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: "Your company has reached its member limit.",
};

function answer(call: Awaited<ReturnType<typeof callAuthEndpoint>>, success: string): CompanyActionResult {
  if (call.ok) return { ok: true, status: 200, message: success };
  const body = (call.body ?? {}) as { code?: string; message?: string };
  if (call.status === 429)
    return { ok: false, status: 429, message: "Too many attempts in a short time. Try again in a minute." };
  if (body.message === ALREADY_IN_COMPANY_MESSAGE)
    return { ok: false, status: 409, message: ALREADY_IN_COMPANY_MESSAGE };
  const status = call.status >= 400 && call.status < 500 ? call.status : 400;
  return {
    ok: false,
    status,
    message: (body.code && MESSAGES[body.code]) || "That didn't work. Reload the page and try again.",
  };
}

const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, "Enter a shorter email address.")
    .pipe(z.email({ message: "Enter a valid email address, like name@example.com." })),
  role: z.enum(COMPANY_ROLES as [string, ...string[]], { message: "Choose a role: buyer, approver or owner." }),
});

export async function inviteColleague(
  request: Request,
  organizationId: string,
  form: FormData,
): Promise<CompanyActionResult> {
  const parsed = inviteSchema.safeParse({
    email: formText(form, "email"),
    role: formText(form, "role"),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, status: 400, message: issue.message, field: issue.path[0] === "role" ? "role" : "email" };
  }
  const call = await callAuthEndpoint(request, "/organization/invite-member", {
    ...parsed.data,
    organizationId,
    resend: true,
  });
  return answer(call, `Invitation sent to ${parsed.data.email}.`);
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;

function idFrom(form: FormData, name: string): string | null {
  const v = formText(form, name);
  return ID.test(v) ? v : null;
}

export async function cancelInvitation(request: Request, form: FormData): Promise<CompanyActionResult> {
  const invitationId = idFrom(form, "invitationId");
  if (!invitationId) return { ok: false, status: 400, message: MESSAGES.INVITATION_NOT_FOUND };
  return answer(
    await callAuthEndpoint(request, "/organization/cancel-invitation", { invitationId }),
    "Invitation cancelled.",
  );
}

export async function removeMember(
  request: Request,
  organizationId: string,
  form: FormData,
): Promise<CompanyActionResult> {
  const memberId = idFrom(form, "memberId");
  if (!memberId) return { ok: false, status: 400, message: MESSAGES.MEMBER_NOT_FOUND };
  return answer(
    await callAuthEndpoint(request, "/organization/remove-member", { memberIdOrEmail: memberId, organizationId }),
    "Member removed.",
  );
}

export async function answerInvitation(
  request: Request,
  form: FormData,
  accept: boolean,
): Promise<CompanyActionResult> {
  const invitationId = idFrom(form, "invitationId");
  if (!invitationId) return { ok: false, status: 400, message: MESSAGES.INVITATION_NOT_FOUND };
  const call = await callAuthEndpoint(
    request,
    accept ? "/organization/accept-invitation" : "/organization/reject-invitation",
    { invitationId },
  );
  return answer(call, accept ? "Welcome aboard: you now order for your company." : "Invitation declined.");
}
