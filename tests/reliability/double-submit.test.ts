/**
 * Double submits: every state-changing form of the store posted twice with the same body — both
 * at once (two tabs, a double click without JavaScript) and one after the other (a reload that
 * re-posts, a retry) — against the built store. Neither answer may be a 5xx, and the database
 * must show the effect the form means: once where the form is idempotent (one order, one mail,
 * one subscriber, one account, the quantity set rather than doubled), counted twice where it
 * is additive (two "add to cart" clicks), undone where it toggles. A last pass posts every kind
 * of form the pages carry twice at once, so a form added later is at least checked for 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE_CONFIRMATION_WORD } from "../../app/lib/privacy.ts";
import { NEWSLETTER_EMAIL_FIELD } from "../../app/components/forms/rules.ts";
import type { Db } from "../../server/db/connection.ts";
import { discover } from "./fuzz/discover.ts";
import { FuzzIdentities } from "./fuzz/identities.ts";
import { allTargets } from "./fuzz/targets.ts";
import { checkOrdersWhole, linkIn, mailsTo, stockOf, userByEmail } from "./support/checks.ts";
import type { RawResponse } from "./support/http.ts";
import { PASSWORD, Shopper, uniqueEmail } from "./support/shopper.ts";
import { staffPromoter } from "./support/staff.ts";
import { startStore, storeDialects, type RunningStore } from "./support/store-server.ts";

type Mode = "at once" | "one after the other";
const MODES: Mode[] = ["at once", "one after the other"];

async function twice(mode: Mode, post: () => Promise<RawResponse>): Promise<[RawResponse, RawResponse]> {
  if (mode === "at once") return Promise.all([post(), post()]);
  const first = await post();
  return [first, await post()];
}

function expectNo5xx(responses: RawResponse[], what: string) {
  for (const r of responses)
    expect(r.status, `${what} answered ${r.status}: ${r.text().slice(0, 300)}`).toBeLessThan(500);
}

describe.each(storeDialects)("double submits on %s", (kind) => {
  let store: RunningStore;
  let db: Db;
  /** Each scenario uses products of its own, so stock checks don't mix. */
  let nextProduct = 1;
  const product = () => nextProduct++;

  beforeAll(async () => {
    store = await startStore({ name: "double-submit", kind });
    db = store.database.open();
  });
  afterAll(async () => {
    await db?.destroy();
    await store?.stop();
  });

  const member = async () => new Shopper(store.baseUrl).signUp().then((s) => s.signIn());
  const cartQuantity = async (owner: string, productId: number) => {
    const rows = await db
      .selectFrom("cart_items")
      .select("quantity")
      .where("owner", "=", owner)
      .where("product_id", "=", productId)
      .execute();
    return rows.map((r) => Number(r.quantity));
  };
  const ownerOf = async (s: Shopper) => `u:${(await userByEmail(db, s.email!))[0].id}`;

  describe.each(MODES)("%s", (mode) => {
    it("place order (member): one order, one order mail, the stock taken once", async () => {
      const s = await member();
      const [a, b] = [product(), product()];
      await s.addToCart(a, 2);
      await s.addToCart(b, 1);
      const initial = await stockOf(db, [a, b]);
      const form = await s.checkoutForm();
      const answers = await twice(mode, () => s.postForm("/checkout", form));
      expectNo5xx(answers, "POST /checkout");
      const orders = await db
        .selectFrom("orders")
        .select(["number", "status"])
        .where("checkout_token", "=", form.checkoutToken)
        .execute();
      expect(orders).toHaveLength(1);
      expect(orders[0].status).toBe("placed");
      // Both answers lead to the one order.
      for (const r of answers)
        expect(r.location, `answer ${r.status}`).toContain(`/account/orders/${orders[0].number}`);
      const whole = await checkOrdersWhole(db, initial, [form.checkoutToken]);
      expect(whole.problems).toEqual([]);
      expect((await stockOf(db, [a, b])).get(a)).toBe(initial.get(a)! - 2);
      expect((await mailsTo(db, s.email!)).filter((m) => m.subject.includes(orders[0].number))).toHaveLength(1);
    });

    it("place order (guest), then confirm it from the mail: one order, one hold, one order mail", async () => {
      const s = new Shopper(store.baseUrl);
      const p = product();
      await s.addToCart(p, 3);
      const initial = await stockOf(db, [p]);
      const form = await s.checkoutForm({ email: uniqueEmail("guest") });
      const answers = await twice(mode, () => s.postForm("/checkout", form));
      expectNo5xx(answers, "POST /checkout");
      const orders = await db
        .selectFrom("orders")
        .select(["number", "status", "access_token"])
        .where("checkout_token", "=", form.checkoutToken)
        .execute();
      expect(orders).toHaveLength(1);
      expect(orders[0].status).toBe("awaiting_confirmation");
      for (const r of answers) expect(r.location).toContain(`/orders/${orders[0].access_token}`);
      expect((await checkOrdersWhole(db, initial, [form.checkoutToken])).problems).toEqual([]);

      const [request] = (await mailsTo(db, form.email)).filter((m) => m.subject.includes(orders[0].number));
      const link = linkIn(request.text_body, `/orders/${orders[0].access_token}`);
      expect(link, "the confirmation link in the mail").not.toBeNull();
      const confirms = await twice(mode, () => s.postForm(`${link!.pathname}${link!.search}`, {}));
      expectNo5xx(confirms, "POST /orders/:token (confirm)");
      const after = await db
        .selectFrom("orders")
        .select("status")
        .where("checkout_token", "=", form.checkoutToken)
        .executeTakeFirstOrThrow();
      expect(after.status).toBe("placed");
      // The confirmation request and one order mail; the stock still taken once.
      expect((await mailsTo(db, form.email)).filter((m) => m.subject.includes(orders[0].number))).toHaveLength(2);
      expect((await checkOrdersWhole(db, initial, [form.checkoutToken])).problems).toEqual([]);
    });

    it("cart set quantity and remove are idempotent; add counts each click", async () => {
      const s = await member();
      const owner = await ownerOf(s);
      const p = product();
      expectNo5xx(
        await twice(mode, () => s.postForm("/cart", { intent: "add", productId: String(p), quantity: "1" })),
        "cart add",
      );
      // Two clicks on "Add to cart" are two units (one line), never a lost or a duplicated line.
      expect(await cartQuantity(owner, p)).toEqual([2]);
      // The cart page's forms name the line by product and color.
      const { color } = await db
        .selectFrom("cart_items")
        .select("color")
        .where("owner", "=", owner)
        .where("product_id", "=", p)
        .executeTakeFirstOrThrow();
      expectNo5xx(
        await twice(mode, () => s.postForm("/cart", { intent: "set", productId: String(p), color, quantity: "5" })),
        "cart set",
      );
      expect(await cartQuantity(owner, p)).toEqual([5]);
      expectNo5xx(
        await twice(mode, () => s.postForm("/cart", { intent: "remove", productId: String(p), color })),
        "cart remove",
      );
      expect(await cartQuantity(owner, p)).toEqual([]);
    });

    it("wishlist: add and remove are idempotent; toggle keeps one row at most", async () => {
      const s = await member();
      const owner = await ownerOf(s);
      const p = product();
      const rows = async () =>
        (
          await db
            .selectFrom("wishlist_items")
            .select("product_id")
            .where("owner", "=", owner)
            .where("product_id", "=", p)
            .execute()
        ).length;
      expectNo5xx(
        await twice(mode, () => s.postForm("/wishlist", { intent: "add", productId: String(p) })),
        "wishlist add",
      );
      expect(await rows()).toBe(1);
      expectNo5xx(
        await twice(mode, () => s.postForm("/wishlist", { intent: "remove", productId: String(p) })),
        "wishlist remove",
      );
      expect(await rows()).toBe(0);
      // The heart button toggles: two posts in a row add then remove (what the button shows);
      // two at once may both see it absent, but can never make two rows.
      expectNo5xx(
        await twice(mode, () => s.postForm("/wishlist", { intent: "toggle", productId: String(p) })),
        "wishlist toggle",
      );
      if (mode === "one after the other") expect(await rows()).toBe(0);
      else expect(await rows()).toBeLessThanOrEqual(1);
      // The JSON twin the heart button posts to with JavaScript.
      expectNo5xx(
        await twice(mode, () => s.postForm("/wishlist/update", { intent: "add", productId: String(p) })),
        "wishlist/update add",
      );
      expect(await rows()).toBe(1);
    });

    it("newsletter: one subscriber, one opt-in mail; confirming twice confirms once", async () => {
      const s = new Shopper(store.baseUrl);
      const email = uniqueEmail("news");
      expectNo5xx(
        await twice(mode, () => s.postForm("/newsletter", { [NEWSLETTER_EMAIL_FIELD]: email })),
        "POST /newsletter",
      );
      const subscribers = await db
        .selectFrom("newsletter_subscribers")
        .select(["status"])
        .where("email", "=", email)
        .execute();
      expect(subscribers).toHaveLength(1);
      const mails = await mailsTo(db, email);
      expect(mails).toHaveLength(1);
      const link = linkIn(mails[0].text_body, "/newsletter/confirm");
      expect(link).not.toBeNull();
      const token = link!.searchParams.get("token")!;
      expectNo5xx(await twice(mode, () => s.postForm("/newsletter/confirm", { token })), "POST /newsletter/confirm");
      expect(
        (
          await db
            .selectFrom("newsletter_subscribers")
            .select("status")
            .where("email", "=", email)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe("confirmed");
      expect(await mailsTo(db, email)).toHaveLength(1);
    });

    it("contact: one message, one mail to the store and one acknowledgement", async () => {
      const s = new Shopper(store.baseUrl);
      const email = uniqueEmail("contact");
      const form = {
        name: "Double Clicker",
        email,
        subject: `Order question ${mode}`,
        message: "Do you ship cordless drills to Northern Ireland, and how long does it take?",
      };
      expectNo5xx(await twice(mode, () => s.postForm("/contact", form)), "POST /contact");
      expect(await db.selectFrom("contact_messages").select("id").where("email", "=", email).execute()).toHaveLength(1);
      expect(await mailsTo(db, email)).toHaveLength(1);
    });

    it("register: one account, one verification mail", async () => {
      const s = new Shopper(store.baseUrl);
      const email = uniqueEmail("register");
      const answers = await twice(mode, () =>
        s.postForm("/register", { fullName: "Double Registrant", email, password: PASSWORD }),
      );
      expectNo5xx(answers, "POST /register");
      expect(answers.some((r) => r.status === 302 || r.status === 303)).toBe(true);
      expect(await userByEmail(db, email)).toHaveLength(1);
      expect(await mailsTo(db, email)).toHaveLength(1);
    });

    it("account: changing the password twice leaves the new password working; delete erases once", async () => {
      const s = await member();
      const newPassword = "Another-Sturdy-Saw-77";
      const answers = await twice(mode, () =>
        s.postForm("/account", { intent: "change-password", currentPassword: PASSWORD, password: newPassword }),
      );
      expectNo5xx(answers, "POST /account change-password");
      expect(answers.some((r) => r.status === 302 || r.status === 303)).toBe(true);
      const fresh = new Shopper(store.baseUrl);
      await fresh.signIn(s.email!, newPassword);
      await expect(new Shopper(store.baseUrl).signIn(s.email!, PASSWORD)).rejects.toThrow();

      const deletes = await twice(mode, () =>
        fresh.postForm("/account/delete", { confirm: DELETE_CONFIRMATION_WORD, password: newPassword }),
      );
      expectNo5xx(deletes, "POST /account/delete");
      expect(await userByEmail(db, s.email!)).toHaveLength(0);
    });
  });

  it("every kind of form the pages carry, posted twice at once, answers without a 5xx", async () => {
    const ids = new FuzzIdentities(store.baseUrl, { promote: staffPromoter(db) });
    await ids.setUp();
    const discovery = await discover(store.baseUrl, allTargets(), ids);
    expect(discovery.forms.length).toBeGreaterThan(5);
    for (const form of discovery.forms) {
      const fields: [string, string][] = form.fields.filter((f) => f.values.length).map((f) => [f.name, f.values[0]]);
      for (const shopper of ids.shoppers) {
        const answers = await Promise.all([
          shopper.postForm(form.action, fields),
          shopper.postForm(form.action, fields),
        ]);
        expectNo5xx(answers, `POST ${form.action} (from ${form.page})`);
      }
      await ids.refresh();
    }
  });
});
