import { expect, test } from "../support/fixtures.ts";
import { CONTENT_PAGES, HEADER_NAV, hrefOf, urlIs, waitForHydration } from "../support/site.ts";

/** The labelled search input: a plain searchbox, or a combobox once it offers suggestions. */
const searchField = (form: import("@playwright/test").Locator) =>
  form.getByRole("searchbox", { name: /search/i }).or(form.getByRole("combobox", { name: /search/i }));

test.describe("header", () => {
  test("logo, nav links in order, cart, wishlist and Login", async ({ page }) => {
    await page.goto("/about");
    const header = page.getByRole("banner");
    const logo = header.getByRole("link", { name: /ToolHub Wholesale/ });
    await expect(logo).toHaveAttribute("href", "/");
    await expect(logo.getByRole("img")).toHaveAttribute("alt", /\S/);

    const nav = header.getByRole("navigation", { name: "Main" });
    const links = nav.getByRole("link");
    await expect(links).toHaveText(HEADER_NAV.map((n) => n.name));
    for (const [i, item] of HEADER_NAV.entries()) {
      expect(await hrefOf(links.nth(i))).toBe(item.path);
    }

    expect(await hrefOf(header.getByRole("link", { name: /^Cart/ }))).toBe("/cart");
    expect(await hrefOf(header.getByRole("link", { name: /^Wishlist/ }))).toBe("/wishlist");
    const login = header.getByRole("link", { name: "Login", exact: true });
    await expect(login).toBeVisible();
    expect(await hrefOf(login)).toBe("/login");
    await login.click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Login");
  });

  for (const current of HEADER_NAV) {
    test(`only "${current.name}" is the current page on ${current.path}`, async ({ page }) => {
      await page.goto(current.path);
      const links = page.getByRole("banner").getByRole("navigation", { name: "Main" }).getByRole("link");
      for (const item of HEADER_NAV) {
        const link = links.filter({ hasText: new RegExp(`^${item.name}$`) });
        if (item === current) await expect(link).toHaveAttribute("aria-current", "page");
        else await expect(link).not.toHaveAttribute("aria-current", /.*/);
      }
    });
  }

  test("clicking a nav link navigates in place (no page reload) and moves aria-current", async ({ page }) => {
    await page.goto("/about");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "FAQ" }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(nav.getByRole("link", { name: "FAQ" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "About Us" })).not.toHaveAttribute("aria-current", /.*/);
    await page.getByRole("contentinfo").getByRole("link", { name: "Shipping Information" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shipping Information");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  test("from the home page a nav link opens the page and moves aria-current to it", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "FAQ" }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Frequently Asked Questions");
    await expect(nav.getByRole("link", { name: "FAQ" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Home" })).not.toHaveAttribute("aria-current", /.*/);
  });

  test("a link opened with a modifier key is left to the browser", async ({ page, context }) => {
    await page.goto("/about");
    await waitForHydration(page);
    const opened = context.waitForEvent("page");
    await page
      .getByRole("contentinfo")
      .getByRole("link", { name: "Shipping Information" })
      .click({ modifiers: ["ControlOrMeta"] });
    await (await opened).close();
    await expect(page).toHaveURL(/\/about$/);
  });

  test("the search form is a labelled search field that submits to /shop?q=…", async ({ page }) => {
    await page.goto("/about");
    const search = page.getByRole("banner").getByRole("search");
    await expect(search).toHaveCount(1);
    const field = searchField(search);
    await expect(field).toHaveAttribute("type", "search");
    await field.fill("cordless drill");
    await field.press("Enter");
    await expect(page).toHaveURL(urlIs("/shop", { q: "cordless drill" }));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("cordless drill");
  });
});

test.describe("header on a 390×844 phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a search field and a Menu toggle that opens the same links plus Login", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const header = page.getByRole("banner");
    await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(searchField(header.getByRole("search"))).toBeVisible();

    const menu = header.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const mobileNav = header.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav).toBeVisible();
    await expect(mobileNav.getByRole("link")).toHaveText([...HEADER_NAV.map((n) => n.name), "Login"]);
    await expect(mobileNav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");

    await mobileNav.getByRole("link", { name: "Shop" }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shop");
    // The shop is interactive before the menu is used again.
    await waitForHydration(page);
    // The menu closes after navigating, and toggles open and closed.
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(mobileNav).toBeHidden();
    await menu.click();
    await expect(mobileNav.getByRole("link", { name: "Shop" })).toHaveAttribute("aria-current", "page");
    await menu.click();
    await expect(mobileNav).toBeHidden();
    // From a search, the shop's own Shop link loads the results in place and closes the menu.
    await page.goto("/shop?q=drill");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await menu.click();
    await mobileNav.getByRole("link", { name: "Shop" }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shop");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(mobileNav).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // A client navigation under React Router (from About Us) closes the menu too.
    await page.goto("/about");
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await menu.click();
    await mobileNav.getByRole("link", { name: "FAQ" }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(mobileNav).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });
});

test.describe("header on a 390×844 phone without JavaScript", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, javaScriptEnabled: false });

  test("the menu's links, Login among them, show under the header, without a Menu button that would do nothing", async ({
    page,
  }) => {
    await page.goto("/shop");
    const header = page.getByRole("banner");
    await expect(header.getByRole("button", { name: "Menu" })).toBeHidden();
    const mobileNav = header.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav.getByRole("link")).toHaveText([...HEADER_NAV.map((n) => n.name), "Login"]);
    await expect(mobileNav.getByRole("link", { name: "Shop" })).toHaveAttribute("aria-current", "page");
    await mobileNav.getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Login");
  });

  test("on a wide screen the main navigation shows and the narrow-screen menu stays hidden", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/shop");
    const header = page.getByRole("banner");
    await expect(header.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(header.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  });
});

/** The spec's footer links, where each now leads, and the h1 a shopper sees there. */
const FOOTER_LINKS: { name: string; path: string; redirectsTo?: string; h1: string }[] = [
  { name: "Home", path: "/", h1: "ToolHub Wholesale: wholesale-priced tools for the UK and the US" },
  { name: "About Us", path: "/aboutUs", redirectsTo: "/about", h1: "About Us" },
  { name: "Contact Us", path: "/contactUs", redirectsTo: "/contact", h1: "Contact Us" },
  { name: "FAQ", path: "/faq", h1: "Frequently Asked Questions" },
  { name: "Blogs", path: "/blogs", h1: "Blogs" },
  { name: "Help", path: "/faq", h1: "Frequently Asked Questions" },
  { name: "Store Map", path: "/contact", h1: "Contact Us" },
  { name: "Search Product", path: "/shop", h1: "Shop" },
  { name: "Wishlist", path: "/wishlist", h1: "Wishlist" },
  { name: "Order Status", path: "/account/orders", h1: "Order Status" },
  ...CONTENT_PAGES.map((p) => ({ name: p.title, path: p.path, h1: p.title })),
];

test.describe("footer", () => {
  test("year, payments logo, address, masked email and phone", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
    await expect(footer.getByRole("img", { name: /payment/i })).toHaveAttribute("alt", /\S/);
    await expect(footer).toContainText(/\d+ [A-Z][a-z]+ (Lane|Street|Road)/);
    await expect(footer).toContainText(/Email: [a-z]+\*{2,}@[a-z.-]+\.[a-z]+/);
    await expect(footer).toContainText(/Phone: \+?[\d ]{10,}/);
  });

  /** Every footer link as a shopper meets it: its text and where it points. */
  async function footerLinks(page: import("@playwright/test").Page) {
    const links = page.getByRole("contentinfo").getByRole("link");
    const texts = await links.allInnerTexts();
    const hrefs = await links.evaluateAll((els) => els.map((el) => new URL((el as HTMLAnchorElement).href).pathname));
    return texts.map((text, i) => ({ name: text.trim(), path: hrefs[i] }));
  }

  test("has the spec's links, each with a real target", async ({ page }) => {
    await page.goto("/");
    const links = await footerLinks(page);
    expect(links.map((l) => l.name).sort()).toEqual(FOOTER_LINKS.map((l) => l.name).sort());
    for (const expected of FOOTER_LINKS) {
      expect(links.find((l) => l.name === expected.name)?.path, expected.name).toBe(expected.path);
    }
  });

  test("every footer link answers 200 and only Home points to /", async ({ page, request }) => {
    await page.goto("/");
    const links = await footerLinks(page);
    expect(links.length).toBe(FOOTER_LINKS.length);
    const statuses = await Promise.all(links.map(async (l) => (await request.get(l.path)).status()));
    for (const [i, { name, path }] of links.entries()) {
      if (name !== "Home") expect(path, name).not.toBe("/");
      expect(statuses[i], `${name} → ${path}`).toBe(200);
    }
  });

  test("/aboutUs and /contactUs answer 301 to /about and /contact", async ({ request }) => {
    for (const { path, redirectsTo } of FOOTER_LINKS.filter((l) => l.redirectsTo)) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(301);
      expect(new URL(response.headers().location, "http://x").pathname, path).toBe(redirectsTo);
    }
  });

  /** Clicks each footer link in the browser (client-side navigation) and checks where it lands. */
  async function followFooterLinks(page: import("@playwright/test").Page, links: typeof FOOTER_LINKS) {
    // Instant scroll-to-top, so each click does not wait for the previous smooth scroll to settle.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    await waitForHydration(page);
    for (const link of links) {
      await page.getByRole("contentinfo").getByRole("link", { name: link.name, exact: true }).click();
      const target = link.redirectsTo ?? link.path;
      await expect(page, link.name).toHaveURL(new RegExp(`${target === "/" ? "/" : target}$`));
      await expect(page.getByRole("heading", { level: 1 }), link.name).toHaveText(link.h1);
    }
  }

  test("footer links to the app's screens work in the browser", async ({ page }) => {
    await followFooterLinks(
      page,
      FOOTER_LINKS.filter((l) => !l.redirectsTo && !CONTENT_PAGES.some((p) => p.path === l.path)),
    );
  });

  test("footer links to the content pages work in the browser", async ({ page }) => {
    await followFooterLinks(
      page,
      FOOTER_LINKS.filter((l) => CONTENT_PAGES.some((p) => p.path === l.path)),
    );
  });

  test("footer About Us and Contact Us work in the browser", async ({ page }) => {
    await followFooterLinks(
      page,
      FOOTER_LINKS.filter((l) => l.redirectsTo),
    );
  });
});

test.describe("scroll to top on navigation", () => {
  // A long page, so that a footer link's client navigation has somewhere to scroll back from.
  async function scrollDownAndRecord(page: import("@playwright/test").Page) {
    await page.goto("/faq");
    await waitForHydration(page);
    await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(800);
    await page.evaluate(() => {
      const w = window as unknown as { scrollLog: number[] };
      w.scrollLog = [];
      window.addEventListener("scroll", () => w.scrollLog.push(window.scrollY));
    });
  }

  test("smoothly returns to the top after a footer link", async ({ page }) => {
    await scrollDownAndRecord(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Blogs" }).click();
    await expect(page).toHaveURL(/\/blogs$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("jumps to the top at once under prefers-reduced-motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await scrollDownAndRecord(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Blogs" }).click();
    await expect(page).toHaveURL(/\/blogs$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blogs");
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // No animation on the way up: at most one other position, where the browser clamped the
    // old scroll offset to the new, shorter page before the jump to the top.
    const log = await page.evaluate(() => (window as unknown as { scrollLog: number[] }).scrollLog);
    expect(log.filter((y) => y !== 0).length).toBeLessThanOrEqual(1);
  });
});
