/** A complete, valid US pay-on-delivery checkout form, as the checkout page posts it. */
export const validCheckoutForm = {
  email: "buyer@example.com",
  name: "Ada Buyer",
  line1: "1 Main Street",
  line2: "",
  city: "New York",
  region: "NY",
  postcode: "10001",
  country: "US",
  paymentMethod: "pay-on-delivery",
  checkoutToken: "abcdefghijklmnopqrstuvwx",
} as const;
