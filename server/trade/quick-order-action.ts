/** The quick order page's post: check the lines, or put the good ones in the cart. */
import { data } from "react-router";
import type { QuickOrderCheck } from "../../app/lib/quick-order-types.ts";
import { countText } from "../../app/lib/numbers.ts";
import { isTrustedOrigin, originPolicy } from "../auth/origins.ts";
import { config } from "../config.ts";
import { shopperMarket } from "../shopper/market.ts";
import { getDb } from "../db/connection.ts";
import { isDomainError } from "../errors.ts";
import { QUICK_ORDER_BODY_LIMIT_BYTES } from "../http/body-limit.ts";
import { readSmallForm } from "../http/form-action.ts";
import { clientIp, createRateLimiter, type RateLimiter, type RateLimitResult } from "../security/rate-limit.ts";
import { resolveShopper } from "../shopper/identity.ts";
import {
  addQuickOrderToCart,
  checkQuickOrder,
  parseQuickOrderCsv,
  quickOrderRows,
  type RawQuickOrderLine,
} from "./quick-order.ts";
import { formText } from "../../app/lib/form-text.ts";

/** Checks and adds one cart may ask for per minute (each checks up to 500 lines). */
export const QUICK_ORDER_LIMIT = { windowSeconds: 60, max: 60 } as const;
/**
 * Checks and adds one client (an IPv4 address, an IPv6 /64) may ask for per minute, whatever
 * cart they come with: a request without the cart cookie gets a new cart each time, so the
 * cart's limit alone would not hold. Four busy carts' worth, for an office behind one address.
 */
export const QUICK_ORDER_CLIENT_LIMIT = { windowSeconds: 60, max: 240 } as const;

export interface QuickOrderActionData {
  ok: boolean;
  intent: "check" | "add";
  message: string;
  check: QuickOrderCheck | null;
  /** What the form should hold afterwards: all of it after a check, what was left over after an add. */
  rows: { sku: string; quantity: string }[];
  csv: string;
}

let limiters: { client: RateLimiter; cart: RateLimiter } | undefined;

const tooMany = (hit: RateLimitResult) =>
  `Too many checks in a short time. Try again in ${hit.retryAfterSeconds} seconds.`;

const strings = (form: FormData, name: string) => form.getAll(name).map((v) => (typeof v === "string" ? v : ""));

async function uploadedCsv(form: FormData): Promise<string> {
  const file = form.get("file");
  return file && typeof file !== "string" && file.size > 0 ? await file.text() : "";
}

/** The lines to check: the typed rows, then the pasted CSV, then the uploaded file's. */
async function linesOf(
  form: FormData,
): Promise<{ raw: RawQuickOrderLine[]; rows: { sku: string; quantity: string }[]; csv: string }> {
  const skus = strings(form, "sku");
  const quantities = strings(form, "quantity");
  const rows = quickOrderRows(skus, quantities);
  const pasted = formText(form, "csv");
  const file = await uploadedCsv(form);
  const csv = [pasted.trim(), file.trim()].filter(Boolean).join("\n");
  const raw = [...rows, ...parseQuickOrderCsv(csv)];
  return { raw, rows: rows.map(({ sku, quantity }) => ({ sku, quantity })), csv };
}

function typedRowsOrNone(form: FormData) {
  try {
    return quickOrderRows(strings(form, "sku"), strings(form, "quantity")).map(({ sku, quantity }) => ({
      sku,
      quantity,
    }));
  } catch {
    return [];
  }
}

function summary(check: QuickOrderCheck): string {
  if (!check.lines.length) return "Type a SKU and quantity, or paste or upload a CSV, then check the lines.";
  const parts = [`${countText(check.ok, "line")} ready`];
  if (check.problems) parts.push(`${countText(check.problems, "line")} with a problem`);
  if (check.merged) parts.push(`${countText(check.merged, "duplicate line")} merged`);
  return `${parts.join(", ")}.`;
}

function leftOverForm(lines: RawQuickOrderLine[]) {
  const rows = lines.filter((l) => l.label.startsWith("Row")).map(({ sku, quantity }) => ({ sku, quantity }));
  const csv = lines
    .filter((l) => l.label.startsWith("Line"))
    .map((l) => `${l.sku},${l.quantity}`)
    .join("\n");
  return { rows, csv };
}

export async function quickOrderAction(request: Request) {
  const cfg = config();
  if (!isTrustedOrigin(request.headers, originPolicy(cfg)))
    throw data("This form was sent from another site, so it was refused.", { status: 403 });
  limiters ??= {
    client: createRateLimiter({ name: "quick-order-client", ...QUICK_ORDER_CLIENT_LIMIT, redisUrl: cfg.REDIS_URL }),
    cart: createRateLimiter({ name: "quick-order", ...QUICK_ORDER_LIMIT, redisUrl: cfg.REDIS_URL }),
  };
  // The client's window first: a refused client gets no new cart (nor its cookie).
  const byClient = await limiters.client.hit(clientIp(request));
  const shopper = byClient.allowed ? await resolveShopper(request, { create: true }) : null;
  const headers = new Headers();
  if (shopper?.setCookie) headers.set("Set-Cookie", shopper.setCookie);
  const limit = shopper ? await limiters.cart.hit(shopper.owner) : byClient;

  const form = await readSmallForm(request, QUICK_ORDER_BODY_LIMIT_BYTES);
  const intent = form.get("intent") === "add" ? "add" : "check";
  if (!shopper || !limit.allowed) {
    // Shown on the page with what was typed kept, so it can be sent again later.
    headers.set("Retry-After", String(limit.retryAfterSeconds));
    const body: QuickOrderActionData = {
      ok: false,
      intent,
      message: tooMany(limit),
      check: null,
      rows: typedRowsOrNone(form),
      csv: formText(form, "csv").slice(0, 64_000),
    };
    return data(body, { status: 429, headers });
  }
  const db = getDb();
  try {
    const { raw, rows, csv } = await linesOf(form);
    if (intent === "check") {
      const check = await checkQuickOrder(db, raw);
      const body: QuickOrderActionData = { ok: true, intent, message: summary(check), check, rows, csv };
      return data(body, { headers });
    }
    const { market } = await shopperMarket(db, request);
    const result = await addQuickOrderToCart(db, shopper.owner, raw, new Set(strings(form, "takeAvailable")), market);
    const left = result.leftOver.length;
    const message = result.addedLines
      ? `${countText(result.addedLines, "line")} (${countText(result.addedUnits, "unit")}) added to your cart.${left ? ` ${countText(left, "line")} not added: see why below.` : ""}`
      : raw.length
        ? "Nothing was added: see why below."
        : summary(result.check);
    const body: QuickOrderActionData = {
      ok: result.addedLines > 0,
      intent,
      message,
      check: result.check,
      ...leftOverForm(result.leftOver),
    };
    return data(body, { status: result.addedLines > 0 || !raw.length ? 200 : 409, headers });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const body: QuickOrderActionData = {
      ok: false,
      intent,
      message: error.message,
      check: null,
      rows: typedRowsOrNone(form),
      csv: formText(form, "csv").slice(0, 64_000),
    };
    return data(body, { status: error.status, headers });
  }
}
