import { useState } from "react";
import { Options } from "../components/ui/Options.tsx";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/checkout";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { SummaryTable } from "../components/orders/SummaryTable.tsx";
import { formatMoney } from "../lib/money.ts";
import { COUNTRIES, PAYMENT_METHODS, type ShippingCountry } from "../lib/order-rules.ts";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import {
  checkoutPreview,
  defaultCheckoutDeps,
  quoteCheckoutPreview,
  submitCheckout,
  type FieldErrors,
} from "../../server/orders/checkout.ts";
import { returnOrigin } from "../../server/payments/stripe.ts";
import { orderAwaitingPayment } from "../../server/payments/order-page.ts";
import { clientIp } from "../../server/security/rate-limit.ts";
import { resolveShopper } from "../../server/shopper/identity.ts";
import { buyerTerms } from "../../server/trade/limits.ts";
import { creditStanding } from "../../server/invoices/credit.ts";
import { useHydrated } from "../lib/use-hydrated.ts";
import { pageMarketContext } from "../lib/market-context.ts";
import { InCurrency, Money } from "../components/ui/Money.tsx";
import { longDate } from "../lib/dates.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Checkout", description: "Place your order.", path: "/checkout", matches, noindex: true });
}

/** Accepting a quote: its lines at its prices instead of the cart's. */
async function quotePreview(userId: string | null, number: string) {
  if (!userId) throw redirect("/login");
  const preview = await quoteCheckoutPreview(getDb(), userId, number.slice(0, 20));
  if (!preview) throw data("There is no such quote on your account.", { status: 404 });
  // An expired, unpriced or already accepted quote: its own page says why.
  if (preview.refusal != null) throw redirect(`/account/quotes/${preview.number}`);
  return { ...preview, quote: { number: preview.number, validUntil: preview.validUntil } };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const shopper = await resolveShopper(request);
  const quoteNumber = new URL(request.url).searchParams.get("quote");
  const { market, trade: tradeMarket } = context.get(pageMarketContext);
  const found =
    quoteNumber != null
      ? await quotePreview(shopper.session?.userId ?? null, quoteNumber)
      : await checkoutPreview(getDb(), shopper.owner, Boolean(shopper.session), {
          market,
          trade: tradeMarket,
          quote: false,
        });
  const preview = {
    cart: {
      lines: found.cart.lines.map((l) => ({
        productId: l.productId,
        color: l.color,
        title: l.title,
        quantity: l.quantity,
        lineTotalCents: l.lineTotalCents,
      })),
    },
    summaries: found.summaries,
    taxes: found.taxes,
    currency: found.currency,
    checkoutToken: found.checkoutToken,
  };
  const quote = "quote" in found ? found.quote : null;
  if (preview.cart.lines.length === 0) throw redirect("/cart");
  const member = shopper.session ? { email: shopper.session.user.email, name: shopper.session.user.fullName } : null;
  const deps = defaultCheckoutDeps();
  const awaitingPayment = deps.payments && !quote ? await orderAwaitingPayment(getDb(), shopper.owner) : null;
  const terms = await buyerTerms(getDb(), shopper.session?.userId ?? null);
  const credit = terms?.net30 ? await creditStanding(getDb(), terms.organizationId) : null;
  const trade = terms
    ? {
        companyName: terms.companyName,
        poRequired: terms.poRequired,
        limitCents: terms.limitCents,
        taxId: terms.taxId,
        credit,
      }
    : null;
  return {
    ...preview,
    quote,
    member,
    trade,
    holdMinutes: deps.holdMinutes,
    cardHoldMinutes: deps.payments ? Math.round(deps.payments.holdMinutes) : null,
    awaitingPayment,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const shopper = await resolveShopper(request);
  const { market, trade } = context.get(pageMarketContext);
  const form = await readSmallForm(request);
  const result = await submitCheckout(
    getDb(),
    form,
    { ip: clientIp(request), origin: returnOrigin(request) },
    {
      owner: shopper.owner,
      userId: shopper.session?.userId ?? null,
      email: shopper.session?.user.email ?? null,
      market,
      trade,
    },
    defaultCheckoutDeps(),
  );
  if (result.ok) throw redirect(result.location);
  const headers = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
  return data(result.data, { status: result.status, headers });
}

function Field({
  name,
  label,
  errors,
  values,
  autoComplete,
  type = "text",
  required = true,
  defaultValue,
}: {
  name: string;
  label: string;
  errors: FieldErrors;
  values: Record<string, string>;
  autoComplete: string;
  type?: string;
  required?: boolean;
  defaultValue?: string;
}) {
  const error = errors[name];
  return (
    <div>
      <label htmlFor={`checkout-${name}`} className="block text-sm font-semibold text-ink">
        {label}
        {required ? "" : " (optional)"}
      </label>
      <input
        id={`checkout-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={values[name] ?? defaultValue ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `checkout-${name}-error` : undefined}
        className="field mt-1"
        maxLength={254}
      />
      {error ? (
        <p id={`checkout-${name}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const {
    cart,
    summaries,
    taxes,
    currency,
    checkoutToken,
    quote,
    member,
    trade,
    holdMinutes,
    cardHoldMinutes,
    awaitingPayment,
  } = loaderData;
  const countries = COUNTRIES.filter((c) => Object.hasOwn(summaries, c.code));
  // Net 30 is offered only to a company with net-30 terms (its credit is checked again on placing);
  // a quote is paid on delivery or by invoice.
  const methods = PAYMENT_METHODS.filter(
    (m) => (m.id !== "card" || (cardHoldMinutes !== null && !quote)) && (m.id !== "invoice-net30" || trade?.credit),
  );
  const values = actionData?.values ?? {};
  const errors = actionData?.errors ?? {};
  const typed = { errors, values };
  // The refilled form echoes what was posted: only a country the summaries know may pick one.
  const [country, setCountry] = useState<ShippingCountry>(
    values.country && Object.hasOwn(summaries, values.country)
      ? (values.country as ShippingCountry)
      : countries[0].code,
  );
  const [payment, setPayment] = useState(values.paymentMethod || "pay-on-delivery");
  // The sales tax the server will charge at the address last posted (shown before the order is placed).
  const review = country === "US" && values.country === "US" ? (actionData?.review ?? null) : null;
  const salesTax = review?.tax ?? null;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const submitting = navigation.state !== "idle" && (navigation.formAction ?? "").startsWith("/checkout");
  return (
    <InCurrency currency={currency}>
      <PageHeader title="Checkout" />
      <Form method="post" className="mx-auto grid max-w-6xl gap-10 px-4 py-10 lg:grid-cols-[1fr_22rem]" noValidate>
        <input type="hidden" name="checkoutToken" value={values.checkoutToken || checkoutToken} />
        {values.shownTaxCents ? <input type="hidden" name="shownTaxCents" value={values.shownTaxCents} /> : null}
        {values.prop65Shown ? <input type="hidden" name="prop65Shown" value="1" /> : null}
        {quote ? <input type="hidden" name="quote" value={quote.number} /> : null}
        <div className="space-y-8">
          {actionData?.message ? (
            <p role="alert" className="rounded-md bg-red-50 p-4 text-red-900">
              {actionData.message}
            </p>
          ) : null}
          {quote ? (
            <p className="rounded-md bg-blue-50 p-4 text-blue-950">
              Accepting quote <strong>{quote.number}</strong>: the order is made at the quoted prices, which hold until
              the end of {longDate(quote.validUntil)}. Your cart stays as it is.
            </p>
          ) : null}
          {awaitingPayment ? (
            <p className="rounded-md bg-amber-50 p-4 text-amber-950">
              Your order <strong>{awaitingPayment.number}</strong> from this cart is still waiting for payment.{" "}
              <Link to={awaitingPayment.path} className="font-semibold underline">
                Pay for order {awaitingPayment.number}
              </Link>{" "}
              — or place a new order below.
            </p>
          ) : null}
          <fieldset className="space-y-4">
            <legend className="text-lg font-bold text-ink">Contact</legend>
            {member ? (
              <p className="text-sm text-slate-700">
                Signed in as <strong>{member.email}</strong>. Members get 5% off orders over $120.00.
              </p>
            ) : (
              <>
                <Field name="email" label="Email" type="email" autoComplete="email" {...typed} />
                <p className="text-sm text-slate-700">
                  Checking out as a guest.{" "}
                  <Link to="/login" className="font-semibold text-brand-800 hover:underline">
                    Log in
                  </Link>{" "}
                  for the member discount.
                </p>
                <p className="text-sm text-slate-700" hidden={hydrated && payment === "card"}>
                  We'll email you a link to confirm your order. We hold the items for you for {holdMinutes} minutes.
                  {cardHoldMinutes !== null ? " (Not needed when you pay by card.)" : null}
                </p>
              </>
            )}
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-lg font-bold text-ink">Shipping address</legend>
            <div className="sm:col-span-2">
              <label htmlFor="checkout-country" className="block text-sm font-semibold text-ink">
                Country
              </label>
              <select
                id="checkout-country"
                name="country"
                autoComplete="country"
                value={country}
                onChange={(e) => setCountry(e.currentTarget.value as ShippingCountry)}
                className="field mt-1"
              >
                <Options options={countries.map((c) => ({ value: c.code, label: c.name }))} />
              </select>
              {countries.length === 1 ? (
                <p className="mt-1 text-xs text-slate-600">
                  Delivering to another country? Change market at the top of the page: your cart will be repriced.
                </p>
              ) : null}
              {errors.country ? (
                <p className="mt-1 text-sm font-semibold text-red-700" role="alert">
                  {errors.country}
                </p>
              ) : null}
            </div>
            <div className="sm:col-span-2">
              <Field name="name" label="Full name" autoComplete="name" {...typed} defaultValue={member?.name} />
            </div>
            <div className="sm:col-span-2">
              <Field name="line1" label="Address line 1" autoComplete="address-line1" {...typed} />
            </div>
            <div className="sm:col-span-2">
              <Field name="line2" label="Address line 2" autoComplete="address-line2" required={false} {...typed} />
            </div>
            <Field name="city" label="Town or city" autoComplete="address-level2" {...typed} />
            <Field
              name="region"
              label={country === "US" ? "State" : "County"}
              autoComplete="address-level1"
              required={false}
              {...typed}
            />
            <Field
              name="postcode"
              label={country === "US" ? "ZIP code" : "Postcode"}
              autoComplete="postal-code"
              {...typed}
            />
          </fieldset>
          {trade ? (
            <fieldset className="space-y-3">
              <legend className="mb-2 text-lg font-bold text-ink">Trade account: {trade.companyName}</legend>
              <Field name="poNumber" label="PO number" autoComplete="off" {...typed} required={trade.poRequired} />
              {trade.limitCents != null ? (
                <p className="text-sm text-slate-700">
                  Your spending limit is {formatMoney(trade.limitCents)} per order. Above it, your order goes to your
                  company's approvers and is placed when one approves it.
                </p>
              ) : null}
            </fieldset>
          ) : null}
          <fieldset className="space-y-3">
            <legend className="mb-2 text-lg font-bold text-ink">Payment</legend>
            {errors.paymentMethod ? (
              <p id="checkout-paymentMethod-error" className="text-sm text-red-700">
                {errors.paymentMethod}
              </p>
            ) : null}
            {methods.map((m) => (
              <label key={m.id} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="paymentMethod"
                  value={m.id}
                  checked={payment === m.id}
                  onChange={() => setPayment(m.id)}
                  className="accent-ink"
                />
                {m.label}
              </label>
            ))}
            {cardHoldMinutes !== null ? (
              <p className="text-sm text-slate-700" hidden={hydrated && payment !== "card"}>
                By card, Apple Pay or Google Pay you pay on Stripe's secure payment page. We hold your items for{" "}
                {cardHoldMinutes} minutes while you pay; your order is placed once the payment is through.
              </p>
            ) : null}
            {trade?.credit ? (
              <p className="text-sm text-slate-700" hidden={hydrated && payment !== "invoice-net30"}>
                On account: invoiced to {trade.companyName} ({trade.taxId}), due 30 days after the invoice date. Credit
                available: {formatMoney(trade.credit.availableCents)} of {formatMoney(trade.credit.limitCents)}.
              </p>
            ) : null}
          </fieldset>
        </div>
        <aside aria-labelledby="order-summary-heading" className="h-fit rounded-xl border border-slate-200 p-6">
          <h2 id="order-summary-heading" className="text-lg font-bold text-ink">
            Order summary
          </h2>
          <ul className="my-4 space-y-2 text-sm">
            {cart.lines.map((line) => (
              <li key={`${line.productId}:${line.color}`} className="flex justify-between gap-3">
                <span>
                  {line.quantity} × {line.title}
                </span>
                <span>
                  <Money minor={line.lineTotalCents} />
                </span>
              </li>
            ))}
          </ul>
          <SummaryTable
            summary={
              salesTax
                ? { ...summaries.US!, taxCents: salesTax.taxCents, totalCents: salesTax.totalCents }
                : summaries[country]!
            }
            tax={
              salesTax ? { lines: salesTax.lines.map((l) => ({ ...l, included: false })), note: null } : taxes[country]
            }
            isMember={Boolean(member) && !quote}
          />
          {review?.prop65 ? (
            <div
              role="note"
              aria-labelledby="prop65-heading"
              className="mt-4 rounded-md border-2 border-ink p-3 text-sm"
            >
              <h3 id="prop65-heading" className="font-bold text-ink">
                California Proposition 65
              </h3>
              <p className="mt-1 font-semibold">{review.prop65.warning}</p>
              <p className="mt-1">For: {review.prop65.products.join(", ")}.</p>
            </div>
          ) : null}
          <p className="mt-2 text-xs text-slate-600">
            {[
              summaries.US ? "Free shipping on every US order." : null,
              summaries.GB ? `UK orders ship at a flat ${formatMoney(summaries.GB.shippingCents, currency)}.` : null,
            ]
              .filter(Boolean)
              .join(" ")}
          </p>
          <button type="submit" className="btn-primary mt-6 w-full" disabled={submitting}>
            {hydrated && payment === "card" ? "Continue to payment" : "Place order"}
          </button>
        </aside>
      </Form>
    </InCurrency>
  );
}
