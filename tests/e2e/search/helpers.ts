import type { Page } from "@playwright/test";
import { queryAll, queryOne } from "../support/db.ts";
import { expect } from "../support/fixtures.ts";

export const cards = (page: Page) => page.getByRole("main").getByRole("article");
export const cardTitles = (page: Page) => cards(page).getByRole("heading").getByRole("link");
export const filters = (page: Page) => page.getByRole("form", { name: "Filters" });
export const group = (page: Page, legend: "Categories" | "Brands" | "Price") =>
  filters(page).getByRole("group", { name: legend });
export const countText = (page: Page) => page.locator("#results-heading");
export const searchBox = (page: Page) => page.getByRole("banner").getByRole("combobox", { name: "Search products" });
export const sortSelect = (page: Page) => page.getByRole("combobox", { name: "Sort by" });

/** Products matching an FTS5 expression in the e2e server's SQLite database (the search's own index). */
export function matchCount(match: string, where = "1 = 1", ...params: (string | number)[]): number {
  return queryOne<{ n: number }>(
    `SELECT count(*) AS n FROM products_fts f JOIN products p ON p.id = f.rowid
     JOIN categories c ON c.id = p.category_id JOIN brands b ON b.id = p.brand_id
     WHERE products_fts MATCH ? AND ${where}`,
    match,
    ...params,
  ).n;
}

export function count(where = "1 = 1", ...params: (string | number)[]): number {
  return queryOne<{ n: number }>(
    `SELECT count(*) AS n FROM products p JOIN categories c ON c.id = p.category_id JOIN brands b ON b.id = p.brand_id WHERE ${where}`,
    ...params,
  ).n;
}

export interface CardProduct {
  id: number;
  title: string;
  sale_price_cents: number;
  discount_percent: number | null;
  stock_quantity: number;
  category: string;
  brand: string;
  created_at: string;
}

/** The products of the result cards on the page, in order, read from the database by id. */
export async function productsOnPage(page: Page): Promise<CardProduct[]> {
  const hrefs = await cardTitles(page).evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.map((href) =>
    queryOne<CardProduct>(
      `SELECT p.id, p.title, p.sale_price_cents, p.discount_percent, p.stock_quantity, c.slug AS category, b.slug AS brand, p.created_at
       FROM products p JOIN categories c ON c.id = p.category_id JOIN brands b ON b.id = p.brand_id WHERE p.id = ?`,
      Number(href.split("/").pop()),
    ),
  );
}

export const categoryNames = () =>
  queryAll<{ name: string; slug: string }>("SELECT name, slug FROM categories ORDER BY position");
export const brandNames = () =>
  queryAll<{ name: string; slug: string }>("SELECT name, slug FROM brands ORDER BY position");

/** Asserts the result count line for `total` results (first page). */
export async function expectTotal(page: Page, total: number) {
  if (total === 0) await expect(countText(page)).toHaveText("No products found");
  else
    await expect(countText(page)).toHaveText(
      `Showing 1–${Math.min(15, total)} of ${total.toLocaleString("en-US")} product${total === 1 ? "" : "s"}`,
    );
}

/** The search params of the page's URL as sorted [key, value] pairs. */
export function paramsOf(page: Page): [string, string][] {
  return [...new URL(page.url()).searchParams.entries()].sort();
}
