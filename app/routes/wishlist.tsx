import type { Route } from "./+types/wishlist";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { seo } from "../lib/seo.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Wishlist", description: "Tools you saved for later.", path: "/wishlist", matches, noindex: true });
}

export default function Wishlist() {
  return (
    <>
      <PageHeader title="Wishlist" />
      <div className="mx-auto max-w-7xl overflow-x-auto px-4 py-10">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Your wishlist</caption>
          <thead className="border-b border-slate-300 text-ink">
            <tr>
              {["N/A", "Title Name", "Product Image", "Color", "Stock Limit", "Unit Price", "Total Price", "Action"].map((h) => (
                <th key={h} scope="col" className="py-3 pr-4 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <td colSpan={8} className="py-10 text-center text-slate-700">
                Your wishlist is empty.
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </>
  );
}
