/**
 * Order history for benchmarks and demos: `npm run seed -- --orders N` adds N orders (1–3 lines
 * each, over the last 365 days, in the states a year of trading leaves) and one customer account
 * per CUSTOMER_EVERY orders. Deterministic and resumable like the catalog seed: order i is always
 * the same, and a run continues from the seeded orders already there. Seeded rows are marked by
 * their keys ("seed-…"), never mistaken for real orders or sign-ins (seeded accounts have no
 * password).
 */
import type { Db } from "../connection.ts";
import type { OrderStatus, PaymentStatus } from "../schema.ts";
import { mulberry32 } from "./generate.ts";

export const CUSTOMER_EVERY = 10;
const BATCH = 400;
const DAY = 86_400_000;
const FIRST = [
  "Alex",
  "Sam",
  "Jordan",
  "Priya",
  "Tom",
  "Aisha",
  "Ben",
  "Chloe",
  "Dan",
  "Ella",
  "Finn",
  "Grace",
  "Hugo",
  "Isla",
  "Jack",
  "Kate",
];
const LAST = [
  "Smith",
  "Jones",
  "Patel",
  "Brown",
  "Taylor",
  "Wilson",
  "Evans",
  "Khan",
  "Walker",
  "Wright",
  "Hughes",
  "Green",
  "Hall",
  "Clarke",
];
const CITIES = {
  US: ["Austin", "Denver", "Columbus", "Portland", "Raleigh"],
  GB: ["Leeds", "Bristol", "Glasgow", "Cardiff", "Norwich"],
} as const;

function seedCustomer(i: number, now: Date) {
  const first = FIRST[i % FIRST.length];
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
  const at = new Date(now.getTime() - 400 * DAY + (i % 1000) * 3600_000).toISOString();
  return {
    id: `seed-user-${i}`,
    name: `${first} ${last}`,
    email: `${first}.${last}.${i}@example.com`.toLowerCase(),
    emailVerified: 1,
    image: null,
    createdAt: at,
    updatedAt: at,
    role: "customer",
  };
}

function statusFor(ageDays: number, r: number): OrderStatus {
  if (ageDays < 2) return r < 0.5 ? "placed" : r < 0.8 ? "packed" : "shipped";
  if (ageDays < 7) return r < 0.5 ? "shipped" : r < 0.92 ? "delivered" : "cancelled";
  return r < 0.88 ? "delivered" : r < 0.94 ? "cancelled" : r < 0.97 ? "returned" : "expired";
}

interface ProductRef {
  id: number;
  title: string;
  price: number;
}

function seedOrder(i: number, customers: number, products: ProductRef[], now: Date) {
  const rng = mulberry32(0x5eed0000 ^ i);
  const age = rng() * 365;
  const created = new Date(now.getTime() - age * DAY);
  const country = rng() < 0.6 ? "US" : "GB";
  const customer = rng() < 0.8 && customers > 0 ? Math.floor(rng() * customers) : null;
  const status = statusFor(age, rng());
  const invoice = rng() < 0.15;
  const lineCount = 1 + Math.floor(rng() * 3);
  const lines = [];
  for (let l = 0; l < lineCount; l++) {
    const p = products[Math.floor(rng() * products.length)];
    const quantity = 1 + Math.floor(rng() * 4);
    lines.push({
      product_id: p.id,
      title: p.title,
      color: "",
      quantity,
      unit_price_cents: p.price,
      line_total_cents: p.price * quantity,
    });
  }
  const subtotal = lines.reduce((s, l) => s + l.line_total_cents, 0);
  const shipping = subtotal >= 10_000 ? 0 : 999;
  const tax = Math.round(subtotal * (country === "GB" ? 0.2 : 0.07));
  const who = customer == null ? null : seedCustomerIdentity(customer);
  const paid: PaymentStatus = invoice
    ? "invoiced_net30"
    : status === "delivered" || status === "returned"
      ? "paid"
      : "due_on_delivery";
  const city = CITIES[country][i % 5];
  const order = {
    // The store's own format (TH- and 10 hex digits), from a block random numbers practically never reach.
    number: `TH-${(0xe000000000 + i).toString(16).toUpperCase()}`,
    access_token: `seed-a-${i}`,
    checkout_token: `seed-c-${i}`,
    user_id: who?.id ?? null,
    email: who?.email ?? `guest.${i}@example.com`,
    status,
    payment_method: invoice ? "invoice-net30" : "pay-on-delivery",
    payment_status: paid,
    business_name: invoice ? `Trade Co ${i % 997}` : null,
    tax_number: invoice ? (country === "US" ? "12-3456789" : "GB123456789") : null,
    ship_name: who?.name ?? "Guest Shopper",
    ship_line1: `${1 + (i % 200)} High Street`,
    ship_line2: null,
    ship_city: city,
    ship_region: country === "US" ? "TX" : null,
    ship_postcode: country === "US" ? "73301" : "LS1 4AP",
    ship_country: country,
    subtotal_cents: subtotal,
    member_discount_cents: 0,
    shipping_cents: shipping,
    tax_cents: tax,
    total_cents: subtotal + shipping + tax,
    created_at: created.toISOString(),
    hold_expires_at: null,
    confirm_token_hash: null,
    carrier:
      status === "shipped" || status === "delivered" || status === "returned"
        ? country === "US"
          ? "UPS"
          : "Royal Mail"
        : null,
    tracking_number: status === "shipped" || status === "delivered" || status === "returned" ? `SEED${i}` : null,
    updated_at: created.toISOString(),
  };
  return { order, lines };
}

function seedCustomerIdentity(index: number) {
  const c = seedCustomer(index, new Date(0));
  return { id: c.id, email: c.email, name: c.name };
}

async function seededOrderCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("checkout_token", "like", "seed-c-%")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Adds seeded orders (and their customers) until `orders` seeded orders exist. */
export async function seedOrders(
  db: Db,
  options: { orders: number; now?: Date; onProgress?: (done: number) => void },
): Promise<{ inserted: number }> {
  const now = options.now ?? new Date();
  const customers = Math.ceil(options.orders / CUSTOMER_EVERY);
  const products = (
    await db
      .selectFrom("products")
      .select(["id", "title", "sale_price_cents as price"])
      .orderBy("id")
      .limit(5000)
      .execute()
  ).map((p) => ({ ...p, price: Number(p.price) }));
  if (products.length === 0) throw new Error("Seed the catalog before orders (npm run seed -- --products N).");

  const existingCustomers = Number(
    (
      await db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("id", "like", "seed-user-%")
        .executeTakeFirstOrThrow()
    ).n,
  );
  for (let start = existingCustomers; start < customers; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(start + BATCH, customers); i++) rows.push(seedCustomer(i, now));
    await db.insertInto("user").values(rows).execute();
  }

  const start = await seededOrderCount(db);
  let done = start;
  while (done < options.orders) {
    const end = Math.min(done + BATCH, options.orders);
    const batch: ReturnType<typeof seedOrder>[] = [];
    for (let i = done; i < end; i++) batch.push(seedOrder(i, customers, products, now));
    await db.transaction().execute(async (trx) => {
      const ids = await trx
        .insertInto("orders")
        .values(batch.map((b) => b.order))
        .returning("id")
        .execute();
      const lines = batch.flatMap((b, k) => b.lines.map((l) => ({ ...l, order_id: Number(ids[k].id) })));
      for (let k = 0; k < lines.length; k += BATCH)
        await trx
          .insertInto("order_lines")
          .values(lines.slice(k, k + BATCH))
          .execute();
    });
    done = end;
    options.onProgress?.(done);
  }
  return { inserted: done - start };
}
