import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * What the back office's lists and dashboard need to answer within 100 ms at 100,000 products and
 * 1,000,000 orders (npm run bench:admin; docs/decisions/0010-back-office.md). The indexes on Better
 * Auth's "user" table live in server/auth/migrate.ts, which creates that table.
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  // Orders, newest first (the list's default keyset and its date range), covering status and
  // total so the dashboard sums a date range from the index alone.
  await sql`create index orders_created_idx on orders (created_at, id, status, total_cents)`.execute(db);
  await sql`create index orders_status_idx on orders (status, created_at, id, total_cents)`.execute(db);
  await sql`create index orders_email_idx on orders (lower(email), created_at)`.execute(db);
  await sql`create index orders_total_idx on orders (total_cents, id)`.execute(db);
  // A customer's orders (their account pages, newest first) and lifetime value, from one index.
  await sql`drop index orders_user_idx`.execute(db);
  await sql`create index orders_user_idx on orders (user_id, id, status, total_cents)`.execute(db);
  await sql`create index order_lines_product_idx on order_lines (product_id)`.execute(db);

  // Seeded and older products have no updated_at: they were last changed when created. With no
  // NULLs the list's default sort (newest change first) reads an index on both databases.
  await sql`update products set updated_at = created_at where updated_at is null`.execute(db);
  // Each sort's index carries archived_at, so the list's count of live products is an index scan too.
  await sql`create index products_updated_idx on products (updated_at, id, archived_at)`.execute(db);
  await sql`create index products_title_idx on products (title, id, archived_at)`.execute(db);
  await sql`create index products_stock_idx on products (stock_quantity, id, archived_at)`.execute(db);
  await sql`create index products_archived_idx on products (archived_at, id) where archived_at is not null`.execute(db);
  await sql`create index products_low_stock_idx on products (stock_quantity, id) where archived_at is null and stock_quantity <= low_stock_threshold`.execute(
    db,
  );

  await sql`create index contact_messages_unhandled_idx on contact_messages (id) where handled_at is null`.execute(db);
  await sql`create index newsletter_status_idx on newsletter_subscribers (status, id)`.execute(db);
}
