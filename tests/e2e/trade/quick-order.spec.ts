import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { ownedProduct } from "./support.ts";

/**
 * This file owns products 500–519 and sets them to a known state first (see shopping/support.ts),
 * so no other spec's stock or price change can move them while these tests run.
 */
function stockedSkus(count: number, firstId: number): { sku: string; title: string }[] {
  return Array.from({ length: count }, (_, i) => ownedProduct(firstId + i, 500));
}
function scarceProduct() {
  return ownedProduct(519, 12);
}

test("a pasted CSV is checked at once, line by line; the good lines go to the cart in one action", async ({ page }) => {
  const [a, b, c] = stockedSkus(3, 500);
  const scarce = scarceProduct();
  await page.goto("/quick-order");
  await expect(page.getByRole("heading", { level: 1, name: "Quick order" })).toBeVisible();
  await expectNoAxeViolations(page);
  await waitForHydration(page);

  const csv = [
    "sku,quantity",
    `${a.sku},2`,
    "TH-9999999,1",
    `${b.sku},0`,
    `${a.sku},1`,
    `${scarce.sku},99`,
    `${c.sku},3`,
  ].join("\n");
  await page.getByLabel("CSV lines (sku,quantity)").fill(csv);
  // Typing or pasting checks the lines without a click.
  const results = page.getByRole("table", { name: "Each line of the quick order and its result" });
  await expect(results.getByRole("row", { name: /^Line 3/ })).toContainText("Unknown SKU TH-9999999.");
  await expect(results.getByRole("row", { name: /^Line 4/ })).toContainText(
    '"0" is not a quantity: give a whole number of at least 1.',
  );
  await expect(results.getByRole("row", { name: /^Line 5/ })).toContainText("Merged into line 2.");
  await expect(results.getByRole("row", { name: /^Line 6/ })).toContainText(
    new RegExp(`Only \\d+ of ${scarce.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} in stock\\.`),
  );
  await expect(results.getByRole("row", { name: /^Line 2/ })).toContainText("Ready");
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "2 lines ready, 3 lines with a problem, 1 duplicate line merged.",
  );
  await expectNoAxeViolations(page);

  // Don't take the scarce product's offer this time.
  await results.getByRole("checkbox", { name: /^Add the \d+ available instead$/ }).uncheck();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    "2 lines (6 units) added to your cart. 3 lines not added: see why below.",
  );
  // What was left over stays in the box to fix.
  await expect(page.getByLabel("CSV lines (sku,quantity)")).toHaveValue(
    ["TH-9999999,1", `${b.sku},0`, `${scarce.sku},99`].join("\n"),
  );
  await page.getByRole("link", { name: "View your cart" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  // Checked on the whole page first, so that a failure prints what the cart did show.
  await expect(page.getByRole("main")).toContainText(a.title, { timeout: 15_000 });
  await expect(page.getByRole("row").filter({ hasText: a.title }).getByTestId("line-quantity")).toHaveText("3");
  await expect(page.getByRole("row").filter({ hasText: c.title }).getByTestId("line-quantity")).toHaveText("3");
});

test("rows are typed with the keyboard alone: SKU suggestions, Enter to the next field and the next row", async ({
  page,
}) => {
  const [a, b] = stockedSkus(2, 503);
  const suggestionLoads: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/quick-order/skus")) suggestionLoads.push(request.url());
  });
  await page.goto("/quick-order");
  await waitForHydration(page);
  const firstSku = page.getByLabel("SKU, row 1", { exact: true });
  await firstSku.focus();
  await page.keyboard.type(a.sku.slice(0, 8));
  await expect(page.locator("#quick-order-skus option").first()).toHaveAttribute("value", /^TH-/);
  await page.keyboard.type(a.sku.slice(8));
  // Enter once the suggestions have caught up with the whole SKU: while Chromium redraws a
  // datalist's popup, its Enter goes to the popup, not to the field (a CI flake when a
  // revalidation redrew the list just then).
  const suggestionsFor = async (sku: string) => {
    await expect(page.locator("#quick-order-skus option").first()).toHaveAttribute("value", sku);
    await expect(page.locator("#quick-order-skus option")).toHaveCount(1);
  };
  await suggestionsFor(a.sku);
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Quantity, row 1", { exact: true })).toBeFocused();
  await page.keyboard.type("4");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("SKU, row 2", { exact: true })).toBeFocused();
  await page.keyboard.type(b.sku);
  await suggestionsFor(b.sku);
  const loadsWhileTyping = suggestionLoads.length;
  const check = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.replace(/\.data$/, "") === "/quick-order",
  );
  await page.keyboard.press("Enter");
  await page.keyboard.type("1");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("SKU, row 3", { exact: true })).toBeFocused();
  const results = page.getByRole("table", { name: "Each line of the quick order and its result" });
  await expect(results.getByRole("row", { name: /^Row 1/ })).toContainText("Ready");
  await expect(results.getByRole("row", { name: /^Row 2/ })).toContainText("Ready");
  // The checks set off by leaving a field do not load the suggestions again: a reload would
  // redraw the datalist under the cursor, and Chromium's popup would take the next Enter.
  await check;
  await expect(page.locator("form[aria-busy]")).toHaveAttribute("aria-busy", "false");
  expect(suggestionLoads.slice(loadsWhileTyping)).toEqual([]);
  // Enter on the last row adds one.
  await page.getByLabel("SKU, row 10", { exact: true }).focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("SKU, row 11", { exact: true })).toBeFocused();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "2 lines (5 units) added to your cart. View your cart",
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an uploaded CSV file goes to the cart with a plain form post", async ({ page }) => {
    const [a, b] = stockedSkus(2, 505);
    await page.goto("/quick-order");
    await page.getByLabel("Upload a CSV file").setInputFiles({
      name: "restock.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`sku,quantity\r\n${a.sku},2\r\n${b.sku},5\r\nnope,1\r\n`),
    });
    await page.getByRole("button", { name: "Check lines" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText("2 lines ready, 1 line with a problem.");
    await expect(page.getByRole("row", { name: /^Line 4/ })).toContainText("Unknown SKU nope.");
    // The file's lines are now in the box; adding needs no second upload.
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("main").getByRole("status")).toContainText("2 lines (7 units) added to your cart.");
    await page.goto("/cart");
    await expect(page.getByRole("row").filter({ hasText: b.title }).getByTestId("line-quantity")).toHaveText("5");
  });
});

test("refuses more than 500 lines and a form from another site, saying why", async ({ page, baseURL }) => {
  const [a] = stockedSkus(1, 507);
  const many = Array.from({ length: 501 }, () => `${a.sku},1`).join("\n");
  const tooMany = await page.request.post("/quick-order", {
    multipart: { intent: "check", csv: many },
    headers: { origin: baseURL! },
  });
  expect(tooMany.status()).toBe(400);
  expect(await tooMany.text()).toContain("A quick order takes at most 500 lines; this one has 501.");
  const forged = await page.request.post("/quick-order", {
    multipart: { intent: "add", csv: `${a.sku},1` },
    headers: { origin: "https://evil.example" },
  });
  expect([400, 403]).toContain(forged.status());
  const suggestions = await page.request.get("/quick-order/skus?q=%25%27");
  expect(await suggestions.json()).toEqual([]);
});
