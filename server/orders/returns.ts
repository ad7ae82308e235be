/**
 * Returns: staff record which units of a shipped or delivered order came back, why, and whether
 * they go back on sale. One transaction writes the return and its lines, the stock movements
 * (reason "return") when restocked, the order_events row, the audit row and the customer's mail.
 *
 * The order stays shipped or delivered while only part of it has come back (the page shows the
 * partial return); once every unit of every line is back, it becomes `returned`. Each return bumps
 * the order's version, so two staff recording returns from one page state can't both win.
 */
import { returnSchema, type ReturnInput } from "../../app/lib/order-admin-schema.ts";
import { writeAudit } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import { moveStocks } from "../inventory/stock.ts";
import { enqueueMail } from "../mail/queue.ts";
import { recordOrderEvent } from "./history.ts";
import { OrderInputError } from "./input.ts";
import { orderReturnMail } from "./mails.ts";
import {
  checkVersion,
  customerOrderLink,
  loadOrder,
  parseInput,
  refusal,
  staffActorRef,
  staleNow,
  StaleOrderError,
  type ActionOutcome,
  type StaffActor,
  type StaffOrderOptions,
} from "./staff-order.ts";
import { applyTransition, OrderConflictError, type OrderStatus } from "./states.ts";
import type { Transaction } from "kysely";
import type { Database } from "../db/schema.ts";

/** Statuses from which goods can come back: a parcel refused or undeliverable comes back while shipped. */
export const RETURNABLE_STATUSES: readonly OrderStatus[] = ["shipped", "delivered"];

export interface ReturnableLine {
  id: number;
  product_id: number;
  title: string;
  color: string;
  quantity: number;
  /** Units of this line already recorded as returned. */
  returned: number;
}

/** Each line of the order with how many of its units have come back so far. */
export async function returnableLines(db: Db | Transaction<Database>, orderId: number): Promise<ReturnableLine[]> {
  const lines = await db
    .selectFrom("order_lines")
    .select(["id", "product_id", "title", "color", "quantity"])
    .where("order_id", "=", orderId)
    .orderBy("id")
    .execute();
  const returned = await db
    .selectFrom("order_return_lines as rl")
    .innerJoin("order_returns as r", "r.id", "rl.return_id")
    .select(["rl.order_line_id", (eb) => eb.fn.sum<number>("rl.quantity").as("n")])
    .where("r.order_id", "=", orderId)
    .groupBy("rl.order_line_id")
    .execute();
  const byLine = new Map(returned.map((r) => [Number(r.order_line_id), Number(r.n)]));
  return lines.map((l) => ({ ...l, returned: byLine.get(l.id) ?? 0 }));
}

function parseReturn(input: unknown): ReturnInput {
  const raw = input as { lines?: { lineId?: unknown }[] } | null;
  return parseInput(returnSchema, input, (path) => {
    if (path[0] === "lines" && typeof path[1] === "number") {
      const lineId = raw?.lines?.[path[1]]?.lineId;
      return typeof lineId === "number" ? `qty-${lineId}` : "lines";
    }
    return String(path[0] ?? "form");
  });
}

/** Records a return of some (or all) units of a shipped or delivered order. */
export async function recordReturn(
  db: Db,
  staff: StaffActor,
  number: string,
  input: ReturnInput | Record<string, unknown>,
  options: StaffOrderOptions = {},
): Promise<ActionOutcome> {
  const order = await loadOrder(db, number);
  const request = parseReturn(input);
  checkVersion(order, request.version);
  if (!RETURNABLE_STATUSES.includes(order.status)) throw refusal(order.status, "return");
  const now = options.now ?? new Date();
  const actor = staffActorRef(staff);
  const wanted = request.lines.filter((l) => l.quantity > 0);

  try {
    return await withTransactionRetry(() =>
      db.transaction().execute(async (trx) => {
        // Claim this version first: a concurrent return or move now waits, then finds it taken.
        const claimed = await trx
          .updateTable("orders")
          .set({ version: request.version + 1, updated_at: now.toISOString() })
          .where("id", "=", order.id)
          .where("version", "=", request.version)
          .where("status", "=", order.status)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw new OrderConflictError();

        const lines = await returnableLines(trx, order.id);
        const byId = new Map(lines.map((l) => [l.id, l]));
        const problems: Record<string, string> = {};
        for (const w of wanted) {
          const line = byId.get(w.lineId);
          if (!line) problems[`qty-${w.lineId}`] = "That line isn't part of this order.";
          else if (w.quantity > line.quantity - line.returned) {
            const left = line.quantity - line.returned;
            problems[`qty-${w.lineId}`] =
              left === 0
                ? `Every unit of ${line.title} has already been returned.`
                : `At most ${left} of ${line.title} can come back (${line.quantity} ordered, ${line.returned} returned already).`;
          }
        }
        if (Object.keys(problems).length) throw new OrderInputError(problems);

        const back = wanted.map((w) => ({ line: byId.get(w.lineId)!, quantity: w.quantity }));
        const complete = lines.every(
          (l) => l.returned + (wanted.find((w) => w.lineId === l.id)?.quantity ?? 0) >= l.quantity,
        );
        let version = request.version + 1;
        let status = order.status;
        if (complete)
          ({ version, status } = await applyTransition(
            trx,
            { id: order.id, status: order.status, version },
            "returned",
            { actor, now },
          ));

        const ret = await trx
          .insertInto("order_returns")
          .values({
            order_id: order.id,
            created_at: now.toISOString(),
            actor,
            reason: request.reason,
            restock: request.restock ? 1 : 0,
            note: request.note,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("order_return_lines")
          .values(back.map((b) => ({ return_id: Number(ret.id), order_line_id: b.line.id, quantity: b.quantity })))
          .execute();
        if (request.restock) {
          await moveStocks(
            trx,
            back.map((b) => ({
              productId: b.line.product_id,
              delta: b.quantity,
              reason: "return" as const,
              orderId: order.id,
              actor,
              note: request.reason,
            })),
            { now },
          );
        }
        const returned = back.map((b) => ({ title: b.line.title, color: b.line.color, quantity: b.quantity }));
        await recordOrderEvent(trx, {
          orderId: order.id,
          actor,
          kind: "return",
          from: order.status,
          to: complete ? "returned" : null,
          details: {
            by: staff.name,
            reason: request.reason,
            restock: request.restock,
            lines: returned,
            ...(request.note ? { note: request.note } : {}),
          },
          now,
        });
        await writeAudit(
          trx,
          staff,
          {
            action: "order.return",
            objectType: "order",
            objectId: order.number,
            before: { status: order.status, version: order.version },
            after: {
              status,
              version,
              reason: request.reason,
              restock: request.restock,
              lines: returned.map((r) => `${r.quantity} × ${r.title}${r.color ? ` (${r.color})` : ""}`),
            },
          },
          now,
        );
        if (order.email) {
          await enqueueMail(
            trx,
            orderReturnMail(
              {
                number: order.number,
                email: order.email,
                ship_name: order.ship_name,
                link: customerOrderLink(order, options.siteUrl),
              },
              { reason: request.reason, lines: returned, complete },
            ),
          );
        }
        const units = back.reduce((sum, b) => sum + b.quantity, 0);
        const message = `Return recorded: ${units} unit${units === 1 ? "" : "s"}${request.restock ? ", back in stock" : ", not restocked"}.${complete ? " Every item has come back, so the order is now returned." : ""} The customer has been emailed.`;
        return { number: order.number, status, version, message };
      }),
    );
  } catch (error) {
    if (error instanceof OrderConflictError && !(error instanceof StaleOrderError)) throw await staleNow(db, order.id);
    throw error;
  }
}
