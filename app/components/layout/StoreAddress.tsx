import { STORE_ADDRESS, STORE_EMAIL_MASKED, STORE_PHONE } from "../../lib/site.ts";

/** The store's placeholder address, masked email and phone, as the footer and Contact page show them. */
export function StoreAddress({ className }: { className: string }) {
  return (
    <address className={`not-italic ${className}`}>
      {STORE_ADDRESS.street}
      <br />
      {STORE_ADDRESS.city} {STORE_ADDRESS.postcode}
      <br />
      {STORE_ADDRESS.country}
      <br />
      Email: {STORE_EMAIL_MASKED}
      <br />
      Phone: {STORE_PHONE}
    </address>
  );
}
