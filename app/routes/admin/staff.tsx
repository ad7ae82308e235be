import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { PostButton } from "../../components/ui/PostButton.tsx";
import { ResetTwoFactorConfirm, ResetTwoFactorRefusal } from "../../components/admin/staff/ResetTwoFactor.tsx";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/staff";
import { Select, TextInput } from "../../components/admin/fields.tsx";
import { getAuth } from "../../../server/auth/auth.ts";
import { config } from "../../../server/config.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { staffListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { requireAdmin } from "../../../server/staff/guard.ts";
import {
  changeStaffRole,
  INVITE_DAYS,
  inviteSchema,
  inviteStaff,
  listStaffForAdmin,
  removeStaffMember,
  resendInvite,
  RESET_TWO_FACTOR_MESSAGES,
  resetStaffTwoFactor,
} from "../../../server/staff/manage.ts";
import { formText } from "../../lib/form-text.ts";

export function meta() {
  return [{ title: "Staff | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const {
    staff: admin,
    filter,
    list: staff,
  } = await loadListPage(request, {
    permission: "admin",
    filters: staffListFilters,
    list: (db) => listStaffForAdmin(db),
  });
  const { notice, reset: resetId } = filter;
  // ?reset=<id>: the confirmation step of "Reset two-factor" (a plain GET, so it works without JavaScript).
  const target = resetId ? staff.find((m) => m.id === resetId) : undefined;
  const resetMember =
    resetId && resetId !== admin.userId && target?.twoFactorEnabled
      ? { id: target.id, name: target.name, email: target.email }
      : null;
  const resetRefused =
    !resetId || resetMember
      ? null
      : resetId === admin.userId
        ? RESET_TWO_FACTOR_MESSAGES.own
        : target
          ? RESET_TWO_FACTOR_MESSAGES.notEnrolled(target.name)
          : "That person is not on the staff list.";
  return {
    staff,
    me: admin.userId,
    notice: notice && Object.hasOwn(NOTICES, notice) ? NOTICES[notice as keyof typeof NOTICES] : null,
    resetMember,
    resetRefused,
  };
}

const NOTICES = {
  invited: `Invitation sent. The link works for ${INVITE_DAYS} days.`,
  promoted:
    "They already had an account: it now has back-office access, its sessions have ended, and they were told by email.",
  reclaimed:
    "That address already had an account, never verified: its password, sessions and second factor were removed, and a link to choose a password was mailed.",
  "two-factor-reset":
    "Two-factor authentication reset. Their sessions have ended and they were emailed; they set it up again the next time they sign in.",
  reinvited: "A new invitation was sent.",
  role: "Role changed.",
  removed: "Removed from the staff list. Their sessions have ended.",
} as const;

const INVITE_ROLES = [
  { value: "staff", label: "staff: runs the store" },
  { value: "admin", label: "admin: also manages staff" },
];

type FieldErrors = Partial<Record<"email" | "name" | "role", string>>;

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readSmallForm(request);
  const db = getDb();
  const intent = formText(form, "intent");
  const userId = formText(form, "userId").slice(0, 100);
  try {
    if (intent === "invite") {
      const parsed = inviteSchema.safeParse({
        email: form.get("email") ?? "",
        name: form.get("name") ?? "",
        role: form.get("role") ?? "",
      });
      if (!parsed.success) {
        const errors: FieldErrors = {};
        for (const issue of parsed.error.issues) errors[issue.path[0] as keyof FieldErrors] ??= issue.message;
        return data(
          {
            ok: false,
            message: "Check the invitation.",
            errors,
            values: {
              email: formText(form, "email").slice(0, 254),
              name: formText(form, "name").slice(0, 100),
            },
          },
          { status: 400 },
        );
      }
      const result = await inviteStaff(db, getAuth(), admin, parsed.data, config().siteUrl);
      throw redirect(`/admin/staff?notice=${result.outcome}`);
    }
    if (intent === "resend") {
      await resendInvite(db, getAuth(), admin, userId, config().siteUrl);
      throw redirect("/admin/staff?notice=reinvited");
    }
    if (intent === "role") {
      await changeStaffRole(db, admin, userId, form.get("role"));
      throw redirect("/admin/staff?notice=role");
    }
    if (intent === "reset-two-factor") {
      await resetStaffTwoFactor(db, admin, userId, config().siteUrl);
      throw redirect("/admin/staff?notice=two-factor-reset");
    }
    if (intent === "remove") {
      if (userId === admin.userId)
        return data(
          { ok: false, message: "You can't remove yourself. Ask another admin.", errors: {}, values: null },
          { status: 409 },
        );
      await removeStaffMember(db, admin, userId);
      throw redirect("/admin/staff?notice=removed");
    }
  } catch (error) {
    if (isDomainError(error))
      return data({ ok: false, message: error.message, errors: {}, values: null }, { status: error.status });
    throw error;
  }
  return data({ ok: false, message: "Unknown action.", errors: {}, values: null }, { status: 400 });
}

type Member = Route.ComponentProps["loaderData"]["staff"][number];

/** Resend an invitation, reset two-factor (a confirmation step first), remove: never on your own row. */
function MemberActions({ member, me, busy }: { member: Member; me: string; busy: boolean }) {
  return (
    <div className="flex flex-wrap gap-2">
      {member.pending ? (
        <PostButton
          fields={{ intent: "resend", userId: member.id }}
          className="btn-outline py-1"
          disabled={busy}
          aria-label={`Resend invitation to ${member.name}`}
        >
          Resend invitation
        </PostButton>
      ) : null}
      {member.id !== me && member.twoFactorEnabled ? (
        <PostButton
          method="get"
          fields={{ reset: member.id }}
          className="btn-outline py-1"
          disabled={busy}
          aria-label={`Reset two-factor of ${member.name}`}
        >
          Reset two-factor
        </PostButton>
      ) : null}
      {member.id !== me ? (
        <PostButton
          fields={{ intent: "remove", userId: member.id }}
          className="btn-outline py-1 text-red-800"
          disabled={busy}
          aria-label={`Remove ${member.name}`}
        >
          Remove
        </PostButton>
      ) : null}
    </div>
  );
}

export default function StaffPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors: FieldErrors = actionData?.errors ?? {};
  const inviteField = (name: "name" | "email") => ({
    id: `invite-${name}`,
    name,
    autoComplete: "off",
    maxLength: 254,
    error: errors[name],
    defaultValue: actionData?.values?.[name],
  });
  const message = actionData?.message ?? loaderData.notice;
  return (
    <section aria-labelledby="staff-heading">
      <h1 id="staff-heading" className="text-3xl font-bold text-ink">
        Staff
      </h1>
      <div role="status" className="mt-4 min-h-6 text-sm font-semibold">
        {message ? <p className={actionData && !actionData.ok ? "text-red-800" : "text-green-800"}>{message}</p> : null}
      </div>
      {loaderData.resetMember ? <ResetTwoFactorConfirm member={loaderData.resetMember} busy={busy} /> : null}
      {loaderData.resetRefused ? <ResetTwoFactorRefusal message={loaderData.resetRefused} /> : null}

      <AdminList
        caption="Staff and admins"
        rows={loaderData.staff}
        rowKey={(member) => member.id}
        columns={[
          {
            header: "Name",
            rowHeader: true,
            className: "font-semibold",
            cell: (member) => `${member.name}${member.id === loaderData.me ? " (you)" : ""}`,
          },
          { header: "Email", cell: (member) => member.email },
          {
            header: "Role",
            cell: (member) => (
              <Form method="post" className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="intent" value="role" />
                <input type="hidden" name="userId" value={member.id} />
                <label htmlFor={`role-${member.id}`} className="sr-only">
                  Role of {member.name}
                </label>
                <select id={`role-${member.id}`} name="role" defaultValue={member.role} className="field w-auto py-1">
                  <option value="staff">staff</option>
                  <option value="admin">admin</option>
                </select>
                <button
                  type="submit"
                  className="btn-outline py-1"
                  disabled={busy}
                  aria-label={`Change role of ${member.name}`}
                >
                  Change role
                </button>
              </Form>
            ),
          },
          {
            header: "Two-factor",
            cell: (member) =>
              member.pending ? "Invitation pending" : member.twoFactorEnabled ? "Enrolled" : "Not enrolled yet",
          },
          { header: "Actions", cell: (member) => <MemberActions member={member} me={loaderData.me} busy={busy} /> },
        ]}
        empty="Nobody is on the staff list."
      />

      <h2 className="mt-10 text-xl font-semibold text-ink">Invite staff</h2>
      <Form method="post" className="mt-4 grid max-w-xl gap-4" noValidate>
        <input type="hidden" name="intent" value="invite" />
        <TextInput {...inviteField("name")} label="Name" />
        <TextInput {...inviteField("email")} label="Email" type="email" />
        <Select
          id="invite-role"
          name="role"
          label="Role"
          required={false}
          defaultValue="staff"
          error={errors.role}
          controlClassName="w-auto"
          options={INVITE_ROLES}
        />
        <div>
          <button type="submit" className="btn-primary" disabled={busy}>
            Send invitation
          </button>
        </div>
      </Form>
    </section>
  );
}
