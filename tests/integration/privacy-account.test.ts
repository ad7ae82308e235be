import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { submitContactMessage } from "../../server/contact/contact.ts";
import { subscribe } from "../../server/newsletter/newsletter.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { getOrderByAccessToken } from "../../server/orders/queries.ts";
import { deleteAccountAction, downloadDataAction, type PrivacyDeps } from "../../server/privacy/actions.ts";
import { identityCheck, type SignedInSession } from "../../server/privacy/confirm.ts";
import { CANCELLED_MAIL_REASON } from "../../server/privacy/erase.ts";
import { authDate } from "../../server/privacy/retention.ts";
import { createRateLimiter } from "../../server/security/rate-limit.ts";
import { ownerForUser } from "../../server/shopper/guest.ts";
import { addToWishlist } from "../../server/wishlist/wishlist.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { startAuthApp, type AuthApp } from "./auth-harness.ts";
import { net30Buyer } from "./trade-support.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const PASSWORD = "Sturdy-Hammer-42";
const SITE = "https://shop.example";

interface Customer extends SignedInSession {
  email: string;
  name: string;
  street: string;
  orderNumber: string;
  orderToken: string;
  flat: string;
  business: string;
  taxNumber: string;
}

/** Fails with the surrounding text, not the whole dump, when `needle` occurs in `haystack`. */
function expectAbsent(haystack: string, needle: string) {
  const at = haystack.indexOf(needle.toLowerCase());
  if (at >= 0) throw new Error(`"${needle}" is still stored: …${haystack.slice(Math.max(0, at - 160), at + 80)}…`);
}

describe.each(dialects)("download and delete an account on %s", (kind) => {
  let t: TestDb;
  let app: AuthApp;
  const logs: string[] = [];
  const deps = (overrides: Partial<PrivacyDeps> = {}): PrivacyDeps => ({
    limiter: createRateLimiter({ name: `privacy-test-${randomBytes(4).toString("hex")}`, windowSeconds: 900, max: 5 }),
    origins: [app.origin],
    log: (line) => logs.push(line),
    ...overrides,
  });

  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
    app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "1000", AUTH_ACCOUNT_LIMIT: "1000" });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  function post(path: string, fields: Record<string, string>, origin = app.origin): Request {
    return new Request(`${app.origin}${path}`, {
      method: "POST",
      headers: { origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  }

  async function latestSession(userId: string): Promise<string> {
    const row = await t.db
      .selectFrom("session")
      .select("id")
      .where("userId", "=", userId)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A customer with everything the store can hold: account, session, order, cart, wishlist, newsletter, contact message, mails, links. */
  async function customer(tag: string): Promise<Customer> {
    const suffix = randomBytes(4).toString("hex");
    const email = `${tag}.${suffix}@example.com`;
    const name = `Ada ${tag}${suffix}`;
    const street = `${suffix} Privacy Street`;
    const flat = `Flat ${suffix}`;
    const business = `Ada Tools ${suffix}`;
    const taxNumber = `GB${String(parseInt(suffix, 16)).padStart(9, "7").slice(0, 9)}`;
    expect((await app.post("/sign-up/email", { email, password: PASSWORD, name })).status).toBe(200);
    expect((await app.post("/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const user = await t.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const owner = ownerForUser(user.id);
    // Ada orders on net-30 terms for her own company, so the order carries its name and VAT number.
    await net30Buyer(t.db, { name: business, taxId: taxNumber, country: "GB", userId: user.id });
    await addToCart(t.db, owner, { productId: 1, quantity: 1 });
    const checkout = checkoutSchema.parse({
      ...validCheckoutForm,
      email,
      name,
      line1: street,
      line2: flat,
      city: "London",
      region: "Greater London",
      postcode: "SW1A 1AA",
      country: "GB",
      paymentMethod: "invoice-net30",
      checkoutToken: randomBytes(18).toString("base64url"),
    });
    const placed = await placeOrder(t.db, { owner, userId: user.id, checkout, siteUrl: SITE });
    await addToCart(t.db, owner, { productId: 2, quantity: 2 });
    await addToWishlist(t.db, owner, 3);
    await subscribe(t.db, email, { siteUrl: SITE });
    await submitContactMessage(
      t.db,
      { name, email, subject: `Question from ${name}`, message: `Please call me about ${street}.` },
      { storeInbox: "support@toolhub.example", siteUrl: SITE },
    );
    expect((await app.post("/sign-in/magic-link", { email, callbackURL: "/" })).status).toBe(200);
    expect((await app.post("/request-password-reset", { email, redirectTo: "/reset-password" })).status).toBe(200);
    // Some of its mails went out already; the rest are still queued.
    const mails = await t.db
      .selectFrom("mail_queue")
      .select("id")
      .where("to_address", "=", email)
      .orderBy("id")
      .execute();
    await t.db
      .updateTable("mail_queue")
      .set({ status: "sent", sent_at: new Date().toISOString() })
      .where(
        "id",
        "in",
        mails.slice(0, 2).map((m) => m.id),
      )
      .execute();
    return {
      email,
      name,
      street,
      userId: user.id,
      sessionId: await latestSession(user.id),
      orderNumber: placed.number,
      orderToken: placed.accessToken,
      flat,
      business,
      taxNumber,
    };
  }

  /** Every row of every table, as text: what a full database dump would show. */
  async function dump(): Promise<string> {
    const tables =
      kind === "sqlite"
        ? (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%fts%'`.execute(
              t.db,
            )
          ).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
              t.db,
            )
          ).rows.map((r) => r.name);
    const parts: string[] = [];
    for (const table of tables) {
      const { rows } = await sql`select * from ${sql.table(table)}`.execute(t.db);
      parts.push(`${table}: ${JSON.stringify(rows)}`);
    }
    return parts.join("\n").toLowerCase();
  }

  it("downloads the account's data as a JSON attachment, without secrets or anyone else's data", async () => {
    const ada = await customer("export");
    const other = await customer("bystander");
    const response = await downloadDataAction(t.db, post("/account/data", { password: PASSWORD }), ada, deps());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="toolhub-data-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await response.text();
    const body = JSON.parse(text);

    expect(body.account).toMatchObject({ email: ada.email, name: ada.name, signInMethods: [{ method: "password" }] });
    expect(body.orders).toHaveLength(1);
    expect(body.orders[0]).toMatchObject({
      number: ada.orderNumber,
      email: ada.email,
      businessName: ada.business,
      taxNumber: ada.taxNumber,
      shippingAddress: { line1: ada.street, postcode: "SW1A 1AA", country: "GB" },
    });
    expect(body.orders[0].lines[0]).toMatchObject({ productId: 1, quantity: 1 });
    expect(body.orders[0].totalCents).toBeGreaterThan(0);
    expect(body.addresses).toEqual([expect.objectContaining({ name: ada.name, line1: ada.street, city: "London" })]);
    expect(body.wishlist).toEqual([expect.objectContaining({ productId: 3 })]);
    expect(body.cart).toEqual([expect.objectContaining({ productId: 2, quantity: 2 })]);
    expect(body.newsletter).toMatchObject({ email: ada.email, status: "pending" });
    expect(body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    // No secret of any kind, and nothing of the other customer.
    const secrets = [
      ...(await t.db.selectFrom("account").select("password").execute()).map((r) => r.password),
      ...(await t.db.selectFrom("session").select(["token", "id"]).execute()).flatMap((r) => [r.token, r.id]),
      ...(await t.db.selectFrom("verification").select(["identifier", "value"]).execute()).flatMap((r) => [
        r.identifier,
        r.value,
      ]),
      ...(await t.db.selectFrom("orders").select(["access_token", "checkout_token"]).execute()).flatMap((r) => [
        r.access_token,
        r.checkout_token,
      ]),
      ...(
        await t.db.selectFrom("newsletter_subscribers").select(["unsubscribe_token", "confirm_token_hash"]).execute()
      ).flatMap((r) => [r.unsubscribe_token, r.confirm_token_hash]),
      ada.userId,
      other.email,
      other.name,
      other.street,
      other.orderNumber,
    ].filter((s): s is string => typeof s === "string" && s.length > 0);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/password"?\s*:/i);
    expect(logs.at(-1)).toBe(`Privacy: data export for user ${ada.userId}`);
    expect(logs.join("\n")).not.toContain(ada.email);
  });

  it("refuses a download without the right password, from another origin, or signed out", async () => {
    const ada = await customer("refused");
    const wrong = await downloadDataAction(
      t.db,
      post("/account/data", { password: "Not-The-Password-1" }),
      ada,
      deps(),
    );
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe("/account?data-error=WRONG_PASSWORD#your-data");
    const missing = await downloadDataAction(t.db, post("/account/data", {}), ada, deps());
    expect(missing.headers.get("location")).toBe("/account?data-error=PASSWORD_REQUIRED#your-data");
    const foreign = await downloadDataAction(
      t.db,
      post("/account/data", { password: PASSWORD }, "https://evil.example"),
      ada,
      deps(),
    );
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).not.toContain(ada.email);
    const signedOut = await downloadDataAction(t.db, post("/account/data", { password: PASSWORD }), null, deps());
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toBe("/login");
  });

  it("limits password confirmations per account: the sixth try in 15 minutes is refused, even with the right password", async () => {
    const ada = await customer("limited");
    const limited = deps();
    for (let i = 0; i < 5; i++)
      await downloadDataAction(t.db, post("/account/data", { password: `Wrong-${i}-Password` }), ada, limited);
    const sixth = await downloadDataAction(t.db, post("/account/data", { password: PASSWORD }), ada, limited);
    expect(sixth.headers.get("location")).toBe("/account?data-error=TOO_MANY_ATTEMPTS#your-data");
    const deletion = await deleteAccountAction(
      t.db,
      post("/account/delete", { confirm: "DELETE", password: PASSWORD }),
      ada,
      limited,
    );
    expect(deletion).toMatchObject({ kind: "refused", status: 429 });
    expect(await t.db.selectFrom("user").select("id").where("id", "=", ada.userId).executeTakeFirst()).toBeDefined();
  });

  it("refuses a deletion with a wrong password or without DELETE, and erases nothing", async () => {
    const ada = await customer("keep");
    const before = await dump();
    expect(
      await deleteAccountAction(
        t.db,
        post("/account/delete", { confirm: "DELETE", password: "Wrong-Password-9" }),
        ada,
        deps(),
      ),
    ).toEqual({
      kind: "refused",
      status: 403,
      field: "password",
      message: "That password isn't right. Nothing was changed.",
    });
    expect(
      await deleteAccountAction(
        t.db,
        post("/account/delete", { confirm: "delete please", password: PASSWORD }),
        ada,
        deps(),
      ),
    ).toMatchObject({ kind: "refused", status: 400, field: "confirm" });
    expect(await deleteAccountAction(t.db, post("/account/delete", { password: PASSWORD }), ada, deps())).toMatchObject(
      { kind: "refused", field: "confirm" },
    );
    expect(
      await deleteAccountAction(
        t.db,
        post("/account/delete", { confirm: "DELETE", password: PASSWORD }, "https://evil.example"),
        ada,
        deps(),
      ),
    ).toMatchObject({ kind: "refused", status: 403 });
    expect(
      await deleteAccountAction(t.db, post("/account/delete", { confirm: "DELETE", password: PASSWORD }), null, deps()),
    ).toEqual({ kind: "sign-in" });
    expect(await dump()).toBe(before);
  });

  it("deletes the account: every personal field gone, orders kept anonymised and still counted, the email free again", async () => {
    const ada = await customer("erase");
    const other = await customer("survivor");
    const totals = async () => {
      const row = await t.db
        .selectFrom("orders")
        .select([(eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.sum<number>("total_cents").as("sum")])
        .executeTakeFirstOrThrow();
      return { n: Number(row.n), sum: Number(row.sum) };
    };
    const totalsBefore = await totals();
    const order = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("number", "=", ada.orderNumber)
      .executeTakeFirstOrThrow();
    const lines = await t.db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).execute();
    const queuedBefore = await t.db
      .selectFrom("mail_queue")
      .select("id")
      .where("to_address", "=", ada.email)
      .where("status", "=", "queued")
      .execute();
    expect(queuedBefore.length).toBeGreaterThan(0);

    const outcome = await deleteAccountAction(
      t.db,
      post("/account/delete", { confirm: " DELETE ", password: PASSWORD }),
      ada,
      deps(),
    );
    expect(outcome).toMatchObject({ kind: "erased", summary: { ordersAnonymised: 1, contactMessagesDeleted: 1 } });
    expect(logs.at(-1)).toMatch(
      new RegExp(`^Privacy: account ${ada.userId} deleted; 1 order\\(s\\) anonymised, \\d+ mail\\(s\\) blanked$`),
    );
    expect(logs.join("\n")).not.toContain(ada.email);

    // Nothing anywhere still says who Ada was.
    const everything = await dump();
    // (Her company's name and VAT number are the company's, kept with its invoices: not in this list.)
    for (const personal of [ada.email, ada.name, ada.street, ada.flat, ada.userId, ada.sessionId])
      expectAbsent(everything, personal);
    // The other customer is untouched.
    for (const kept of [other.email, other.name, other.street, other.flat, other.business])
      expect(everything.includes(kept.toLowerCase()), kept).toBe(true);
    expect(await identityCheck(t.db, other)).toEqual({ hasPassword: true, freshSignIn: true });

    // The order stays, anonymised, with its lines and totals; its guest link no longer opens it.
    const after = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("number", "=", ada.orderNumber)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({
      user_id: null,
      email: "",
      ship_name: "",
      ship_line1: "",
      ship_line2: null,
      ship_city: "",
      ship_region: "Greater London",
      ship_postcode: "SW1A",
      ship_country: "GB",
      business_name: null,
      tax_number: null,
      status: order.status,
      total_cents: order.total_cents,
      created_at: order.created_at,
      payment_method: order.payment_method,
    });
    expect(after.access_token).not.toBe(order.access_token);
    expect(await getOrderByAccessToken(t.db, ada.orderToken)).toBeNull();
    expect(await t.db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).execute()).toEqual(lines);
    expect(await totals()).toEqual(totalsBefore);

    // Its mails are blanked; the ones still queued will not go out.
    const mails = await t.db.selectFrom("mail_queue").selectAll().where("to_address", "=", `***@example.com`).execute();
    expect(mails.length).toBeGreaterThan(0);
    for (const id of queuedBefore.map((m) => m.id)) {
      expect(mails.find((m) => m.id === id)).toMatchObject({
        status: "failed",
        text_body: "",
        html_body: "",
        last_error: CANCELLED_MAIL_REASON,
      });
    }
    const relayed = await t.db
      .selectFrom("mail_queue")
      .selectAll()
      .where("to_address", "=", "***@toolhub.example")
      .execute();
    expect(relayed.length).toBeGreaterThan(0);

    // Signed out everywhere, and the email can register again.
    expect(await t.db.selectFrom("session").select("id").where("userId", "=", ada.userId).execute()).toEqual([]);
    expect((await app.post("/sign-in/email", { email: ada.email, password: PASSWORD })).status).toBe(401);
    expect((await app.post("/sign-up/email", { email: ada.email, password: PASSWORD, name: "Ada Again" })).status).toBe(
      200,
    );
    const again = await t.db.selectFrom("user").select("id").where("email", "=", ada.email).executeTakeFirstOrThrow();
    expect(again.id).not.toBe(ada.userId);
    expect(await t.db.selectFrom("orders").select("id").where("user_id", "=", again.id).execute()).toEqual([]);
  });

  it("an account without a password needs a recent sign-in: stale is refused, fresh is accepted", async () => {
    const ada = await customer("google");
    // Make it a Google-only account.
    await t.db.deleteFrom("account").where("userId", "=", ada.userId).execute();
    const at = authDate(t.db, new Date());
    await t.db
      .insertInto("account")
      .values({
        id: randomBytes(8).toString("hex"),
        accountId: `google-${ada.userId}`,
        providerId: "google",
        userId: ada.userId,
        password: null,
        accessToken: "ya29.secret-access",
        refreshToken: "1//secret-refresh",
        idToken: "eyJ.secret-id",
        scope: "openid email",
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    const staleAt = authDate(t.db, new Date(Date.now() - 11 * 60_000));
    await t.db.updateTable("session").set({ createdAt: staleAt }).where("id", "=", ada.sessionId).execute();

    expect(await identityCheck(t.db, ada)).toEqual({ hasPassword: false, freshSignIn: false });
    const stale = await deleteAccountAction(
      t.db,
      post("/account/delete", { confirm: "DELETE", password: "anything" }),
      ada,
      deps(),
    );
    expect(stale).toMatchObject({
      kind: "refused",
      status: 403,
      field: null,
      message: expect.stringMatching(/sign in again/),
    });
    const staleDownload = await downloadDataAction(t.db, post("/account/data", {}), ada, deps());
    expect(staleDownload.headers.get("location")).toBe("/account?data-error=SIGN_IN_AGAIN#your-data");
    expect(await t.db.selectFrom("user").select("id").where("id", "=", ada.userId).executeTakeFirst()).toBeDefined();

    await t.db
      .updateTable("session")
      .set({ createdAt: authDate(t.db, new Date(Date.now() - 60_000)) })
      .where("id", "=", ada.sessionId)
      .execute();
    expect(await identityCheck(t.db, ada)).toEqual({ hasPassword: false, freshSignIn: true });
    const download = await downloadDataAction(t.db, post("/account/data", {}), ada, deps());
    expect(download.status).toBe(200);
    const text = await download.text();
    expect(JSON.parse(text).account.signInMethods).toEqual([expect.objectContaining({ method: "google" })]);
    for (const token of ["ya29.secret-access", "1//secret-refresh", "eyJ.secret-id"]) expect(text).not.toContain(token);

    expect(await deleteAccountAction(t.db, post("/account/delete", { confirm: "DELETE" }), ada, deps())).toMatchObject({
      kind: "erased",
    });
    expect(await t.db.selectFrom("account").select("id").where("userId", "=", ada.userId).execute()).toEqual([]);
  });
});
