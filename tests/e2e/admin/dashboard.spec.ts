import { expectNoAxeViolations } from "../support/axe.ts";
import { expect, test } from "../support/fixtures.ts";
import { gbp, usd } from "../support/db.ts";
import { useSharedStaffSession } from "../support/staff.ts";
import { insertOrder, salesToday } from "./people-fixtures.ts";

test("the dashboard shows today's sales per currency, a 30-day revenue chart per currency with a hidden table of the same numbers, and passes axe", async ({
  page,
  baseURL,
}) => {
  insertOrder({ status: "placed", totalCents: 12_345 });
  insertOrder({ status: "placed", totalCents: 4_321, currency: "gbp" });
  insertOrder({ status: "cancelled", totalCents: 99_999 });
  insertOrder({ status: "awaiting_payment", totalCents: 88_888 });
  const expected = salesToday();
  await useSharedStaffSession(page.context(), baseURL!);

  await page.goto("/admin");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const todayCard = main
    .locator("div")
    .filter({ has: page.getByText("Orders today", { exact: true }) })
    .last();
  await expect(todayCard).toContainText(String(expected.orders));
  await expect(todayCard).toContainText(`Revenue today: ${usd(expected.usd.revenue)} and ${gbp(expected.gbp.revenue)}`);

  for (const [currency, words, money] of [
    ["usd", "US dollars (USD)", usd],
    ["gbp", "pounds sterling (GBP)", gbp],
  ] as const) {
    const chart = page.getByTestId(`revenue-chart-${currency}`);
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAttribute("aria-hidden", "true");
    await expect(chart.locator("rect")).toHaveCount(30);

    const table = page.getByRole("table", { name: `Daily revenue in ${words}, last 30 days` });
    await expect(table).toHaveCount(1);
    // Visually hidden, but there for assistive technology.
    expect(
      await page
        .getByTestId(`revenue-table-${currency}`)
        .evaluate((el) => el.getBoundingClientRect().width <= 1 && getComputedStyle(el).overflow === "hidden"),
    ).toBe(true);
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(30);
    await expect(rows.last().locator("td").nth(0)).toHaveText(String(expected[currency].orders));
    await expect(rows.last().locator("td").nth(1)).toHaveText(money(expected[currency].revenue));
  }

  await expect(main.getByRole("link", { name: "See orders to ship" })).toHaveAttribute(
    "href",
    "/admin/orders?status=placed",
  );
  for (const label of [
    "Orders waiting to ship",
    "Products low on stock",
    "Unanswered contact messages",
    "Mails stuck in the queue",
  ]) {
    await expect(main.getByText(label, { exact: true })).toBeVisible();
  }
  await expectNoAxeViolations(page);
});
