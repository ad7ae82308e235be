import { randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { uniqueEmail } from "../support/accounts.ts";
import { queryOne } from "../support/db.ts";
import { setProduct, storeDb } from "../shopping/support.ts";
import { waitForHydration } from "../support/site.ts";

/**
 * Helpers for the trade suite: approved companies and their members written straight to the e2e
 * store's database, for the specs that need a company but don't test how one is made.
 */

export interface TradeCompany {
  organizationId: string;
  name: string;
}

/**
 * An approved US company (organization, application and companies row) whose members are these
 * registered users, in these roles (the first is its owner unless told), optionally on a price
 * list of `percentOff` off everything.
 */
export function tradeCompany(
  members: { email: string; role?: string }[],
  options: { percentOff?: number; name?: string } = {},
): TradeCompany {
  const db = storeDb();
  const id = randomBytes(5).toString("hex");
  const now = new Date().toISOString();
  const name = options.name ? `${options.name} ${id}` : `Grid Co ${id}`;
  let priceListId: number | null = null;
  if (options.percentOff != null) {
    const list = db
      .prepare("INSERT INTO price_lists (name, created_at) VALUES (?, ?) RETURNING id")
      .get(`E2E ${id}`, now) as { id: number };
    db.prepare(
      "INSERT INTO price_list_rules (price_list_id, target, percent_off, fixed_cents) VALUES (?, 'all', ?, NULL)",
    ).run(list.id, options.percentOff);
    priceListId = list.id;
  }
  const users = members.map((m) => ({
    ...m,
    id: queryOne<{ id: string }>('SELECT id FROM "user" WHERE email = ?', m.email).id,
  }));
  db.prepare("INSERT INTO organization (id, name, slug, createdAt) VALUES (?, ?, ?, ?)").run(
    `org-${id}`,
    name,
    `grid-${id}`,
    now,
  );
  users.forEach((user, i) => {
    db.prepare("INSERT INTO member (id, organizationId, userId, role, createdAt) VALUES (?, ?, ?, ?, ?)").run(
      `mem-${id}-${i}`,
      `org-${id}`,
      user.id,
      user.role ?? "buyer",
      new Date(Date.now() + i).toISOString(),
    );
  });
  const app = db
    .prepare(
      "INSERT INTO trade_applications (user_id, company_name, country, tax_id, billing_line1, billing_city, billing_postcode, phone, status, created_at, decided_at, decided_by, organization_id) VALUES (?, ?, 'US', '12-3456789', '1 Main St', 'New York', '10001', '+1 212 555 0100', 'approved', ?, ?, 'e2e', ?) RETURNING id",
    )
    .get(users[0].id, name, now, now, `org-${id}`) as { id: number };
  db.prepare(
    "INSERT INTO companies (organization_id, application_id, name, country, tax_id, billing_line1, billing_city, billing_postcode, phone, price_list_id, created_at, updated_at) VALUES (?, ?, ?, 'US', '12-3456789', '1 Main St', 'New York', '10001', '+1 212 555 0100', ?, ?, ?)",
  ).run(`org-${id}`, app.id, name, priceListId, now, now);
  return { organizationId: `org-${id}`, name };
}

/** A company on a price list of `percentOff` off everything, with this registered user as its buyer. */
export function tradeBuyerOnPriceList(email: string, percentOff: number): TradeCompany {
  return tradeCompany([{ email, role: "buyer" }], { percentOff });
}

/**
 * A product a spec owns (each spec file owns its own id range), put in a known state: on sale,
 * not archived, with this stock. Returns its SKU and title.
 */
export function ownedProduct(id: number, stock: number): { sku: string; title: string } {
  setProduct(id, { stock });
  storeDb().prepare("UPDATE products SET archived_at = NULL WHERE id = ?").run(id);
  return queryOne<{ sku: string; title: string }>("SELECT sku, title FROM products WHERE id = ?", id);
}

/** On /account/company: invites a new colleague (`tag` in the address) as a buyer; returns the address. */
export async function inviteBuyer(page: Page, tag: string): Promise<string> {
  const colleagueEmail = uniqueEmail(tag);
  await waitForHydration(page);
  await page.getByLabel("Colleague's email").fill(colleagueEmail);
  await page.getByLabel("Role").selectOption("buyer");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`Invitation sent to ${colleagueEmail}.`);
  return colleagueEmail;
}
