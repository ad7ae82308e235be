/**
 * "Your data" and account deletion cover quotes and trade applications (issue 48, item 8): the
 * export carries the quote's email and message and the application's phone and address; deletion
 * removes what the accounts don't need and blanks the rest, on SQLite and PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tradeApplicationSchema } from "../../app/lib/trade-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { eraseAccount, ERASED_USER_ID } from "../../server/privacy/erase.ts";
import { exportAccountData } from "../../server/privacy/export.ts";
import { requestQuote } from "../../server/quotes/quotes.ts";
import { applyForTrade, decideApplication, listApplications } from "../../server/trade/applications.ts";
import { ownerForUser } from "../../server/shopper/guest.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const SITE = "https://shop.example";
const INBOX = "support@toolhub.example";
const STAFF = { userId: "staff-1", name: "Sam Staff" };

describe.each(dialects)("quotes and trade applications in the data export and account deletion on %s", (kind) => {
  let t: TestDb;

  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const table = async (name: "quotes" | "quote_lines" | "trade_applications" | "mail_queue" | "companies") =>
    JSON.stringify(await t.db.selectFrom(name).selectAll().execute()).toLowerCase();

  /** A customer whose trade application was rejected once, then approved; one open quote, one accepted. */
  async function buyer(tag: string) {
    const suffix = randomBytes(4).toString("hex");
    const now = new Date().toISOString();
    const person = { id: `user-${tag}-${suffix}`, name: `Ada ${tag}${suffix}`, email: `${tag}.${suffix}@example.com` };
    await t.db
      .insertInto("user")
      .values({ ...person, emailVerified: true, createdAt: now, updatedAt: now })
      .execute();
    const phone = `+44 20 7946 ${String(parseInt(suffix.slice(0, 4), 16))
      .padStart(4, "0")
      .slice(0, 4)}`;
    const street = `${suffix} Applicant Street`;
    const rejectedStreet = `${suffix} Rejected Row`;
    const form = (line1: string) =>
      tradeApplicationSchema.parse({
        companyName: `Ada Tools ${suffix}`,
        country: "GB",
        taxId: "GB 123 4567 89",
        line1,
        line2: `Unit ${suffix}`,
        city: `Town${suffix}`,
        postcode: "SW1A 1AA",
        phone,
      });
    const rejected = await applyForTrade(t.db, {
      userId: person.id,
      email: person.email,
      name: person.name,
      form: form(rejectedStreet),
      siteUrl: SITE,
    });
    await decideApplication(t.db, {
      id: rejected.id,
      approve: false,
      reason: "Tax number not found",
      actor: STAFF,
      siteUrl: SITE,
      createOrganization: async () => "unused",
    });
    const approved = await applyForTrade(t.db, {
      userId: person.id,
      email: person.email,
      name: person.name,
      form: form(street),
      siteUrl: SITE,
    });
    await decideApplication(t.db, {
      id: approved.id,
      approve: true,
      reason: null,
      actor: STAFF,
      siteUrl: SITE,
      createOrganization: async ({ userId, name }) => {
        const id = `org-${suffix}`;
        await t.db
          .insertInto("organization")
          .values({ id, name, slug: `ada-${suffix}`, logo: null, metadata: null, createdAt: now })
          .execute();
        await t.db
          .insertInto("member")
          .values({ id: `mem-${suffix}`, organizationId: id, userId, role: "owner", createdAt: now })
          .execute();
        return id;
      },
    });
    // As a trade buyer any cart may be sent for a quote.
    await addToCart(t.db, ownerForUser(person.id), { productId: 1, quantity: 2 });
    const openMessage = `Open quote message ${suffix}: call me on ${phone}`;
    const acceptedMessage = `Accepted quote message ${suffix}`;
    const who = { userId: person.id, email: person.email, owner: ownerForUser(person.id) };
    const open = await requestQuote(t.db, who, { message: openMessage, siteUrl: SITE, storeInbox: INBOX });
    const accepted = await requestQuote(t.db, who, { message: acceptedMessage, siteUrl: SITE, storeInbox: INBOX });
    await t.db
      .updateTable("quotes")
      .set({ status: "accepted", staff_note: "Agreed by phone", decided_at: now })
      .where("number", "=", accepted)
      .execute();
    return {
      ...person,
      phone,
      street,
      rejectedStreet,
      suffix,
      open,
      accepted,
      openMessage,
      acceptedMessage,
      approvedId: approved.id,
      rejectedId: rejected.id,
    };
  }

  it("exports the account's quotes (email, message, lines) and trade applications (phone, address), nobody else's", async () => {
    const ada = await buyer("export");
    const bob = await buyer("bystander");
    const data = await exportAccountData(t.db, ada.id);
    expect(data.quotes.map((q) => q.number).sort()).toEqual([ada.open, ada.accepted].sort());
    expect(data.quotes.find((q) => q.number === ada.open)).toMatchObject({
      status: "requested",
      email: ada.email,
      message: ada.openMessage,
      lines: [{ productId: 1, quantity: 2 }],
    });
    expect(data.quotes.find((q) => q.number === ada.accepted)).toMatchObject({
      status: "accepted",
      message: ada.acceptedMessage,
      noteFromStore: "Agreed by phone",
    });
    expect(data.tradeApplications).toHaveLength(2);
    expect(data.tradeApplications[0]).toMatchObject({
      status: "rejected",
      reason: "Tax number not found",
      phone: ada.phone,
      billingAddress: { line1: ada.rejectedStreet, postcode: "SW1A 1AA" },
    });
    expect(data.tradeApplications[1]).toMatchObject({
      status: "approved",
      companyName: `Ada Tools ${ada.suffix}`,
      taxId: "GB123456789",
      phone: ada.phone,
      billingAddress: { line1: ada.street, line2: `Unit ${ada.suffix}`, city: `Town${ada.suffix}` },
    });
    const text = JSON.stringify(data);
    for (const other of [bob.email, bob.open, bob.accepted, bob.openMessage, bob.street, bob.phone])
      expect(text).not.toContain(other);
  });

  it("deletion removes open quotes and undecided or rejected applications, blanks the accepted quote and the approved application, and keeps the company", async () => {
    const ada = await buyer("erase");
    const bob = await buyer("survivor");
    const acceptedBefore = await t.db
      .selectFrom("quotes")
      .selectAll()
      .where("number", "=", ada.accepted)
      .executeTakeFirstOrThrow();
    const acceptedLines = await t.db
      .selectFrom("quote_lines")
      .selectAll()
      .where("quote_id", "=", acceptedBefore.id)
      .execute();
    const openId = (
      await t.db.selectFrom("quotes").select("id").where("number", "=", ada.open).executeTakeFirstOrThrow()
    ).id;
    const staffMails = await t.db
      .selectFrom("mail_queue")
      .select("id")
      .where("subject", "in", [`Quote request ${ada.open}`, `Quote request ${ada.accepted}`])
      .execute();
    expect(staffMails).toHaveLength(2);

    const summary = await eraseAccount(t.db, ada.id);
    expect(summary).toMatchObject({
      quotesDeleted: 1,
      quotesAnonymised: 1,
      applicationsDeleted: 1,
      applicationsAnonymised: 1,
    });

    // The open quote and its lines are gone; the accepted one stays for the accounts, blanked.
    expect(
      await t.db.selectFrom("quotes").select("id").where("number", "=", ada.open).executeTakeFirst(),
    ).toBeUndefined();
    expect(await t.db.selectFrom("quote_lines").select("id").where("quote_id", "=", openId).execute()).toEqual([]);
    expect(
      await t.db.selectFrom("quotes").selectAll().where("number", "=", ada.accepted).executeTakeFirstOrThrow(),
    ).toEqual({
      ...acceptedBefore,
      user_id: ERASED_USER_ID,
      email: "",
      message: null,
    });
    expect(
      await t.db.selectFrom("quote_lines").selectAll().where("quote_id", "=", acceptedBefore.id).execute(),
    ).toEqual(acceptedLines);

    // The rejected application is gone; the approved one (its company points at it) keeps the company's identity only.
    expect(
      await t.db.selectFrom("trade_applications").select("id").where("id", "=", ada.rejectedId).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await t.db
        .selectFrom("trade_applications")
        .selectAll()
        .where("id", "=", ada.approvedId)
        .executeTakeFirstOrThrow(),
    ).toMatchObject({
      user_id: ERASED_USER_ID,
      company_name: `Ada Tools ${ada.suffix}`,
      tax_id: "GB123456789",
      country: "GB",
      phone: "",
      billing_line1: "",
      billing_line2: null,
      billing_city: "",
      billing_postcode: "SW1A",
      status: "approved",
    });
    expect(
      await t.db
        .selectFrom("companies")
        .select("application_id")
        .where("application_id", "=", ada.approvedId)
        .executeTakeFirst(),
    ).toBeDefined();

    // Nothing of what Ada typed is left in quotes, applications or mails (the company's own row is the company's).
    const stored = [
      await table("quotes"),
      await table("quote_lines"),
      await table("trade_applications"),
      await table("mail_queue"),
    ].join("\n");
    for (const personal of [
      ada.email,
      ada.id,
      ada.openMessage,
      ada.acceptedMessage,
      ada.street,
      ada.rejectedStreet,
      `unit ${ada.suffix}`,
      `town${ada.suffix}`,
    ]) {
      expect(stored.includes(personal.toLowerCase()), personal).toBe(false);
    }
    expect((await table("trade_applications")).includes(ada.phone.toLowerCase())).toBe(false);
    const blanked = await t.db
      .selectFrom("mail_queue")
      .select(["text_body", "status", "subject"])
      .where(
        "id",
        "in",
        staffMails.map((m) => m.id),
      )
      .execute();
    for (const mail of blanked) expect(mail).toMatchObject({ text_body: "", status: "failed" });

    // Bob is untouched, and the staff list of applications still reads.
    const bobData = await exportAccountData(t.db, bob.id);
    expect(bobData.quotes).toHaveLength(2);
    expect(bobData.tradeApplications).toHaveLength(2);
    expect(bobData.quotes.find((q) => q.number === bob.open)).toMatchObject({
      email: bob.email,
      message: bob.openMessage,
    });
    expect((await table("mail_queue")).includes(bob.openMessage.toLowerCase())).toBe(true);
    const listed = await listApplications(t.db, { filter: "all", page: 1 });
    expect(listed.rows.some((r) => r.applicant_email === bob.email)).toBe(true);
  });
});
