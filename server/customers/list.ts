import { CURRENCIES, type Currency } from "../../app/lib/money.ts";
import { inCurrency } from "../orders/currency-sums.ts";
/**
 * The back office's customer directory: Better Auth's `user` table with the store's figures
 * (placed orders and lifetime value) and how each account can sign in.
 *
 * Search is a case-insensitive "contains" on the name and the email (LIKE / ILIKE '%q%'). On
 * SQLite that is a scan of `user` (about 50 ms for 100k accounts), stopped early by LIMIT when the
 * newest accounts match; on PostgreSQL it wants pg_trgm GIN indexes (gin_trgm_ops) on name and email. Figures per row are
 * one grouped query on orders for the page's rows only (wants orders (user_id, status, total_cents)).
 */
import { sql, type SqlBool } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { roleOf, STAFF_ROLES, type Role } from "../auth/permissions.ts";
import { SALE_STATUSES } from "../admin/dashboard.ts";
import { MAX_SEARCH_LENGTH, type SignInMethod } from "../../app/lib/admin/customer-labels.ts";

const CUSTOMERS_PER_PAGE = 25;
/** OFFSET pagination stops here (5,000 rows in); narrow the search to go further. */
const MAX_CUSTOMER_PAGE = 200;

export type { SignInMethod };
type RoleFilter = "all" | "customer" | "staff";
export type CustomerSort = "newest" | "oldest" | "name" | "email";
export const CUSTOMER_SORTS: readonly CustomerSort[] = ["newest", "oldest", "name", "email"];

export interface CustomerQuery {
  q?: string;
  role?: RoleFilter;
  bannedOnly?: boolean;
  sort?: CustomerSort;
  page?: number;
}

export interface CustomerSummary {
  id: string;
  name: string;
  email: string;
  role: Role;
  banned: boolean;
  createdAt: string;
  orders: number;
  /** What the account's placed orders came to, in each currency. */
  lifetimeValue: Record<Currency, number>;
  /** From Better Auth's `account` rows. An emailed sign-in link works for every account and leaves no row. */
  methods: SignInMethod[];
}

/** Provider ids of Better Auth's `account` table, in the store's words. */
function signInMethodOf(providerId: string): SignInMethod {
  if (providerId === "credential") return "password";
  if (providerId === "google") return "google";
  return "other";
}

export const iso = (value: string | Date) => new Date(value).toISOString();

/** Escapes LIKE's wildcards so a search for "a_b" or "50%" finds exactly that. */
export function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, "\\$&")}%`;
}

export function normalizeSearch(q: string | null | undefined): string {
  return (q ?? "").trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH);
}

/** Placed orders and their totals per currency per account, for a page of accounts (read through orders_user_idx). */
export async function orderFigures(
  db: Db,
  userIds: string[],
): Promise<Map<string, { orders: number; lifetimeValue: Record<Currency, number> }>> {
  const out = new Map(userIds.map((id) => [id, { orders: 0, lifetimeValue: { usd: 0, gbp: 0 } }]));
  if (userIds.length === 0) return out;
  // One row per account, each currency summed beside the others (GROUP BY the account alone keeps
  // the plan a read of orders_user_idx, which holds the status, currency and total).
  const rows = await db
    .selectFrom("orders")
    .select((eb) => [
      "user_id",
      eb.fn.countAll<number>().as("n"),
      ...CURRENCIES.map((currency) =>
        eb.fn.sum<number>(inCurrency(eb, currency, "total_cents")).as(`total_${currency}` as const),
      ),
    ])
    .where("user_id", "in", userIds)
    .where("status", "in", [...SALE_STATUSES])
    .groupBy("user_id")
    .execute();
  for (const r of rows) {
    const figures = r.user_id ? out.get(r.user_id) : undefined;
    if (!figures) continue;
    figures.orders = Number(r.n);
    for (const currency of CURRENCIES) figures.lifetimeValue[currency] = Number(r[`total_${currency}`] ?? 0);
  }
  return out;
}

export async function signInMethods(db: Db, userIds: string[]): Promise<Map<string, SignInMethod[]>> {
  const out = new Map<string, SignInMethod[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db.selectFrom("account").select(["userId", "providerId"]).where("userId", "in", userIds).execute();
  for (const row of rows) {
    const list = out.get(row.userId);
    const method = signInMethodOf(row.providerId);
    if (list && !list.includes(method)) list.push(method);
  }
  return out;
}

export async function listCustomers(
  db: Db,
  query: CustomerQuery = {},
): Promise<{ rows: CustomerSummary[]; page: number; hasNext: boolean }> {
  const page = Math.min(Math.max(Math.trunc(query.page ?? 1) || 1, 1), MAX_CUSTOMER_PAGE);
  const q = normalizeSearch(query.q);
  const staffRoles = [...STAFF_ROLES];
  // The page's rows first, then their figures: OFFSET never pays for the order sums of skipped rows.
  let select = db
    .selectFrom("user")
    .select(["user.id", "user.name", "user.email", "user.role", "user.banned", "user.createdAt"]);
  if (q) {
    const pattern = likeContains(q);
    // SQLite's LIKE ignores ASCII case already (and its lower() is ASCII-only too); PostgreSQL's
    // ILIKE is what pg_trgm's gin_trgm_ops indexes serve.
    const like = sql.raw(dbKind(db) === "postgres" ? "ilike" : "like");
    select = select.where(
      sql<SqlBool>`("user"."name" ${like} ${pattern} escape '\\' or "user"."email" ${like} ${pattern} escape '\\')`,
    );
  }
  if (query.role === "staff") select = select.where("user.role", "in", staffRoles);
  if (query.role === "customer")
    select = select.where((eb) => eb.or([eb("user.role", "is", null), eb("user.role", "not in", staffRoles)]));
  if (query.bannedOnly)
    select = select.where(sql<SqlBool>`coalesce("user"."banned", ${sql.lit(false)}) = ${sql.lit(true)}`);

  const sort = query.sort ?? "newest";
  if (sort === "newest") select = select.orderBy("user.createdAt", "desc").orderBy("user.id", "desc");
  else if (sort === "oldest") select = select.orderBy("user.createdAt", "asc").orderBy("user.id", "asc");
  else if (sort === "name") select = select.orderBy("user.name", "asc").orderBy("user.id", "asc");
  else select = select.orderBy("user.email", "asc");

  const rows = await select
    .limit(CUSTOMERS_PER_PAGE + 1)
    .offset((page - 1) * CUSTOMERS_PER_PAGE)
    .execute();
  const shown = rows.slice(0, CUSTOMERS_PER_PAGE);
  const ids = shown.map((r) => r.id);
  const [methods, figures] = await Promise.all([signInMethods(db, ids), orderFigures(db, ids)]);
  return {
    page,
    hasNext: rows.length > CUSTOMERS_PER_PAGE && page < MAX_CUSTOMER_PAGE,
    rows: shown.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      role: roleOf(r.role),
      banned: Boolean(r.banned),
      createdAt: iso(r.createdAt),
      ...figures.get(r.id)!,
      methods: methods.get(r.id) ?? [],
    })),
  };
}
