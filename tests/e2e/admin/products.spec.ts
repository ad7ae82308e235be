import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import sharp from "sharp";
import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { waitForHydration } from "../support/site.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { fillProductForm, idFromUrl, uniqueSku, uniqueWord } from "./products-support.ts";

/** A visitor without cookies: the page cache may serve this one. */
async function visitor(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL });
}

async function createProduct(page: import("@playwright/test").Page, title: string, price = "249.00", stock = "9") {
  await page.goto("/admin/products/new");
  await waitForHydration(page);
  await fillProductForm(page, { title, sku: uniqueSku(), price, stock });
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Product created" })).toBeVisible();
  return idFromUrl(page);
}

test("staff create a product that is live at once on its page and in search; the new-product and edit pages pass axe", async ({
  page,
  baseURL,
}) => {
  await useSharedStaffSession(page.context(), baseURL!);
  await page.goto("/admin/products/new");
  await expect(page.getByRole("heading", { level: 1, name: "New product" })).toBeVisible();
  await expectNoAxeViolations(page);
  const word = uniqueWord("Wombat");
  const id = await createProduct(page, `${word} Impact Driver`, "249.00", "9");
  await expectNoAxeViolations(page);

  const anon = await visitor(baseURL!);
  const product = await anon.get(`/shop/${id}`);
  expect(product.status()).toBe(200);
  const html = await product.text();
  expect(html).toContain(`${word} Impact Driver`);
  expect(html).toContain("$249.00");
  expect(html).toContain("In Stock (9)");
  expect(await (await anon.get(`/shop?q=${word.toLowerCase()}`)).text()).toContain(`/shop/${id}`);
  const suggest = await (await anon.get(`/search/suggest?q=${word.toLowerCase().slice(0, 8)}`)).text();
  expect(suggest).toContain(`/shop/${id}`);
  expect(await (await anon.get("/sitemap.xml")).text()).toContain(`/shop/${id}<`);
  await anon.dispose();
});

test("a price edit shows on the cached product page at once; a stock adjustment goes through the ledger", async ({
  page,
  baseURL,
}) => {
  await useSharedStaffSession(page.context(), baseURL!);
  const id = await createProduct(page, `${uniqueWord("Numbat")} Grinder`, "100.00", "4");
  const anon = await visitor(baseURL!);
  // Asked twice, so the anonymous page cache holds it.
  for (let i = 0; i < 2; i++) expect(await (await anon.get(`/shop/${id}`)).text()).toContain("$100.00");

  await page.getByLabel("Price (USD)").fill("87.50");
  await page.getByLabel("Discount (%)").fill("10");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  const after = await (await anon.get(`/shop/${id}`)).text();
  expect(after).toContain("$78.75");

  await page.getByLabel("Reason").selectOption("received");
  await page.getByLabel("Change (+/−)").fill("6");
  await page.getByLabel("Note", { exact: true }).fill("PO 77");
  await page.getByRole("button", { name: "Adjust stock" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stock adjusted" })).toBeVisible();
  await expect(page.getByTestId("current-stock")).toHaveText("10");
  const ledger = page.getByRole("table", { name: "Recent stock movements" });
  await expect(ledger.getByRole("row").nth(1)).toContainText("Received");
  await expect(ledger.getByRole("row").nth(1)).toContainText("PO 77");
  await expect(ledger.getByRole("row").nth(1)).toContainText("(staff)");
  expect(await (await anon.get(`/shop/${id}`)).text()).toContain("In Stock (10)");

  // Taking away more than there is: a message beside the field, nothing changes.
  await page.getByLabel("Reason").selectOption("damaged");
  await page.getByLabel("Change (+/−)").fill("-50");
  await page.getByRole("button", { name: "Adjust stock" }).click();
  await expect(page.getByText("Stock can't go below zero")).toBeVisible();
  await expect(page.getByTestId("current-stock")).toHaveText("10");
  await anon.dispose();
});

test("two staff editing one product: the second save is refused with the fresh values shown", async ({
  page,
  browser,
  baseURL,
}) => {
  await useSharedStaffSession(page.context(), baseURL!);
  const id = await createProduct(page, `${uniqueWord("Quoll")} Saw`);
  const other = await browser.newPage({ storageState: await page.context().storageState() });
  await other.goto(`/admin/products/${id}`);
  await waitForHydration(other);
  await page.getByLabel("Title").fill("First Editor Saw");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();

  await other.getByLabel("Title").fill("Second Editor Saw");
  await other.getByRole("button", { name: "Save changes" }).click();
  await expect(other.getByRole("alert").filter({ hasText: "Someone else saved this product" })).toBeVisible();
  await expect(other.getByLabel("Title")).toHaveValue("First Editor Saw");
  await other.close();
});

test("an uploaded picture is resized and shown on the product page; a non-picture is refused", async ({
  page,
  baseURL,
}) => {
  await useSharedStaffSession(page.context(), baseURL!);
  const id = await createProduct(page, `${uniqueWord("Bilby")} Drill`);
  await page
    .getByLabel("Picture (JPEG, PNG or WebP, up to 10 MB)")
    .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not really a picture") });
  await page.getByRole("button", { name: "Upload picture" }).click();
  await expect(page.getByText("isn't a JPEG, PNG or WebP picture")).toBeVisible();

  const png = await sharp({ create: { width: 1400, height: 1000, channels: 3, background: "#cc3311" } })
    .png()
    .toBuffer();
  await page
    .getByLabel("Picture (JPEG, PNG or WebP, up to 10 MB)")
    .setInputFiles({ name: "drill.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload picture" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Picture uploaded" })).toBeVisible();
  await expect(page.getByRole("img", { name: /picture 1/ })).toBeVisible();

  await page.goto(`/shop/${id}`);
  const img = page.getByRole("img", { name: /view 1/ });
  const src = await img.getAttribute("src");
  expect(src).toMatch(new RegExp(`^/images/products/${id}/p${id}-[0-9a-f]{16}-600\\.webp$`));
  const response = await page.request.get(src!);
  expect(response.headers()["content-type"]).toBe("image/webp");
  expect(response.headers()["cache-control"]).toContain("immutable");
  const meta = await sharp(await response.body()).metadata();
  expect([meta.width, meta.height]).toEqual([600, 429]);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
});

test("archiving takes a product out of the shop and search; the list finds it under archived and passes axe", async ({
  page,
  baseURL,
}) => {
  await useSharedStaffSession(page.context(), baseURL!);
  const word = uniqueWord("Dingo");
  const id = await createProduct(page, `${word} Spanner`);
  await page.getByRole("button", { name: "Archive product" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Archived" })).toBeVisible();

  const anon = await visitor(baseURL!);
  expect((await anon.get(`/shop/${id}`)).status()).toBe(404);
  expect(await (await anon.get(`/shop?q=${word.toLowerCase()}`)).text()).not.toContain(`/shop/${id}"`);
  expect(await (await anon.get("/sitemap.xml")).text()).not.toContain(`/shop/${id}<`);
  await anon.dispose();

  await page.goto(`/admin/products?q=${word.toLowerCase()}`);
  await expect(page.getByRole("link", { name: `${word} Spanner` })).toHaveCount(0);
  await page.getByLabel("Archived").selectOption("all");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("link", { name: `${word} Spanner` })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Updated" })).toHaveAttribute("aria-sort", "descending");
  await expectNoAxeViolations(page);

  // Bulk: select it and put it back on sale.
  await page.getByRole("checkbox", { name: `Select ${word} Spanner` }).check();
  await page.getByLabel("With the selected products").selectOption("unarchive");
  await page.getByRole("button", { name: "Apply to selected" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 product put back on sale" })).toBeVisible();
  expect((await page.request.get(`/shop/${id}`)).status()).toBe(200);
});

test("CSV import: a preview lists changes and bad rows by line, and Apply writes them; the page passes axe", async ({
  page,
  baseURL,
}) => {
  await useSharedStaffSession(page.context(), baseURL!);
  const first = await createProduct(page, `${uniqueWord("Potoroo")} Clamp`, "20.00", "3");
  const sku = (await page.getByLabel("SKU").inputValue()).trim();
  await page.goto("/admin/products/import");
  await expectNoAxeViolations(page);
  await page.getByLabel("Or paste the CSV").fill(`sku,stock\n${sku},40\nNO-SUCH-SKU,2\n`);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("list", { name: "Bad rows" })).toContainText("Line 3: No product has SKU NO-SUCH-SKU.");
  await expect(page.getByRole("button", { name: /^Apply/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.getByLabel("Or paste the CSV").fill(`sku,stock\n${sku},40\n`);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("table", { name: "Changes the import makes" })).toContainText("stock 3 → 40");
  expect((await page.request.get(`/shop/${first}`)).ok()).toBe(true);
  expect(await (await page.request.get(`/shop/${first}`)).text()).toContain("In Stock (3)");
  await page.getByRole("button", { name: "Apply 1 change" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imported: 0 created, 1 updated" })).toBeVisible();
  expect(await (await page.request.get(`/shop/${first}`)).text()).toContain("In Stock (40)");

  const csv = await page.request.get("/admin/products/export.csv");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain(`${sku},`);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the product form posts, shows errors beside the fields, and creates the product", async ({ page, baseURL }) => {
    await useSharedStaffSession(page.context(), baseURL!);
    await page.goto("/admin/products/new");
    const title = `${uniqueWord("Echidna")} Level`;
    await fillProductForm(page, { title, sku: uniqueSku(), price: "twelve", stock: "2" });
    await page.getByRole("button", { name: "Create product" }).click();
    const price = page.getByLabel("Price (USD)");
    await expect(price).toHaveAttribute("aria-invalid", "true");
    await expect(price).toHaveAccessibleDescription(/Price must be an amount like 129.99/);
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await price.fill("12.00");
    await page.getByRole("button", { name: "Create product" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Product created" })).toBeVisible();
    const id = idFromUrl(page);
    expect(await (await page.request.get(`/shop/${id}`)).text()).toContain(title);
  });
});
