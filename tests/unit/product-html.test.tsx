// @vitest-environment jsdom
import { act, cleanup } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { productDetailsHtml, productSummaryHtml } from "../../app/components/catalog/product-html.ts";
import { ProductPage, type ProductData } from "../../app/components/catalog/ProductPage.tsx";
import { AlertProvider } from "../../app/components/ui/Alert.tsx";
import type { ProductDetail } from "../../app/lib/catalog-types.ts";
import { inDocument } from "../support/in-document.ts";

const detail = (over: Partial<ProductDetail> = {}): ProductDetail => ({
  id: 12,
  slug: "cordless-drill-12",
  title: "Cordless Drill 18V",
  priceCents: 6_199,
  discountPercent: 20,
  salePriceCents: 4_959,
  stockQuantity: 7,
  brandName: "Forgeline",
  imageUrl: "/images/products/12/1.svg",
  description: "Drives screws all day.",
  features: ["Two speeds", "LED light"],
  categoryName: "Power Tools",
  sku: "TH-12",
  images: ["/images/products/12/1.svg", "/images/products/12/2.svg"],
  colors: ["Red", "Blue"],
  brandSlug: "forgeline",
  categorySlug: "power-tools",
  categoryId: 1,
  model: "FL-18",
  material: "Steel & ABS",
  weightGrams: 1450,
  countryOfOrigin: "Taiwan",
  manufacturer: "Forgeline Ltd",
  returnPolicy: "Return within 30 days.",
  ...over,
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("a product page's text as HTML (app/components/catalog/product-html.ts)", () => {
  it("escapes every value it is given: no title, description, feature or specification can add markup", () => {
    const hostile = '<img src=x onerror="alert(1)"> & "quotes" \'too\'';
    const product = detail({ title: hostile, categoryName: hostile, description: `<script>bad()</script>${hostile}`, features: [hostile], model: hostile, material: hostile, countryOfOrigin: hostile, manufacturer: hostile, brandName: hostile, returnPolicy: hostile });
    const page = inDocument(productSummaryHtml(product) + productDetailsHtml(product));
    expect(page.querySelectorAll("img:not([src='/images/five-stars.svg']), script")).toHaveLength(0);
    expect(page.querySelector("h1")?.textContent).toBe(hostile);
    expect(page.querySelector("li")?.textContent).toBe(hostile);
    expect([...page.querySelectorAll("td")].map((td) => td.textContent)).toEqual([hostile, hostile, hostile, "1450", hostile, hostile]);
    expect(page.textContent).toContain(`<script>bad()</script>${hostile}`);
  });

  it("shows the category, title, stars, sale and original price, discount and stock", () => {
    const page = inDocument(productSummaryHtml(detail()));
    expect(page.querySelector("p")?.textContent).toBe("Power Tools");
    expect(page.querySelector("h1")?.textContent).toBe("Cordless Drill 18V");
    expect(page.querySelector("img")?.getAttribute("alt")).toBe("Rated 5 out of 5");
    expect(page.textContent).toContain("Sale price $49.59");
    expect(page.querySelector("s")?.textContent).toBe("Original price $61.99");
    expect(page.textContent).toContain("-20%");
    expect(page.textContent).toContain("Tax included");
    const stock = page.querySelector('[data-testid="stock"]')!;
    expect([stock.textContent, stock.className]).toEqual(["In Stock (7)", "mt-3 font-semibold text-green-800"]);
    const out = inDocument(productSummaryHtml(detail({ stockQuantity: 0, discountPercent: null, salePriceCents: 6_199 })));
    const outStock = out.querySelector('[data-testid="stock"]')!;
    expect([outStock.textContent, outStock.className]).toEqual(["Stock out", "mt-3 font-semibold text-red-700"]);
    expect(out.querySelector("s")).toBeNull();
    expect(out.textContent).not.toContain("%");
  });

  it("lists the features only when there are some, and every specification in its row", () => {
    const page = inDocument(productDetailsHtml(detail()));
    expect(page.querySelector("h2")?.textContent).toBe("Description");
    expect([...page.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["Two speeds", "LED light"]);
    expect(page.querySelector("caption")?.textContent).toBe("Specifications");
    expect([...page.querySelectorAll("tr")].map((tr) => [tr.querySelector("th")?.getAttribute("scope"), tr.textContent])).toEqual([
      ["row", "BrandForgeline"],
      ["row", "ModelFL-18"],
      ["row", "MaterialSteel & ABS"],
      ["row", "Weight (gm)1450"],
      ["row", "Country of originTaiwan"],
      ["row", "ManufacturerForgeline Ltd"],
    ]);
    expect(page.textContent).toContain("Return policy: Return within 30 days.");
    expect(inDocument(productDetailsHtml(detail({ features: [] }))).querySelector("ul")).toBeNull();
  });

  it("hydrates as the server wrote it: the same page in the browser, with no mismatch", async () => {
    const data: ProductData = { product: detail(), volumeBreaks: [{ minQuantity: 10, percentOff: 5 }], trade: null };
    const Stub = createRoutesStub([{ path: "*", Component: () => <AlertProvider><ProductPage loaderData={data} /></AlertProvider> }]);
    const html = renderToString(<Stub initialEntries={["/shop/12"]} />);
    const frame = inDocument(html);
    vi.stubGlobal("matchMedia", () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(frame, <Stub initialEntries={["/shop/12"]} />, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    expect(frame.querySelector("h1")?.textContent).toBe("Cordless Drill 18V");
    expect(frame.querySelector('[data-testid="volume-breaks"]')).not.toBeNull();
    expect(frame.querySelector('img[alt="Cordless Drill 18V, view 1"]')).not.toBeNull();
  });
});
