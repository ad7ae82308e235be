import type { Page } from "@playwright/test";

/** Letters only, so the search sees one new word. */
export function uniqueWord(prefix: string): string {
  const letters = Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
  return `${prefix}${letters}`;
}

export function uniqueSku(): string {
  return `E2E-${Date.now().toString(36).toUpperCase()}-${Math.floor(Math.random() * 1e6)}`;
}

export interface NewProduct {
  title: string;
  sku: string;
  price: string;
  stock: string;
}

/** Fills the product form (new or edit) by its labels. */
export async function fillProductForm(page: Page, p: NewProduct, withStock = true): Promise<void> {
  await page.getByLabel("Title").fill(p.title);
  await page.getByLabel("SKU").fill(p.sku);
  await page.getByLabel("Model").fill("E2E-M1");
  await page.getByLabel("Brand").selectOption({ index: 1 });
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel("Colours").fill("Yellow, Black");
  await page.getByLabel("Price (USD)").fill(p.price);
  if (withStock) await page.getByLabel("Stock", { exact: true }).fill(p.stock);
  await page.getByLabel("Description", { exact: true }).fill(`${p.title} for end-to-end tests.`);
  await page.getByLabel("Features").fill("Tough\nLight");
  await page.getByLabel("Material").fill("Steel");
  await page.getByLabel("Weight (grams)").fill("1200");
  await page.getByLabel("Country of origin").fill("Germany");
  await page.getByLabel("Manufacturer").fill("E2E Works");
  await page.getByLabel("Return policy").fill("14 days return policy.");
}

/** The product's id from its edit page's URL. */
export function idFromUrl(page: Page): number {
  const m = /\/admin\/products\/(\d+)/.exec(page.url());
  if (!m) throw new Error(`not on a product page: ${page.url()}`);
  return Number(m[1]);
}
