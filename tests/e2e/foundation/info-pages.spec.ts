import { expect, test } from "../support/fixtures.ts";
import { hrefOf, waitForHydration } from "../support/site.ts";

test.describe("About", () => {
  test("About Us, Our Story, Our Mission and the four impact stats", async ({ page }) => {
    await page.goto("/about");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("About Us");
    for (const name of ["Our Story", "Our Mission"])
      await expect(main.getByRole("heading", { name, level: 2 })).toBeVisible();
    const stats = main.getByRole("region", { name: "Our Impact" });
    await expect(stats.getByRole("term")).toHaveText([
      "Years in Business",
      "Customers Served",
      "Countries Reached",
      "Products Offered",
    ]);
    await expect(stats.getByRole("definition")).toHaveText(["3+", "10,000+", "2", "500+"]);
    const logos = main.getByRole("region", { name: "Trusted by" }).getByRole("img");
    expect(await logos.count()).toBeGreaterThan(0);
    for (const logo of await logos.all()) await expect(logo).toHaveAttribute("alt", /\S/);
  });
});

test.describe("FAQ", () => {
  const CATEGORIES = [
    "Ordering Process",
    "Product Information",
    "Shipping and Delivery",
    "Returns and Refunds",
    "Account and Support",
  ];

  test("table of contents with All and the five categories", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    const toc = page.getByRole("navigation", { name: "FAQ categories" });
    await expect(toc.getByRole("link")).toHaveText(["All", ...CATEGORIES]);
    await expect(toc.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "true");
    const main = page.getByRole("main");
    for (const name of CATEGORIES) await expect(main.getByRole("heading", { name, level: 2 })).toBeVisible();

    await toc.getByRole("link", { name: "Shipping and Delivery" }).click();
    await expect(toc.getByRole("link", { name: "Shipping and Delivery" })).toHaveAttribute("aria-current", "true");
    await expect(main.getByRole("heading", { name: "Shipping and Delivery", level: 2 })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Ordering Process", level: 2 })).toHaveCount(0);
    await toc.getByRole("link", { name: "All" }).click();
    await expect(main.getByRole("heading", { name: "Ordering Process", level: 2 })).toBeVisible();
  });

  test("one answer open at a time; clicking the open question closes it", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    const questions = page.getByRole("main").getByRole("button");
    const [first, second] = [questions.nth(0), questions.nth(1)];
    expect(await questions.count()).toBeGreaterThanOrEqual(10);
    await expect(page.getByRole("main").getByRole("button", { expanded: true })).toHaveCount(0);
    const firstName = (await first.textContent())!.replace(/[+−]\s*$/, "").trim();
    const secondName = (await second.textContent())!.replace(/[+−]\s*$/, "").trim();
    const firstAnswer = page.getByRole("region", { name: firstName });
    const secondAnswer = page.getByRole("region", { name: secondName });
    await expect(firstAnswer).toBeHidden();

    await first.click();
    await expect(first).toHaveAttribute("aria-expanded", "true");
    await expect(firstAnswer).toBeVisible();
    await expect(firstAnswer).toHaveText(/\S{3,}/);

    await second.click();
    await expect(second).toHaveAttribute("aria-expanded", "true");
    await expect(secondAnswer).toBeVisible();
    await expect(first).toHaveAttribute("aria-expanded", "false");
    await expect(firstAnswer).toBeHidden();

    await second.click();
    await expect(second).toHaveAttribute("aria-expanded", "false");
    await expect(secondAnswer).toBeHidden();
    await expect(page.getByRole("main").getByRole("button", { expanded: true })).toHaveCount(0);
  });

  test("every placeholder such as [number] is filled in", async ({ page }) => {
    await page.goto("/faq");
    // textContent includes the closed answers.
    const text = (await page.getByRole("main").textContent())!;
    expect(text).not.toContain("[");
    expect(text).not.toContain("]");
  });
});

test.describe("Contact", () => {
  test("map, address, hours and the Leave a message form", async ({ page }) => {
    await page.goto("/contact");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Contact Us");

    const map = main.locator("iframe");
    await expect(map).toHaveCount(1);
    await expect(map).toHaveAttribute("title", /\S/);
    await expect(map).toHaveAttribute("loading", "lazy");
    await expect(map).toHaveAttribute("src", /^https:\/\/www\.openstreetmap\.org\//);

    await expect(main).toContainText(/\d+ [A-Z][a-z]+ (Lane|Street|Road)/);
    const hours = main.getByRole("region", { name: /hours/i });
    for (const line of ["Sunday-Wednesday 9am-5pm", "Saturday 10am-1pm", "Friday closed"]) {
      await expect(hours).toContainText(line, { useInnerText: true });
    }
    await expect(main).toContainText(/[a-z]+\*{2,}@/);
    await expect(main).toContainText(/\+?\d[\d ]{9,}/);

    const form = main.getByRole("region", { name: "Leave a message" });
    for (const name of ["Name", "Email", "Subject", "Message"]) {
      await expect(form.getByRole("textbox", { name, exact: true })).toBeVisible();
    }
    await expect(form.getByRole("textbox", { name: "Email", exact: true })).toHaveAttribute("type", "email");
    await expect(form.getByRole("button", { name: "Send" })).toBeVisible();
  });
});

test.describe("Blogs", () => {
  test("the index lists articles and each opens its own page", async ({ page }) => {
    await page.goto("/blogs");
    await waitForHydration(page);
    const links = page.getByRole("main").getByRole("heading", { level: 2 }).getByRole("link");
    const count = await links.count();
    expect(count).toBeGreaterThanOrEqual(3);
    const articles = await Promise.all(
      (await links.all()).map(async (l) => ({ title: (await l.textContent())!.trim(), href: await hrefOf(l) })),
    );
    expect(new Set(articles.map((a) => a.href)).size).toBe(count);

    await links.first().click();
    await expect(page).toHaveURL(new RegExp(`${articles[0].href}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(articles[0].title);
    await page.getByRole("link", { name: /All articles/ }).click();
    await expect(page).toHaveURL(/\/blogs$/);

    for (const article of articles.slice(1)) {
      const response = await page.goto(article.href);
      expect(response?.status(), article.href).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(article.title);
      expect((await page.getByRole("main").innerText()).length).toBeGreaterThan(500);
    }
  });

  test("an unknown article is a 404", async ({ request }) => {
    const response = await request.get("/blogs/no-such-article");
    expect(response.status()).toBe(404);
  });
});
