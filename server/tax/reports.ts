/**
 * The tax reports staff download from /admin/tax (issue 51): the UK VAT summary of a quarter and
 * the US sales tax of a month by state, from the tax lines stored with each order when it was
 * placed, so they match the orders to the cent. An order counts when it was placed in the period
 * (its tax point is its date) and became a sale: not a hold, an approval waiting, expired or cancelled.
 */
import { stringify } from "csv-stringify/sync";
import { CURRENCIES, type Currency } from "../../app/lib/money.ts";
import { usStateName } from "../../app/lib/us-states.ts";
import { assertCan, type StaffActor } from "../catalog/staff-actor.ts";
import type { Db } from "../db/connection.ts";
import { InvalidError } from "../errors.ts";
import { includedVatCents } from "../invoices/invoices.ts";
import type { OrderStatus } from "../orders/statuses.ts";

const SOLD = ["placed", "processing", "packed", "shipped", "delivered", "returned"] as const satisfies OrderStatus[];

export interface ReportPeriod {
  label: string;
  /** ISO-8601 UTC, inclusive. */
  from: string;
  /** ISO-8601 UTC, exclusive. */
  to: string;
}

const utc = (year: number, month: number) => new Date(Date.UTC(year, month, 1)).toISOString();

/** "2026-Q4" → October to December 2026; anything else (or a year outside 2000–2099) is null. */
export function parseQuarter(text: string): ReportPeriod | null {
  const match = /^(20\d\d)-Q([1-4])$/.exec(text.trim());
  if (!match) return null;
  const [year, quarter] = [Number(match[1]), Number(match[2])];
  return { label: `${year}-Q${quarter}`, from: utc(year, (quarter - 1) * 3), to: utc(year, quarter * 3) };
}

/** "2026-12" → December 2026; anything else is null. */
export function parseMonth(text: string): ReportPeriod | null {
  const match = /^(20\d\d)-(0[1-9]|1[0-2])$/.exec(text.trim());
  if (!match) return null;
  const [year, month] = [Number(match[1]), Number(match[2])];
  return { label: `${year}-${match[2]}`, from: utc(year, month - 1), to: utc(year, month) };
}

/** The last `count` quarters and months, newest first, for the report forms' choices. */
export function recentPeriods(now: Date, count: number) {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const quarters = Array.from({ length: count }, (_, i) => {
    const q = Math.floor(month / 3) - i;
    const y = year + Math.floor(q / 4);
    return `${y}-Q${(((q % 4) + 4) % 4) + 1}`;
  });
  const months = Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(year, month - i, 1));
    return d.toISOString().slice(0, 7);
  });
  return { quarters, months };
}

const amount = (cents: number) => (cents / 100).toFixed(2);

/** A share of `total` in proportion `part / whole`, rounded half-up (VAT inside a refund). */
const proportion = (total: number, part: number, whole: number) =>
  whole > 0 ? Math.floor((total * part * 2 + whole) / (whole * 2)) : 0;

export interface UkVatRow {
  number: string;
  date: string;
  status: string;
  currency: Currency;
  salesCents: number;
  vatCents: number;
  refundedCents: number;
  vatRefundedCents: number;
}

/** Every UK sale of the quarter with the VAT inside it, and the VAT inside what was refunded. */
export async function ukVatRows(db: Db, actor: StaffActor, period: ReportPeriod): Promise<UkVatRow[]> {
  assertCan(actor, { tax: ["view"] });
  const orderColumns = [
    "o.number",
    "o.created_at",
    "o.status",
    "o.currency",
    "o.total_cents",
    "o.refunded_cents",
    "o.tax_basis",
  ] as const;
  const rows = await db
    .selectFrom("orders as o")
    .leftJoin("order_tax_lines as t", (join) => join.onRef("t.order_id", "=", "o.id").on("t.included", "=", 1))
    .select((eb) => [...orderColumns, eb.fn.coalesce(eb.fn.sum<number>("t.tax_cents"), eb.lit(0)).as("vat")])
    .where("o.ship_country", "=", "GB")
    .where("o.status", "in", SOLD)
    .where("o.created_at", ">=", period.from)
    .where("o.created_at", "<", period.to)
    .groupBy(["o.id", ...orderColumns])
    .orderBy("o.created_at")
    .orderBy("o.id")
    .execute();
  return rows.map((r) => {
    const [sales, refunded] = [Number(r.total_cents), Number(r.refunded_cents)];
    // An order from before tax lines were kept: the VAT inside its total, as its invoice shows it.
    const vat = r.tax_basis ? Number(r.vat) : includedVatCents(sales);
    return {
      number: r.number,
      date: r.created_at.slice(0, 10),
      status: r.status,
      currency: r.currency,
      salesCents: sales,
      vatCents: vat,
      refundedCents: refunded,
      vatRefundedCents: proportion(vat, refunded, sales),
    };
  });
}

export interface UsStateRow {
  state: string;
  orders: number;
  /** Goods and delivery before tax, after discounts. */
  salesCents: number;
  /** What the state's rate applied to. */
  taxableCents: number;
  stateTaxCents: number;
  localTaxCents: number;
  exemptSalesCents: number;
  /** Sales where the store doesn't collect. */
  uncollectedSalesCents: number;
}

/** The month's US sales by the delivery ZIP code's state: what was taxed, collected, exempt and not collected. */
export async function usSalesTaxRows(db: Db, actor: StaffActor, period: ReportPeriod): Promise<UsStateRow[]> {
  assertCan(actor, { tax: ["view"] });
  const inPeriod = db
    .selectFrom("orders as o")
    .where("o.ship_country", "=", "US")
    .where("o.status", "in", SOLD)
    .where("o.tax_state", "is not", null)
    .where("o.created_at", ">=", period.from)
    .where("o.created_at", "<", period.to);
  const [sales, lines] = await Promise.all([
    inPeriod
      .select((eb) => [
        "o.tax_state",
        "o.tax_basis",
        eb.fn.countAll<number>().as("orders"),
        eb.fn.sum<number>(eb("o.total_cents", "-", eb.ref("o.tax_cents"))).as("sales"),
      ])
      .groupBy(["o.tax_state", "o.tax_basis"])
      .execute(),
    inPeriod
      .innerJoin("order_tax_lines as t", "t.order_id", "o.id")
      .select((eb) => [
        "o.tax_state",
        "t.jurisdiction",
        eb.fn.sum<number>("t.taxable_cents").as("taxable"),
        eb.fn.sum<number>("t.tax_cents").as("tax"),
      ])
      .groupBy(["o.tax_state", "t.jurisdiction"])
      .execute(),
  ]);
  const byState = new Map<string, UsStateRow>();
  const row = (state: string) => {
    let found = byState.get(state);
    if (!found) {
      found = {
        state,
        orders: 0,
        salesCents: 0,
        taxableCents: 0,
        stateTaxCents: 0,
        localTaxCents: 0,
        exemptSalesCents: 0,
        uncollectedSalesCents: 0,
      };
      byState.set(state, found);
    }
    return found;
  };
  for (const s of sales) {
    const r = row(s.tax_state!);
    r.orders += Number(s.orders);
    r.salesCents += Number(s.sales);
    if (s.tax_basis === "exempt") r.exemptSalesCents += Number(s.sales);
    if (s.tax_basis === "not-registered") r.uncollectedSalesCents += Number(s.sales);
  }
  for (const l of lines) {
    const r = row(l.tax_state!);
    if (l.jurisdiction === `US-${l.tax_state}`) {
      r.taxableCents += Number(l.taxable);
      r.stateTaxCents += Number(l.tax);
    } else r.localTaxCents += Number(l.tax);
  }
  return [...byState.values()].sort((a, b) => a.state.localeCompare(b.state));
}

/**
 * The UK VAT summary as CSV: one row per order, then the quarter's totals, one row per currency
 * the orders were in (amounts in different currencies are never added together).
 */
export function ukVatCsv(rows: readonly UkVatRow[]): string {
  const currencies = CURRENCIES.filter((c) => rows.some((r) => r.currency === c));
  const totals = (currencies.length ? currencies : (["gbp"] as const)).map((currency) => {
    const inCurrency = rows.filter((r) => r.currency === currency);
    const sum = (pick: (r: UkVatRow) => number) => inCurrency.reduce((s, r) => s + pick(r), 0);
    return [
      "Total",
      "",
      `${inCurrency.length} orders`,
      currency.toUpperCase(),
      amount(sum((r) => r.salesCents)),
      amount(sum((r) => r.salesCents - r.vatCents)),
      amount(sum((r) => r.vatCents)),
      amount(sum((r) => r.refundedCents)),
      amount(sum((r) => r.vatRefundedCents)),
    ];
  });
  return stringify([
    ["order", "date", "status", "currency", "sales_incl_vat", "net", "output_vat", "refunded", "vat_refunded"],
    ...rows.map((r) => [
      r.number,
      r.date,
      r.status,
      r.currency.toUpperCase(),
      amount(r.salesCents),
      amount(r.salesCents - r.vatCents),
      amount(r.vatCents),
      amount(r.refundedCents),
      amount(r.vatRefundedCents),
    ]),
    ...totals,
  ]);
}

/** The US sales tax report as CSV: one row per state with sales that month. */
export function usSalesTaxCsv(rows: readonly UsStateRow[]): string {
  return stringify([
    [
      "state",
      "state_name",
      "currency",
      "orders",
      "sales_before_tax",
      "taxable",
      "state_tax",
      "local_tax",
      "exempt_sales",
      "uncollected_sales",
    ],
    ...rows.map((r) => [
      r.state,
      usStateName(r.state),
      "USD",
      String(r.orders),
      amount(r.salesCents),
      amount(r.taxableCents),
      amount(r.stateTaxCents),
      amount(r.localTaxCents),
      amount(r.exemptSalesCents),
      amount(r.uncollectedSalesCents),
    ]),
  ]);
}

/** A period from the form, or a 400 that says what was expected. */
export function reportPeriod(kind: "quarter" | "month", text: string | null): ReportPeriod {
  const period = kind === "quarter" ? parseQuarter(text ?? "") : parseMonth(text ?? "");
  if (!period)
    throw new InvalidError(
      "BAD_PERIOD",
      kind === "quarter" ? "Choose a quarter, like 2026-Q4." : "Choose a month, like 2026-12.",
    );
  return period;
}
