import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/quote";
import { BackHeading } from "../../components/admin/BackHeading.tsx";
import { TextArea, TextInput } from "../../components/admin/fields.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { doneMessage, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { QuoteLinesTable } from "../../components/quotes/QuoteLinesTable.tsx";
import { centsToDecimalString, formatMoney } from "../../lib/money.ts";
import { QUOTE_MAX_VALID_DAYS, QUOTE_MESSAGE_MAX, QUOTE_STATE_LABELS } from "../../lib/quotes.ts";
import { can } from "../../../server/auth/permissions.ts";
import { config } from "../../../server/config.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { loadQuote } from "../../../server/quotes/quotes.ts";
import { QuoteInputError, sendQuote } from "../../../server/quotes/staff-quotes.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta({ params }: Route.MetaArgs) {
  return [
    { title: `Quote ${params.number} | Back office | ToolHub Wholesale` },
    { name: "robots", content: "noindex" },
  ];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { quote: ["view"] });
  const quote = await loadQuote(getDb(), params.number);
  if (!quote) throw data("Not found", { status: 404 });
  const { user_id: _u, ...view } = quote;
  return {
    quote: view,
    canSend: can(staff.role, { quote: ["update"] }),
    suggestedValidUntil: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
    done: doneMessage(new URL(request.url), { sent: `Quote ${quote.number} is sent to the buyer.` }),
  };
}

type Answer = { ok: false; message: string; fields?: Record<string, string>; values?: Record<string, string> };

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { quote: ["view"] });
  if (!can(staff.role, { quote: ["update"] })) throw data("Not found", { status: 404 });
  const form = await readSmallForm(request);
  const fields = Object.fromEntries(
    [...form.entries()]
      .filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[0].length <= 40)
      .map(([k, v]) => [k, v.slice(0, QUOTE_MESSAGE_MAX + 10)]),
  );
  try {
    await sendQuote(getDb(), { userId: staff.userId, name: staff.name }, params.number, fields, {
      siteUrl: config().siteUrl,
    });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data<Answer>(
      {
        ok: false,
        message: error.message,
        fields: error instanceof QuoteInputError ? error.fields : undefined,
        values: fields,
      },
      { status: error.status },
    );
  }
  throw redirect(`/admin/quotes/${params.number}?done=sent`, { status: 303 });
}

export default function AdminQuote({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, canSend, done, suggestedValidUntil } = loaderData;
  const answer = actionData;
  const errors = answer?.fields ?? {};
  const typed = answer?.values ?? {};
  const open = quote.state === "requested" || quote.state === "quoted" || quote.state === "expired";
  return (
    <section aria-labelledby="quote-heading">
      <BackHeading backTo="/admin/quotes" backLabel="Quotes" title={`Quote ${quote.number}`} id="quote-heading" />
      <ResultMessage result={answer ?? done} />
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-semibold">State</dt>
        <dd data-testid="quote-state">{QUOTE_STATE_LABELS[quote.state]}</dd>
        <dt className="font-semibold">Buyer</dt>
        <dd>{quote.email}</dd>
        <dt className="font-semibold">Asked</dt>
        <dd>
          <When iso={quote.created_at} />
        </dd>
        {quote.valid_until ? (
          <>
            <dt className="font-semibold">Valid until</dt>
            <dd>{quote.valid_until.slice(0, 10)}</dd>
          </>
        ) : null}
        {quote.orderNumber ? (
          <>
            <dt className="font-semibold">Order</dt>
            <dd>{quote.orderNumber}</dd>
          </>
        ) : null}
        {quote.message ? (
          <>
            <dt className="font-semibold">Buyer's message</dt>
            <dd className="whitespace-pre-wrap">{quote.message}</dd>
          </>
        ) : null}
      </dl>
      {canSend && open ? (
        <Form method="post" noValidate className="mt-6 space-y-4" aria-labelledby="price-heading">
          <h2 id="price-heading" className="text-xl font-semibold text-ink">
            {quote.state === "requested" ? "Price this quote" : "Price this quote again"}
          </h2>
          <input type="hidden" name="version" value={quote.version} />
          <QuoteLinesTable
            lines={quote.lines}
            caption="Lines of the quote, with the price per unit to quote"
            priceCell={(line) => (
              <TextInput
                id={`price-${line.id}`}
                name={`price-${line.id}`}
                label={`Price per unit for ${line.title}${line.color ? ` (${line.color})` : ""}, in US dollars`}
                inputMode="decimal"
                maxLength={12}
                autoComplete="off"
                defaultValue={
                  typed[`price-${line.id}`] ?? centsToDecimalString(line.quotedUnitCents ?? line.requestedUnitCents)
                }
                error={errors[`price-${line.id}`]}
                controlClassName="w-32"
              />
            )}
          />
          <TextInput
            id="validUntil"
            name="validUntil"
            label="Valid until (the last day the prices hold)"
            hint={`YYYY-MM-DD, at most ${QUOTE_MAX_VALID_DAYS} days ahead.`}
            maxLength={10}
            autoComplete="off"
            defaultValue={typed.validUntil ?? quote.valid_until?.slice(0, 10) ?? suggestedValidUntil}
            error={errors.validUntil}
            controlClassName="w-40"
          />
          <TextArea
            id="note"
            name="note"
            label="Note to the buyer (optional)"
            required={false}
            maxLength={QUOTE_MESSAGE_MAX}
            defaultValue={typed.note ?? quote.staff_note ?? ""}
            error={errors.note}
          />
          <button type="submit" className="btn-primary">
            Send quote
          </button>
        </Form>
      ) : (
        <div className="mt-6">
          <QuoteLinesTable lines={quote.lines} caption="Lines of the quote" />
          {quote.quotedTotalCents != null ? (
            <p className="mt-2 font-semibold">Quoted total: {formatMoney(quote.quotedTotalCents)}</p>
          ) : null}
        </div>
      )}
    </section>
  );
}
