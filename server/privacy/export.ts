/**
 * "Download your data" (issue 11, item 7): everything the store holds about one account, as JSON.
 * Never included: password hashes, session or verification tokens, OAuth tokens, an order's
 * access (guest link) or checkout token, newsletter tokens, or anything about another account.
 * Orders are the ones linked to the account (user_id): guest orders placed with the same email
 * belong to whoever holds their link, and the account's email may not be verified.
 */
import type { Db } from "../db/connection.ts";
import { NotFoundError } from "../errors.ts";
import { ORDER_VIEW_COLUMNS } from "../orders/queries.ts";
import { ownerForUser } from "../shopper/guest.ts";

const iso = (value: string | Date | null | undefined) => (value == null ? null : new Date(value).toISOString());
const isTrue = (v: boolean | number) => v === true || v === 1;

const EXPORT_FORMAT = "toolhub-account-export/1";

export async function exportAccountData(
  db: Db,
  userId: string,
  options: { currentSessionId?: string; now?: Date } = {},
) {
  const user = await db
    .selectFrom("user")
    .select(["name", "email", "emailVerified", "image", "createdAt", "updatedAt"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) throw new NotFoundError("ACCOUNT_NOT_FOUND", "This account no longer exists.");
  const owner = ownerForUser(userId);

  const [accounts, sessions, orders, wishlist, cart, subscriber, market] = await Promise.all([
    db
      .selectFrom("account")
      .select(["providerId", "createdAt"])
      .where("userId", "=", userId)
      .orderBy("createdAt")
      .execute(),
    db
      .selectFrom("session")
      .select(["id", "createdAt", "expiresAt", "ipAddress", "userAgent"])
      .where("userId", "=", userId)
      .orderBy("createdAt")
      .execute(),
    db
      .selectFrom("orders")
      .select(["id", ...ORDER_VIEW_COLUMNS, "payment_status", "business_name", "tax_number"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("wishlist_items as w")
      .innerJoin("products as p", "p.id", "w.product_id")
      .select(["w.product_id", "p.title", "w.color", "w.created_at"])
      .where("w.owner", "=", owner)
      .orderBy("w.created_at")
      .execute(),
    db
      .selectFrom("cart_items as c")
      .innerJoin("products as p", "p.id", "c.product_id")
      .select(["c.product_id", "p.title", "c.color", "c.quantity", "c.created_at"])
      .where("c.owner", "=", owner)
      .orderBy("c.created_at")
      .execute(),
    db
      .selectFrom("newsletter_subscribers")
      .select(["status", "created_at", "confirmed_at", "unsubscribed_at"])
      .where("email", "=", user.email.trim().toLowerCase())
      .executeTakeFirst(),
    db.selectFrom("shopper_markets").select(["market", "updated_at"]).where("owner", "=", owner).executeTakeFirst(),
  ]);
  const savedLists = await db
    .selectFrom("saved_lists")
    .select(["id", "name", "organization_id", "created_at", "updated_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  const savedListLines = savedLists.length
    ? await db
        .selectFrom("saved_list_lines as sl")
        .innerJoin("products as p", "p.id", "sl.product_id")
        .select(["sl.list_id", "sl.product_id", "p.title", "sl.color", "sl.quantity", "sl.created_at"])
        .where(
          "sl.list_id",
          "in",
          savedLists.map((l) => l.id),
        )
        .orderBy("sl.created_at")
        .orderBy("sl.product_id")
        .execute()
    : [];
  const [quotes, applications] = await Promise.all([
    db
      .selectFrom("quotes")
      .select([
        "id",
        "number",
        "status",
        "email",
        "message",
        "staff_note",
        "valid_until",
        "created_at",
        "quoted_at",
        "decided_at",
        "order_id",
      ])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("trade_applications")
      .select([
        "company_name",
        "country",
        "tax_id",
        "billing_line1",
        "billing_line2",
        "billing_city",
        "billing_region",
        "billing_postcode",
        "phone",
        "status",
        "reason",
        "created_at",
        "decided_at",
      ])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
  ]);
  const quoteLines = quotes.length
    ? await db
        .selectFrom("quote_lines")
        .select(["quote_id", "product_id", "title", "color", "quantity", "requested_unit_cents", "quoted_unit_cents"])
        .where(
          "quote_id",
          "in",
          quotes.map((q) => q.id),
        )
        .orderBy("id")
        .execute()
    : [];
  const quoteOrderNumbers = new Map(orders.map((o) => [o.id, o.number]));
  const orderIds = orders.map((o) => o.id);
  const lines = orderIds.length
    ? await db
        .selectFrom("order_lines")
        .select(["order_id", "product_id", "title", "color", "quantity", "unit_price_cents", "line_total_cents"])
        .where("order_id", "in", orderIds)
        .orderBy("id")
        .execute()
    : [];

  const addressOf = (o: (typeof orders)[number]) => ({
    name: o.ship_name,
    line1: o.ship_line1,
    line2: o.ship_line2,
    city: o.ship_city,
    region: o.ship_region,
    postcode: o.ship_postcode,
    country: o.ship_country,
  });
  const addresses = new Map<string, ReturnType<typeof addressOf> & { lastUsedAt: string | null }>();
  for (const o of orders) {
    const address = addressOf(o);
    addresses.set(JSON.stringify(address), { ...address, lastUsedAt: iso(o.created_at) });
  }

  return {
    format: EXPORT_FORMAT,
    exportedAt: (options.now ?? new Date()).toISOString(),
    account: {
      name: user.name,
      email: user.email,
      emailVerified: isTrue(user.emailVerified),
      image: user.image,
      createdAt: iso(user.createdAt),
      updatedAt: iso(user.updatedAt),
      signInMethods: accounts.map((a) => ({
        method: a.providerId === "credential" ? "password" : a.providerId,
        since: iso(a.createdAt),
      })),
    },
    sessions: sessions.map((s) => ({
      current: s.id === options.currentSessionId,
      signedInAt: iso(s.createdAt),
      expiresAt: iso(s.expiresAt),
      ipAddress: s.ipAddress,
      userAgent: s.userAgent,
    })),
    addresses: [...addresses.values()],
    orders: orders.map((o) => ({
      number: o.number,
      placedAt: iso(o.created_at),
      status: o.status,
      paymentMethod: o.payment_method,
      paymentStatus: o.payment_status,
      email: o.email,
      businessName: o.business_name,
      taxNumber: o.tax_number,
      shippingAddress: addressOf(o),
      lines: lines
        .filter((l) => l.order_id === o.id)
        .map((l) => ({
          productId: l.product_id,
          title: l.title,
          color: l.color,
          quantity: l.quantity,
          unitPriceCents: l.unit_price_cents,
          lineTotalCents: l.line_total_cents,
        })),
      subtotalCents: o.subtotal_cents,
      memberDiscountCents: o.member_discount_cents,
      shippingCents: o.shipping_cents,
      taxCents: o.tax_cents,
      totalCents: o.total_cents,
    })),
    wishlist: wishlist.map((w) => ({
      productId: w.product_id,
      title: w.title,
      color: w.color,
      addedAt: iso(w.created_at),
    })),
    savedLists: savedLists.map((l) => ({
      name: l.name,
      sharedWithCompany: l.organization_id != null,
      createdAt: iso(l.created_at),
      updatedAt: iso(l.updated_at),
      lines: savedListLines
        .filter((line) => line.list_id === l.id)
        .map((line) => ({
          productId: line.product_id,
          title: line.title,
          color: line.color,
          quantity: line.quantity,
          addedAt: iso(line.created_at),
        })),
    })),
    quotes: quotes.map((q) => ({
      number: q.number,
      status: q.status,
      email: q.email,
      message: q.message,
      noteFromStore: q.staff_note,
      requestedAt: iso(q.created_at),
      quotedAt: iso(q.quoted_at),
      validUntil: iso(q.valid_until),
      decidedAt: iso(q.decided_at),
      orderNumber: q.order_id == null ? null : (quoteOrderNumbers.get(q.order_id) ?? null),
      lines: quoteLines
        .filter((l) => l.quote_id === q.id)
        .map((l) => ({
          productId: l.product_id,
          title: l.title,
          color: l.color,
          quantity: l.quantity,
          requestedUnitCents: l.requested_unit_cents,
          quotedUnitCents: l.quoted_unit_cents,
        })),
    })),
    tradeApplications: applications.map((a) => ({
      companyName: a.company_name,
      country: a.country,
      taxId: a.tax_id,
      billingAddress: {
        line1: a.billing_line1,
        line2: a.billing_line2,
        city: a.billing_city,
        region: a.billing_region,
        postcode: a.billing_postcode,
        country: a.country,
      },
      phone: a.phone,
      status: a.status,
      reason: a.reason,
      appliedAt: iso(a.created_at),
      decidedAt: iso(a.decided_at),
    })),
    cart: cart.map((c) => ({
      productId: c.product_id,
      title: c.title,
      color: c.color,
      quantity: c.quantity,
      addedAt: iso(c.created_at),
    })),
    market: market ? { chosen: market.market, chosenAt: iso(market.updated_at) } : null,
    newsletter: subscriber
      ? {
          email: user.email,
          status: subscriber.status,
          subscribedAt: iso(subscriber.created_at),
          confirmedAt: iso(subscriber.confirmed_at),
          unsubscribedAt: iso(subscriber.unsubscribed_at),
        }
      : null,
  };
}

/** The download's file name: toolhub-data-<YYYY-MM-DD>.json. */
export function exportFileName(now = new Date()): string {
  return `toolhub-data-${now.toISOString().slice(0, 10)}.json`;
}
