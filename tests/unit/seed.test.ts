import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { discountedPriceCents } from "../../app/lib/pricing.ts";
import { renderBrandLogoSvg, renderProductImageSvg, colorHex } from "../../server/catalog/images.ts";
import * as catalogData from "../../server/db/seed/catalog-data.ts";
import { BRANDS, CATEGORIES, PRODUCT_TEMPLATES } from "../../server/db/seed/catalog-data.ts";
import { generateProduct } from "../../server/db/seed/generate.ts";

// Distinct, non-positional ids so a mix-up between categories and brands would show.
const refs = {
  categoryIds: CATEGORIES.map((_, i) => 101 + i),
  brandIds: BRANDS.map((_, i) => 501 + i),
};

function products(count: number) {
  return Array.from({ length: count }, (_, i) => generateProduct(i, refs));
}

function fingerprint(rows: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(rows)).digest("hex");
}

describe("catalog data", () => {
  it("has the spec's 15 categories in order and 15 distinct brands", () => {
    expect(CATEGORIES.map((c) => c.slug)).toEqual([
      "power-tools",
      "hand",
      "automotive",
      "gardening",
      "electrical",
      "safety",
      "construction",
      "measuring-layout",
      "plumbing",
      "welding",
      "woodworking",
      "painting-decorating",
      "fasteners-fixings",
      "storage-workwear",
      "cleaning",
    ]);
    expect(CATEGORIES[7].name).toBe("Measuring & Layout");
    expect(BRANDS).toHaveLength(15);
    expect(new Set(BRANDS.map((b) => b.name)).size).toBe(15);
    expect(new Set(BRANDS.map((b) => b.slug)).size).toBe(15);
    for (const b of BRANDS) expect(b.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("has at least 6 product kinds per category, with sane ranges", () => {
    for (const c of CATEGORIES) {
      const kinds = PRODUCT_TEMPLATES[c.slug];
      expect(kinds.length, c.slug).toBeGreaterThanOrEqual(6);
      for (const k of kinds) {
        expect(k.priceCents[0]).toBeGreaterThan(0);
        expect(k.priceCents[0]).toBeLessThanOrEqual(k.priceCents[1]);
        expect(k.weightGrams[0]).toBeLessThanOrEqual(k.weightGrams[1]);
        expect(k.features.length).toBeGreaterThanOrEqual(6);
        expect(k.descriptions.length).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it("contains no placeholder text", () => {
    expect(JSON.stringify(catalogData).toLowerCase()).not.toMatch(/lorem|ipsum|todo|tbd|placeholder/);
  });
});

describe("generateProduct", () => {
  it("is deterministic for the same index", () => {
    for (const i of [0, 1, 7, 599, 12_345, 99_999]) {
      expect(generateProduct(i, refs)).toEqual(generateProduct(i, refs));
    }
  });

  it("gives identical output from a fresh module instance", async () => {
    const first = products(300);
    vi.resetModules();
    const fresh = await import("../../server/db/seed/generate.ts");
    const again = Array.from({ length: 300 }, (_, i) => fresh.generateProduct(i, refs));
    expect(again).toEqual(first);
  });

  it("gives identical output in a separate Node process", () => {
    const expected = fingerprint(products(300));
    const script = `
      import { createHash } from "node:crypto";
      import { generateProduct } from ${JSON.stringify(resolve("server/db/seed/generate.ts"))};
      const refs = ${JSON.stringify(refs)};
      const rows = Array.from({ length: 300 }, (_, i) => generateProduct(i, refs));
      process.stdout.write(createHash("sha256").update(JSON.stringify(rows)).digest("hex"));
    `;
    const run = spawnSync(resolve("node_modules/.bin/node"), ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.stdout).toBe(expected);
  });

  it("discounts about a third of the first 600 products", () => {
    const discounted = products(600).filter((p) => p.discount_percent != null).length / 600;
    expect(discounted).toBeGreaterThanOrEqual(0.25);
    expect(discounted).toBeLessThanOrEqual(0.42);
  });

  it("uses all 15 categories and all 15 brands in the first 600", () => {
    const rows = products(600);
    expect(new Set(rows.map((p) => p.category_id))).toEqual(new Set(refs.categoryIds));
    expect(new Set(rows.map((p) => p.brand_id))).toEqual(new Set(refs.brandIds));
  });

  it("keeps sale_price_cents in step with discountedPriceCents", () => {
    for (const p of products(2000)) {
      expect(p.sale_price_cents).toBe(discountedPriceCents(p.price_cents, p.discount_percent));
      if (p.discount_percent == null) expect(p.sale_price_cents).toBe(p.price_cents);
      else expect([5, 10, 15, 20, 25, 30]).toContain(p.discount_percent);
    }
  });

  it("produces valid field values", () => {
    const rows = products(2000);
    let outOfStock = 0;
    let under120 = 0;
    for (const [i, p] of rows.entries()) {
      expect(Number.isInteger(p.price_cents) && p.price_cents > 0).toBe(true);
      if (p.price_cents < 12_000) under120++;
      const features = JSON.parse(p.features) as string[];
      expect(features.length).toBeGreaterThanOrEqual(3);
      expect(features.length).toBeLessThanOrEqual(6);
      const colors = JSON.parse(p.colors) as string[];
      expect(colors.length).toBeGreaterThanOrEqual(1);
      expect(colors.length).toBeLessThanOrEqual(3);
      expect(new Set(colors).size).toBe(colors.length);
      expect(p.stock_quantity).toBeGreaterThanOrEqual(0);
      expect(p.stock_quantity).toBeLessThanOrEqual(250);
      if (p.stock_quantity === 0) outOfStock++;
      expect(p.image_count).toBeGreaterThanOrEqual(1);
      expect(p.image_count).toBeLessThanOrEqual(4);
      expect(p.rating).toBe(5);
      expect(p.featured).toBe(i < 4 ? 1 : 0);
      expect(p.weight_grams).toBeGreaterThan(0);
      expect(p.return_policy).toMatch(/14 days/);
      expect(p.model).toMatch(/^[A-Z]{2}-[A-Z]+\d+-\d$/);
      expect(p.manufacturer).toMatch(/(Ltd|Inc\.)$/);
      expect(p.title.startsWith(BRANDS[refs.brandIds.indexOf(p.brand_id)].name)).toBe(true);
      expect(p.created_at).toBe(new Date(Date.UTC(2025, 0, 1) + i * 10_000).toISOString());
    }
    expect(outOfStock / rows.length).toBeGreaterThan(0.02);
    expect(outOfStock / rows.length).toBeLessThan(0.08);
    expect(under120).toBeGreaterThan(0);
    expect(under120).toBeLessThan(rows.length);
    expect(new Set(rows.map((p) => p.title)).size).toBeGreaterThan(1000);
  });

  it("builds slug and sku from the title and index", () => {
    const p = generateProduct(41, refs);
    expect(p.sku).toBe("TH-0000042");
    expect(p.slug.endsWith("-42")).toBe(true);
    expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("never contains lorem ipsum", () => {
    const text = JSON.stringify(products(3000)).toLowerCase();
    expect(text).not.toContain("lorem");
    expect(text).not.toContain("ipsum");
    expect(text).not.toContain("undefined");
    expect(text).not.toMatch(/\{\d\}|\{brand\}/);
  });

  it("has unique slugs and skus over 5,000 products", () => {
    const rows = products(5000);
    expect(new Set(rows.map((p) => p.slug)).size).toBe(5000);
    expect(new Set(rows.map((p) => p.sku)).size).toBe(5000);
  });
});

describe("images", () => {
  const base = {
    id: 42,
    title: "Forgecrest 18V Brushless Cordless Drill Driver",
    categorySlug: "power-tools",
    color: "Yellow",
  };

  it("renders a sized SVG with an escaped title", () => {
    const svg = renderProductImageSvg({
      ...base,
      title: `Bolt <M8> & "Nut" Set`,
      categorySlug: "fasteners-fixings",
      index: 1,
    });
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain('width="600"');
    expect(svg).toContain('height="600"');
    expect(svg).toContain('viewBox="0 0 600 600"');
    expect(svg).toContain("<title>Bolt &lt;M8&gt; &amp; &quot;Nut&quot; Set</title>");
    expect(svg).not.toContain("<M8>");
    expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(renderProductImageSvg({ ...base, title: "Bob's Saw", index: 1 })).toContain("<title>Bob&#39;s Saw</title>");
  });

  it("is deterministic, small, and varies by view index", () => {
    const views = [1, 2, 3, 4].map((index) => renderProductImageSvg({ ...base, index }));
    expect(new Set(views).size).toBe(4);
    for (const [i, svg] of views.entries()) {
      expect(renderProductImageSvg({ ...base, index: i + 1 })).toBe(svg);
      expect(Buffer.byteLength(svg)).toBeLessThan(3 * 1024);
      expect(svg).toContain(colorHex("Yellow"));
    }
  });

  it("stays under 3 KB for every seeded product and view", () => {
    for (let i = 0; i < 1500; i++) {
      const p = generateProduct(i, refs);
      const categorySlug = CATEGORIES[refs.categoryIds.indexOf(p.category_id)].slug;
      const color = (JSON.parse(p.colors) as string[])[0];
      for (let index = 1; index <= p.image_count; index++) {
        const svg = renderProductImageSvg({ id: i + 1, title: p.title, categorySlug, color, index });
        expect(Buffer.byteLength(svg)).toBeLessThan(3 * 1024);
      }
    }
  });

  it("renders brand wordmarks at 160x60 with escaped names", () => {
    const svg = renderBrandLogoSvg("Halvorsen & Dale");
    expect(svg).toContain('width="160"');
    expect(svg).toContain('height="60"');
    expect(svg).toContain("Halvorsen");
    expect(svg).toContain("&amp;");
    expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(renderProductImageSvg({ ...base, title: "Bob's Saw", index: 1 })).toContain("<title>Bob&#39;s Saw</title>");
    expect(renderBrandLogoSvg("Halvorsen & Dale")).toBe(svg);
    expect(renderBrandLogoSvg("<script>")).not.toContain("<script>");
  });

  it("maps color names to hex", () => {
    expect(colorHex("Yellow")).toMatch(/^#[0-9a-f]{6}$/);
    expect(colorHex("yellow")).toBe(colorHex("Yellow"));
    expect(colorHex("Mystery Teal-ish")).toMatch(/^#[0-9a-f]{6}$/);
    expect(colorHex("Mystery Teal-ish")).toBe(colorHex("Mystery Teal-ish"));
  });
});
