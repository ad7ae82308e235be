import { randomBytes } from "node:crypto";
import { formatMoney } from "../../app/lib/money.ts";
import type { CheckoutInput } from "../../app/lib/checkout-schema.ts";
import { summarizeOrder } from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import { DomainError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";
import { bumpCatalogVersion } from "../catalog/version.ts";
import { paymentMethod } from "./payment.ts";

export interface PlaceOrderInput {
  owner: string;
  userId: string | null;
  checkout: CheckoutInput;
  siteUrl: string;
}

export interface PlacedOrder {
  number: string;
  accessToken: string;
  /** False when the checkout token had already placed this order (a double click or a retry). */
  created: boolean;
}

function orderNumber(): string {
  return `TH-${randomBytes(5).toString("hex").toUpperCase()}`;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: string; message?: string };
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

async function existingOrder(db: Db, checkoutToken: string, owner: string): Promise<PlacedOrder | null> {
  const row = await db.selectFrom("orders").select(["number", "access_token", "user_id", "email"]).where("checkout_token", "=", checkoutToken).executeTakeFirst();
  if (!row) return null;
  if (owner.startsWith("u:") && row.user_id !== owner.slice(2)) throw new DomainError("CHECKOUT_TOKEN_USED", "This checkout was already used. Reload the page and try again.", 409);
  return { number: row.number, accessToken: row.access_token, created: false };
}

/**
 * Places the order in one transaction: reprices every line from the database, takes the stock
 * down with a conditional update that never goes below zero, writes the order and its lines at
 * the prices paid, queues the confirmation mail, and empties the cart. A repeated checkout token
 * returns the order it already made.
 */
export async function placeOrder(db: Db, input: PlaceOrderInput): Promise<PlacedOrder> {
  const { checkout, owner } = input;
  const earlier = await existingOrder(db, checkout.checkoutToken, owner);
  if (earlier) return earlier;
  try {
    return await db.transaction().execute(async (trx) => {
      const lines = await trx
        .selectFrom("cart_items as ci")
        .innerJoin("products as p", "p.id", "ci.product_id")
        .select(["ci.product_id", "ci.color", "ci.quantity", "p.title", "p.sale_price_cents", "p.stock_quantity"])
        .where("ci.owner", "=", owner)
        .orderBy("ci.created_at")
        .execute();
      if (lines.length === 0) throw new DomainError("EMPTY_CART", "Your cart is empty.", 409);

      const summary = summarizeOrder(
        lines.map((l) => ({ unitPriceCents: l.sale_price_cents, quantity: l.quantity })),
        { isMember: input.userId != null, country: checkout.country },
      );
      const number = orderNumber();
      const accessToken = randomBytes(24).toString("base64url");
      const method = paymentMethod(checkout.paymentMethod);
      const payment = await method.authorize({
        orderNumber: number,
        totalCents: summary.totalCents,
        email: checkout.email,
        businessName: checkout.businessName,
        taxNumber: checkout.taxNumber,
      });

      // Claim the checkout token first: a concurrent duplicate waits here and then fails as a duplicate.
      const order = await trx
        .insertInto("orders")
        .values({
          number,
          access_token: accessToken,
          checkout_token: checkout.checkoutToken,
          user_id: input.userId,
          email: checkout.email,
          status: "placed",
          payment_method: method.id,
          payment_status: payment.paymentStatus,
          business_name: method.requiresBusiness ? checkout.businessName : null,
          tax_number: method.requiresBusiness ? checkout.taxNumber : null,
          ship_name: checkout.name,
          ship_line1: checkout.line1,
          ship_line2: checkout.line2,
          ship_city: checkout.city,
          ship_region: checkout.region,
          ship_postcode: checkout.postcode.toUpperCase(),
          ship_country: checkout.country,
          subtotal_cents: summary.subtotalCents,
          member_discount_cents: summary.memberDiscountCents,
          shipping_cents: summary.shippingCents,
          tax_cents: summary.taxCents,
          total_cents: summary.totalCents,
          created_at: new Date().toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();

      const soldOut: string[] = [];
      for (const line of lines) {
        const taken = await trx
          .updateTable("products")
          .set((eb) => ({ stock_quantity: eb("stock_quantity", "-", line.quantity) }))
          .where("id", "=", line.product_id)
          .where("stock_quantity", ">=", line.quantity)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) soldOut.push(line.title);
      }
      await bumpCatalogVersion(trx);
      if (soldOut.length) {
        throw new DomainError("OUT_OF_STOCK", `Sorry — not enough stock left for: ${soldOut.join(", ")}. Nothing was charged and your order was not placed; please update your cart.`, 409);
      }

      await trx
        .insertInto("order_lines")
        .values(
          lines.map((l) => ({
            order_id: order.id,
            product_id: l.product_id,
            title: l.title,
            color: l.color,
            quantity: l.quantity,
            unit_price_cents: l.sale_price_cents,
            line_total_cents: l.sale_price_cents * l.quantity,
          })),
        )
        .execute();
      await trx.deleteFrom("cart_items").where("owner", "=", owner).execute();

      const link = input.userId ? `${input.siteUrl}/account/orders/${number}` : `${input.siteUrl}/orders/${accessToken}`;
      const mail = renderMail({
        heading: `Thank you for your order ${number}`,
        paragraphs: [
          `Hello ${checkout.name},`,
          `We've received your order ${number}. Here is what you ordered:`,
          ...lines.map((l) => `${l.quantity} × ${l.title}${l.color ? ` (${l.color})` : ""} — ${formatMoney(l.sale_price_cents * l.quantity)}`),
          `Subtotal ${formatMoney(summary.subtotalCents)}; member discount −${formatMoney(summary.memberDiscountCents)}; shipping ${summary.shippingCents ? formatMoney(summary.shippingCents) : "free"}; taxes included. Total ${formatMoney(summary.totalCents)}.`,
          `Payment: ${method.label}.`,
        ],
        action: { label: "View your order", url: link },
        footer: "Keep this email: its link shows your order's status.",
      });
      await enqueueMail(trx, { to: checkout.email, subject: `Your ToolHub Wholesale order ${number}`, ...mail });
      return { number, accessToken, created: true };
    });
  } catch (error) {
    // A duplicate of a checkout that just succeeded (a double click) finds the cart emptied or the
    // token taken: answer with the order the first request made.
    if (isUniqueViolation(error) || (error instanceof DomainError && error.code === "EMPTY_CART")) {
      const again = await existingOrder(db, checkout.checkoutToken, owner);
      if (again) return again;
    }
    throw error;
  }
}
