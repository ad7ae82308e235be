/**
 * Managing staff from the back office (server/staff/manage.ts): invitations with a set-password
 * link, promotion of an existing customer, role changes, removal (sessions end), the last admin
 * kept, and an audit row with each change, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Auth } from "../../server/auth/auth.ts";
import {
  changeStaffRole,
  inviteSchema,
  inviteStaff,
  listStaffForAdmin,
  removeStaffMember,
  resendInvite,
} from "../../server/staff/manage.ts";
import { addStaff } from "../../server/staff/staff.ts";
import { OPERATOR } from "../../server/staff/cli.ts";
import { freshStaffDb, testAuthConfig } from "./auth-db.ts";
import { dialects, mailsTo, type TestDb } from "./databases.ts";

const PASSWORD = "Sturdy-Hammer-42";
const SITE = "http://127.0.0.1:3999";
const cfg = testAuthConfig(SITE);

describe("the invitation form's schema", () => {
  it("normalises the email and refuses bad fields with a message each", () => {
    expect(inviteSchema.parse({ email: " New@Example.COM ", name: "Nia", role: "staff" })).toEqual({
      email: "new@example.com",
      name: "Nia",
      role: "staff",
    });
    const bad = inviteSchema.safeParse({ email: "nope", name: "", role: "owner" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path[0]).sort()).toEqual(["email", "name", "role"]);
  });
});

describe.each(dialects)("managing staff on %s", (kind) => {
  let t: TestDb;
  let auth: Auth;
  let admin: { userId: string; name: string };

  beforeAll(async () => {
    ({ t, auth, admin } = await freshStaffDb(kind, cfg, PASSWORD));
  });
  afterAll(async () => {
    await t?.drop();
  });

  const mails = (to: string) => mailsTo(t.db, to);
  const audit = (objectId: string) =>
    t.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "before", "after"])
      .where("object_id", "=", objectId)
      .orderBy("id")
      .execute();

  it("invites a new person: an account without a password, the staff role, a set-password link that works, an audit row", async () => {
    const { userId, created } = await inviteStaff(
      t.db,
      auth as never,
      admin,
      { email: "nia@example.com", name: "Nia", role: "staff" },
      SITE,
    );
    expect(created).toBe(true);
    const [mail] = await mails("nia@example.com");
    expect(mail.subject).toBe("You're invited to the ToolHub Wholesale back office");
    const token = /\/reset-password\?token=([\w-]+)/.exec(mail.text_body)?.[1];
    expect(token).toBeTruthy();
    expect((await listStaffForAdmin(t.db)).find((m) => m.id === userId)).toMatchObject({
      role: "staff",
      pending: true,
      twoFactorEnabled: false,
    });
    expect(await audit(userId)).toEqual([
      {
        action: "staff.invite",
        actor_id: admin.userId,
        before: null,
        after: JSON.stringify({ email: "nia@example.com", name: "Nia", role: "staff" }),
      },
    ]);

    await auth.api.resetPassword({ body: { token: token!, newPassword: "Another-Sturdy-Pass-7" } });
    expect((await listStaffForAdmin(t.db)).find((m) => m.id === userId)!.pending).toBe(false);
    const signedIn = await auth.api.signInEmail({
      body: { email: "nia@example.com", password: "Another-Sturdy-Pass-7" },
    });
    expect(signedIn.user.id).toBe(userId);
    await expect(resendInvite(t.db, auth as never, admin, userId, SITE)).rejects.toMatchObject({ code: "NOT_PENDING" });
  });

  it("promotes an existing customer and tells them; refuses someone already on the staff list", async () => {
    await auth.api.signUpEmail({ body: { email: "cust@example.com", password: PASSWORD, name: "Cust" } });
    // A verified address keeps its password (an unverified one is covered in staff-membership.test.ts).
    await t.db
      .updateTable("user")
      .set({ emailVerified: kind === "postgres" ? true : 1 })
      .where("email", "=", "cust@example.com")
      .execute();
    const { userId, created, outcome } = await inviteStaff(
      t.db,
      auth as never,
      admin,
      { email: "cust@example.com", name: "Cust", role: "admin" },
      SITE,
    );
    expect(created).toBe(false);
    expect(outcome).toBe("promoted");
    expect((await mails("cust@example.com")).map((m) => m.subject)).toContain(
      "You now have access to the ToolHub Wholesale back office",
    );
    expect((await audit(userId)).map((a) => a.action)).toEqual(["staff.promote"]);
    await expect(
      inviteStaff(t.db, auth as never, admin, { email: "cust@example.com", name: "Cust", role: "staff" }, SITE),
    ).rejects.toMatchObject({ code: "ALREADY_STAFF", status: 409 });
  });

  it("changes roles with an audit row, refuses unknown roles and people, and keeps the last admin", async () => {
    const { userId } = await inviteStaff(
      t.db,
      auth as never,
      admin,
      { email: "role@example.com", name: "Ro", role: "staff" },
      SITE,
    );
    await changeStaffRole(t.db, admin, userId, "admin");
    expect((await audit(userId)).at(-1)).toMatchObject({
      action: "staff.set-role",
      before: '{"role":"staff"}',
      after: '{"role":"admin"}',
    });
    await expect(changeStaffRole(t.db, admin, userId, "owner")).rejects.toMatchObject({ status: 400 });
    await expect(changeStaffRole(t.db, admin, "no-such-user", "staff")).rejects.toMatchObject({ status: 404 });

    // Demote every admin but one; the last one stays.
    const admins = (await listStaffForAdmin(t.db)).filter((m) => m.role === "admin" && m.id !== admin.userId);
    for (const a of admins) await changeStaffRole(t.db, admin, a.id, "staff");
    const before = await t.db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    await expect(changeStaffRole(t.db, admin, admin.userId, "staff")).rejects.toMatchObject({ code: "LAST_ADMIN" });
    await expect(removeStaffMember(t.db, admin, admin.userId)).rejects.toMatchObject({ code: "LAST_ADMIN" });
    const after = await t.db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("removes someone: customer again, every session ended, an audit row", async () => {
    await addStaff(
      t.db,
      auth as never,
      { email: "gone@example.com", password: PASSWORD, role: "staff" },
      { actor: OPERATOR, siteUrl: SITE },
    );
    const session = await auth.api.signInEmail({ body: { email: "gone@example.com", password: PASSWORD } });
    const userId = session.user.id;
    await removeStaffMember(t.db, admin, userId);
    const user = await t.db.selectFrom("user").select("role").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user.role).toBe("customer");
    expect(await t.db.selectFrom("session").select("id").where("userId", "=", userId).execute()).toEqual([]);
    expect((await audit(userId)).at(-1)).toMatchObject({
      action: "staff.remove",
      before: '{"role":"staff"}',
      after: '{"role":"customer"}',
    });
    await expect(removeStaffMember(t.db, admin, userId)).rejects.toMatchObject({ code: "NOT_STAFF", status: 404 });
  });
});
