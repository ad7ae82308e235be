import type { PaymentMethodId } from "../../app/lib/order-rules.ts";
import type { PaymentStatus } from "./states.ts";

interface PaymentRequest {
  orderNumber: string;
  totalCents: number;
  email: string;
  /** A net-30 order's company and its VAT number or EIN. */
  businessName: string | null;
  taxNumber: string | null;
}

interface PaymentOutcome {
  /** Stored on the order, e.g. "due_on_delivery", "invoiced_net30", or a gateway's "authorized". */
  paymentStatus: PaymentStatus;
}

/**
 * A way to pay. Methods run inside the order's transaction; a card gateway would authorize here
 * (and be idempotent on orderNumber) and throw a DomainError to refuse the order.
 */
export interface PaymentMethod {
  id: PaymentMethodId;
  label: string;
  /** Paid online before the order is placed: the order waits in `awaiting_payment`, holding its stock. */
  collectsOnline: boolean;
  authorize(request: PaymentRequest): Promise<PaymentOutcome>;
}

const payOnDelivery: PaymentMethod = {
  id: "pay-on-delivery",
  label: "Pay on delivery",
  collectsOnline: false,
  authorize: () => Promise.resolve({ paymentStatus: "due_on_delivery" }),
};

const invoiceNet30: PaymentMethod = {
  id: "invoice-net30",
  label: "Invoice (business accounts, net 30)",
  collectsOnline: false,
  authorize: () => Promise.resolve({ paymentStatus: "invoiced_net30" }),
};

/** Stripe Checkout (server/payments/): the money is taken on Stripe's page after the order is created. */
const card: PaymentMethod = {
  id: "card",
  label: "Card, Apple Pay or Google Pay",
  collectsOnline: true,
  authorize: () => Promise.resolve({ paymentStatus: "pending" }),
};

const methods = new Map<PaymentMethodId, PaymentMethod>([card, payOnDelivery, invoiceNet30].map((m) => [m.id, m]));

export function paymentMethod(id: PaymentMethodId): PaymentMethod {
  const method = methods.get(id);
  if (!method) throw new Error(`Unknown payment method ${id}`);
  return method;
}
