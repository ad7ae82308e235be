import { useMemo } from "react";
import { buyerUnitCents } from "../../lib/pricing.ts";
import { priceListFromJson, useVisitor } from "../../lib/visitor.ts";
import { ProductCard, type CardProduct } from "./ProductCard.tsx";

/** A grid of product cards; a signed-in trade buyer sees their own price on each (from their price list, read in the browser). */
export function ProductGrid({ products, eagerCount = 0 }: { products: readonly CardProduct[]; eagerCount?: number }) {
  const { priceList } = useVisitor();
  const rules = useMemo(() => priceListFromJson(priceList), [priceList]);
  return (
    <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-5">
      {products.map((product, i) => (
        <li key={product.id} className="flex">
          <ProductCard product={product} eager={i < eagerCount} yourPriceCents={buyerUnitCents(rules, product)} />
        </li>
      ))}
    </ul>
  );
}
