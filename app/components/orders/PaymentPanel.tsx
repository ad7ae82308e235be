import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useNavigation, useRevalidator } from "react-router";
import { formatMoney, type Currency } from "../../lib/money.ts";
import { Money } from "../ui/Money.tsx";
import type { PaymentReturn, PaymentView } from "../../../server/payments/order-page.ts";

/** While a payment is being confirmed, the page asks again every few seconds (for two minutes). */
function useRefreshWhile(active: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    let n = 0;
    const timer = setInterval(() => {
      if (++n > 60) clearInterval(timer);
      else if (revalidator.state === "idle") void revalidator.revalidate();
    }, 2_000);
    return () => clearInterval(timer);
  }, [active, revalidator]);
}

/**
 * The header's cart count is read alongside the order, so on the visit that confirms a payment it
 * may still count the items the payment just bought; one fresh read after loading corrects it.
 */
function useRefreshOnceWhen(active: boolean) {
  const revalidator = useRevalidator();
  const done = useRef(false);
  useEffect(() => {
    if (!active || done.current) return;
    done.current = true;
    void revalidator.revalidate();
  }, [active, revalidator]);
}

function PayButton({ label }: { label: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  return (
    <Form method="post" className="mt-3">
      <input type="hidden" name="intent" value="pay" />
      <button type="submit" className="btn-primary" disabled={busy}>
        {label}
      </button>
    </Form>
  );
}

const BOX = "mb-6 rounded-lg p-4";

/** What a card order's page says about its payment, with "Pay now" or "Try again" when they apply. */
export function PaymentPanel({
  number,
  email,
  payment,
  returned,
}: {
  number: string;
  email: string;
  payment: PaymentView;
  returned: PaymentReturn | null;
}) {
  const location = useLocation();
  const confirming = payment.state === "processing" || (payment.state === "awaiting" && returned === "return");
  useRefreshWhile(confirming);
  useRefreshOnceWhen(payment.state === "paid" && returned === "return");
  const minutes = `${payment.minutesLeft ?? 0} minute${payment.minutesLeft === 1 ? "" : "s"}`;

  if (confirming) {
    return (
      <div role="status" className={`${BOX} bg-blue-50 text-blue-950`}>
        <p>
          <strong>Payment processing.</strong> We're waiting for Stripe to confirm your payment for order {number}; your
          items are held meanwhile. This page updates by itself, and we'll email {email} as soon as the order is placed.
        </p>
        <p className="mt-2">
          <Link to={`${location.pathname}?payment=return`} reloadDocument className="font-semibold underline">
            Check again
          </Link>
        </p>
      </div>
    );
  }
  if (payment.state === "awaiting") {
    return (
      <div role="status" className={`${BOX} bg-amber-50 text-amber-950`}>
        {returned === "unavailable" ? (
          <p className="mb-2 font-semibold">
            We couldn't open the payment page just now. Your order and its items are held for you; please try again.
          </p>
        ) : null}
        <p>
          <strong>Awaiting payment.</strong> Your items are held for {minutes} while you pay. The order is placed once
          the payment is through.
        </p>
        <PayButton label="Pay now" />
      </div>
    );
  }
  if (payment.state === "failed" || payment.state === "expired") {
    const why =
      payment.state === "failed"
        ? "Your payment didn't go through"
        : returned === "cancelled"
          ? "You cancelled the payment"
          : "The time to pay ran out";
    return (
      <div role="status" className={`${BOX} bg-amber-50 text-amber-950`}>
        <p>
          <strong>{why}, so this order was not placed.</strong> Its items went back on sale and nothing was charged. You
          can try again: we'll hold the same items for you again if they're still in stock.
        </p>
        <PayButton label="Try again" />
      </div>
    );
  }
  if (payment.state === "checking") {
    return (
      <div role="status" className={`${BOX} bg-amber-50 text-amber-950`}>
        <p>
          <strong>We're checking your payment.</strong> Something about it needs a person to look at it; we'll email{" "}
          {email} once it's sorted out. You won't be charged twice.
        </p>
      </div>
    );
  }
  if (payment.state === "paid" && returned === "return") {
    return (
      <p role="status" className={`${BOX} bg-green-50 text-green-900`}>
        Thank you! We received your payment of <Money minor={payment.paidCents ?? 0} />, and order{" "}
        <strong>{number}</strong> is placed. A confirmation email is on its way to {email}.
      </p>
    );
  }
  return null;
}

/** "Paid", "Refunded $12.00 of $80.00" … for the order's payment line, in the order's currency. */
export function paymentStatusText(payment: PaymentView, currency: Currency): string {
  if (payment.state === "refunded") return `refunded (${formatMoney(payment.refundedCents, currency)})`;
  if (payment.state === "paid" && payment.refundedCents > 0)
    return `paid, ${formatMoney(payment.refundedCents, currency)} of ${formatMoney(payment.paidCents ?? 0, currency)} refunded`;
  const words: Record<PaymentView["state"], string> = {
    awaiting: "not paid yet",
    processing: "processing",
    paid: "paid",
    failed: "failed",
    expired: "not paid",
    refunded: "refunded",
    checking: "being checked",
  };
  return words[payment.state];
}
