import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { expect, test } from "../support/fixtures.ts";
import { addToCartViaHttp } from "../support/orders.ts";
import { signInViaApi } from "../shopping/support.ts";
import { tradeBuyerOnPriceList } from "../trade/support.ts";
import { waitForHydration } from "../support/site.ts";

const SHARED = "public, max-age=0, s-maxage=30, stale-while-revalidate=30";
const CATALOG_PAGES = ["/", "/shop", "/shop/2", "/shop?q=drill", "/about", "/faq", "/contact", "/blogs"];

/** The page as its bytes, without what differs between any two renders of it. */
const shareable = (html: string) => html.replace(/"nonce"|nonce="[^"]*"/g, "");

test("catalog pages are one shared HTML for anonymous visitors; a signed-in visitor's are theirs and never stored", async ({
  playwright,
  baseURL,
}) => {
  const guest = await playwright.request.newContext({ baseURL });
  const guestWithCart = await playwright.request.newContext({ baseURL });
  const shopper = await playwright.request.newContext({ baseURL });
  const buyer = await playwright.request.newContext({ baseURL });
  const shopperEmail = uniqueEmail("cache-shopper");
  const buyerEmail = uniqueEmail("cache-buyer");
  await addToCartViaHttp(guestWithCart, baseURL!, 2, { quantity: 2 });
  await registerViaApi(shopper, baseURL!, shopperEmail, undefined, "Casey Shopper");
  await signInViaApi(shopper, baseURL!, shopperEmail);
  await addToCartViaHttp(shopper, baseURL!, 2, { quantity: 3 });
  await registerViaApi(buyer, baseURL!, buyerEmail, undefined, "Toni Trade");
  tradeBuyerOnPriceList(buyerEmail, 12);
  await signInViaApi(buyer, baseURL!, buyerEmail);
  const everyonesOwn = [
    "Casey Shopper",
    "Toni Trade",
    shopperEmail,
    buyerEmail,
    "Your price",
    ">Logout<",
    "Your account",
    "Cart (",
  ];
  try {
    for (const path of CATALOG_PAGES) {
      const [a, b, c, d] = await Promise.all([guest, guestWithCart, shopper, buyer].map((ctx) => ctx.get(path)));
      for (const response of [a, b]) {
        expect(response.status(), path).toBe(200);
        expect(response.headers()["cache-control"], path).toBe(SHARED);
        expect(response.headers()["set-cookie"], path).toBeUndefined();
      }
      const [ha, hb, hc, hd] = await Promise.all([a.text(), b.text(), c.text(), d.text()]);
      expect(shareable(hb), `${path}: a guest with a cart gets the same page`).toBe(shareable(ha));
      for (const personal of everyonesOwn) expect(ha, `${path}: ${personal}`).not.toContain(personal);
      // Signed in: rendered for them (their header works without JavaScript), never stored.
      for (const response of [c, d]) expect(response.headers()["cache-control"], path).toBe("private, no-store");
      expect(hc, path).toContain("Your account (Casey Shopper)");
      expect(hc, path).toContain('aria-label="Cart (3 items)"');
      expect(hd, path).toContain("Your account (Toni Trade)");
      for (const theirs of ["Toni Trade", buyerEmail, "Your price"])
        expect(hc, `${path}: the shopper's page shows ${theirs}`).not.toContain(theirs);
      for (const theirs of ["Casey Shopper", shopperEmail, 'aria-label="Cart (3 items)"'])
        expect(hd, `${path}: the buyer's page shows ${theirs}`).not.toContain(theirs);
    }
    const shopHtml = await (await buyer.get("/shop?sort=name")).text();
    expect(shopHtml).toContain("Your price");
    // What is theirs also comes from /visitor, never cached.
    const mine = await shopper.get("/visitor");
    expect(mine.headers()["cache-control"]).toBe("private, no-store");
    expect(await mine.json()).toMatchObject({
      user: { email: shopperEmail, fullName: "Casey Shopper" },
      cartCount: 3,
      priceList: null,
    });
    expect(await (await buyer.get("/visitor")).json()).toMatchObject({
      user: { email: buyerEmail },
      cartCount: 0,
      priceList: { everything: { percentOff: 12 } },
    });
    expect(await (await guestWithCart.get("/visitor")).json()).toMatchObject({
      user: null,
      cartCount: 2,
      priceList: null,
    });
    expect(await (await guest.get("/visitor")).json()).toEqual({
      user: null,
      cartCount: 0,
      wishlistIds: [],
      priceList: null,
      marketProposal: null,
    });
    // Personal pages are never stored anywhere.
    for (const path of ["/cart", "/account", "/wishlist", "/checkout"]) {
      expect((await shopper.get(path, { maxRedirects: 0 })).headers()["cache-control"], path).toBe("private, no-store");
    }
  } finally {
    await Promise.all([guest, guestWithCart, shopper, buyer].map((ctx) => ctx.dispose()));
  }
});

test("a guest's cart count reaches the header of a shared page from /visitor", async ({ page }) => {
  await page.goto("/shop/5");
  await waitForHydration(page);
  await page.getByRole("main").getByRole("button", { name: "Add to cart", exact: true }).click();
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("link", { name: "Cart (1 item)" })).toBeVisible();
  await page.goto("/shop/6");
  await expect(banner.getByRole("link", { name: "Cart (1 item)" })).toBeVisible();
  expect((await page.request.get("/shop/6")).headers()["cache-control"]).toBe(SHARED);
});

test("a cached page's CSP allows exactly its own inline scripts: it hydrates on every view and blocks nothing", async ({
  page,
}) => {
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  for (let view = 0; view < 3; view++) {
    const response = await page.goto("/shop/3");
    const policy = response!.headers()["content-security-policy"];
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(policy).not.toContain("nonce");
    await waitForHydration(page);
  }
  expect(blocked).toEqual([]);
});

test("the header shows a signed-in shopper's name and cart count", async ({ page, baseURL }) => {
  const email = uniqueEmail("cache-header");
  await registerViaApi(page.request, baseURL!, email, undefined, "Robin Header");
  await signInViaApi(page.request, baseURL!, email);
  await addToCartViaHttp(page.request, baseURL!, 4, { quantity: 2 });
  await page.goto("/shop/4");
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("link", { name: "Cart (2 items)" })).toBeVisible();
  await expect(banner.getByRole("link", { name: "Your account (Robin Header)" })).toBeVisible();
  await expect(banner.getByRole("link", { name: "Login", exact: true })).toHaveCount(0);
});

test("a page's scripts are fetched at low priority, after the stylesheet and images its first paint needs, and it still hydrates", async ({
  page,
}) => {
  const html = await (await page.request.get("/shop/3")).text();
  const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
  expect(preloads.length).toBeGreaterThan(0);
  for (const link of preloads) expect(link).toContain('fetchpriority="low"');
  await page.goto("/shop/3");
  await waitForHydration(page);
});
