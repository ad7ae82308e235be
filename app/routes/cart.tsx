import type { Route } from "./+types/cart";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { seo } from "../lib/seo.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Cart", description: "Your shopping cart.", path: "/cart", matches, noindex: true });
}

export default function Cart() {
  return (
    <>
      <PageHeader title="Cart" />
      <div className="mx-auto max-w-7xl px-4 py-10">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Items in your cart</caption>
          <thead className="border-b border-slate-300 text-ink">
            <tr>
              {["Product", "Product Name", "Unit Price", "Quantity", "Total", "Remove"].map((h) => (
                <th key={h} scope="col" className="py-3 pr-4 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <td colSpan={6} className="py-10 text-center text-slate-700">
                Your cart is empty.
              </td>
            </tr>
          </tbody>
        </table>
        <div className="mt-6 flex flex-col items-end gap-2">
          <p>
            Total Quantity: <strong>0</strong>
          </p>
          <p>
            Total price: <strong>$0.00</strong>
          </p>
          <button type="button" className="btn-primary" disabled>
            Checkout
          </button>
        </div>
      </div>
    </>
  );
}
