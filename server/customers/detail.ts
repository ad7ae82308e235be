import type { Currency } from "../../app/lib/money.ts";
/** One account as the back office sees it: profile, sign-in methods, orders and lifetime value. */
import type { Db } from "../db/connection.ts";
import { roleOf, type Role } from "../auth/permissions.ts";
import type { OrderStatus } from "../orders/states.ts";
import { authDate } from "../privacy/retention.ts";
import { iso, orderFigures, signInMethods, type SignInMethod } from "./list.ts";

/** The detail page lists this many of the newest orders. */
const CUSTOMER_ORDERS_SHOWN = 50;
/** Better Auth user ids are short random strings; anything longer is not one of ours. */
const MAX_USER_ID_LENGTH = 128;

interface CustomerOrder {
  number: string;
  status: OrderStatus;
  totalCents: number;
  currency: Currency;
  createdAt: string;
}

export interface CustomerDetail {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: Role;
  banned: boolean;
  banReason: string | null;
  createdAt: string;
  methods: SignInMethod[];
  activeSessions: number;
  orderCount: number;
  /** What the account's placed orders came to, in each currency. */
  lifetimeValue: Record<Currency, number>;
  /** Every order linked to the account, placed or not. */
  allOrders: number;
  orders: CustomerOrder[];
}

export function plausibleUserId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_USER_ID_LENGTH;
}

export async function getCustomer(db: Db, id: string, now = new Date()): Promise<CustomerDetail | null> {
  if (!plausibleUserId(id)) return null;
  const user = await db
    .selectFrom("user")
    .select(["id", "name", "email", "emailVerified", "role", "banned", "banReason", "createdAt"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!user) return null;
  const [figures, methods, sessions, allOrders, orders] = await Promise.all([
    orderFigures(db, [id]),
    signInMethods(db, [id]),
    db
      .selectFrom("session")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("userId", "=", id)
      .where("expiresAt", ">", authDate(db, now))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select(["number", "status", "total_cents", "currency", "created_at"])
      .where("user_id", "=", id)
      .orderBy("id", "desc")
      .limit(CUSTOMER_ORDERS_SHOWN)
      .execute(),
  ]);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: Boolean(user.emailVerified),
    role: roleOf(user.role),
    banned: Boolean(user.banned),
    banReason: user.banReason,
    createdAt: iso(user.createdAt),
    methods: methods.get(id) ?? [],
    activeSessions: Number(sessions.n),
    orderCount: figures.get(id)!.orders,
    lifetimeValue: figures.get(id)!.lifetimeValue,
    allOrders: Number(allOrders.n),
    orders: orders.map((o) => ({
      number: o.number,
      status: o.status,
      totalCents: Number(o.total_cents),
      currency: o.currency,
      createdAt: o.created_at,
    })),
  };
}
