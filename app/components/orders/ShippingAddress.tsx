import type { OrderTable } from "../../../server/db/schema.ts";
import { countryName } from "../../lib/order-labels.ts";

export type AddressFields = Pick<
  OrderTable,
  "ship_name" | "ship_line1" | "ship_line2" | "ship_city" | "ship_region" | "ship_postcode" | "ship_country"
>;

/** An order's delivery address, one line each; staff also see the business name under the person's. */
export function ShippingAddress({
  order,
  businessName,
  className = "not-italic",
}: {
  order: AddressFields;
  businessName?: string | null;
  className?: string;
}) {
  return (
    <address className={className}>
      {order.ship_name}
      {businessName ? (
        <>
          <br />
          {businessName}
        </>
      ) : null}
      <br />
      {order.ship_line1}
      {order.ship_line2 ? (
        <>
          <br />
          {order.ship_line2}
        </>
      ) : null}
      <br />
      {order.ship_city}
      {order.ship_region ? `, ${order.ship_region}` : ""} {order.ship_postcode}
      <br />
      {countryName(order.ship_country)}
    </address>
  );
}
