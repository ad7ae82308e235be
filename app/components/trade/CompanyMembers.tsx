import { Form } from "react-router";
import { PostButton } from "../ui/PostButton.tsx";
import { LinesSection, type LineColumn } from "../ui/LinesTable.tsx";
import { HeadedSection } from "../ui/HeadedSection.tsx";

export interface ActionMessage {
  ok: boolean;
  message: string;
  intent: string;
  field?: "email" | "role";
  email?: string;
}

const ROLE_LABELS: Record<string, string> = { owner: "Owner", approver: "Approver", buyer: "Buyer" };
const roleLabel = (role: string) =>
  role
    .split(",")
    .map((r) => ROLE_LABELS[r.trim()] ?? r)
    .join(", ");

interface Member {
  id: string;
  name: string;
  email: string;
  role: string;
  you: boolean;
}

interface Invitation {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
}

const MEMBER_COLUMNS: LineColumn<Member>[] = [
  { header: "Name", className: "py-2", cell: (m) => `${m.name}${m.you ? " (you)" : ""}` },
  { header: "Email", className: "py-2", cell: (m) => m.email },
  { header: "Role", className: "py-2", cell: (m) => roleLabel(m.role) },
];

const REMOVE_COLUMN: LineColumn<Member> = {
  header: <span className="sr-only">Actions</span>,
  headerClassName: "py-2",
  cellClassName: "py-2 text-right",
  cell: (m) =>
    m.you ? null : (
      <PostButton
        fields={{ intent: "remove-member", memberId: m.id }}
        className="text-sm font-semibold text-red-800 hover:underline"
        aria-label={`Remove ${m.name} from the company`}
      >
        Remove
      </PostButton>
    ),
};

/** The company's members and open invitations; owners get Remove and Cancel buttons. */
export function CompanyMembers({
  members,
  invitations,
  manages,
}: {
  members: Member[];
  invitations: Invitation[];
  manages: boolean;
}) {
  return (
    <LinesSection
      headingId="members-heading"
      title="Members"
      caption="Members of your company"
      columns={manages ? [...MEMBER_COLUMNS, REMOVE_COLUMN] : MEMBER_COLUMNS}
      lines={members}
      rowKey={(m) => m.id}
    >
      {manages && invitations.length ? (
        <>
          <h3 className="mt-6 font-bold text-ink">Open invitations</h3>
          <ul className="mt-2 space-y-2">
            {invitations.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center gap-3">
                <span>
                  {i.email} · {roleLabel(i.role)} · until{" "}
                  {new Date(i.expiresAt).toLocaleDateString("en-GB", {
                    day: "numeric",
                    month: "short",
                    year: "numeric",
                    timeZone: "UTC",
                  })}
                </span>
                <PostButton
                  fields={{ intent: "cancel-invitation", invitationId: i.id }}
                  className="text-sm font-semibold text-red-800 hover:underline"
                  aria-label={`Cancel the invitation to ${i.email}`}
                >
                  Cancel
                </PostButton>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </LinesSection>
  );
}

/** The owner's form to invite a colleague by email, as a buyer, an approver or an owner. */
export function InviteForm({ error }: { error?: ActionMessage }) {
  return (
    <HeadedSection id="invite-heading" title="Invite a colleague" headingClassName="text-lg font-bold text-ink">
      <Form method="post" noValidate className="mt-2 flex flex-wrap items-end gap-4">
        <input type="hidden" name="intent" value="invite" />
        <div>
          <label htmlFor="invite-email" className="block text-sm font-semibold text-ink">
            Colleague's email
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            defaultValue={error?.email ?? ""}
            className="field mt-1"
            aria-invalid={error?.field === "email" ? true : undefined}
            aria-describedby={error?.field === "email" ? "invite-email-error" : undefined}
          />
          {error?.field === "email" ? (
            <p id="invite-email-error" className="mt-1 text-sm font-medium text-red-700">
              {error.message}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor="invite-role" className="block text-sm font-semibold text-ink">
            Role
          </label>
          <select id="invite-role" name="role" defaultValue="buyer" className="field mt-1">
            <option value="buyer">Buyer: orders</option>
            <option value="approver">Approver: orders and approves orders above a limit</option>
            <option value="owner">Owner: manages members and limits</option>
          </select>
        </div>
        <button type="submit" className="btn-primary">
          Send invitation
        </button>
      </Form>
    </HeadedSection>
  );
}
