/** Trade companies the e2e specs put straight into the store's database. */
import type { APIRequestContext } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { registerViaApi, uniqueEmail } from "../support/accounts.ts";
import { storeDb } from "../shopping/support.ts";

/** One statement on a store's database, with `?` placeholders; the rows it returns. */
export type StoreSql = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/** The SQLite store's database (the first e2e store). */
export const sqliteStore: StoreSql = async (text, values) =>
  storeDb()
    .prepare(text)
    .all(...(values as never[])) as Record<string, unknown>[];

/**
 * An approved trade application with its company, written straight into the store's database
 * (tests/e2e/trade/accounts.spec.ts walks the real application and approval). The applicant is
 * the company's owner. `sql` reaches another store's database (the PostgreSQL store's, say); the
 * statements quote Better Auth's camel-case columns, which both databases read.
 */
export async function approvedCompany(
  request: APIRequestContext,
  baseURL: string,
  country: "GB" | "US" = "GB",
  sql: StoreSql = sqliteStore,
) {
  const email = uniqueEmail("company-owner");
  await registerViaApi(request, baseURL, email, undefined, "Olive Owner");
  const [user] = await sql(`SELECT id FROM "user" WHERE email = ?`, [email]);
  const userId = String(user.id);
  const tag = randomBytes(4).toString("hex");
  const organizationId = `org-e2e-${tag}`;
  const name = `Priced Tools ${tag}`;
  const now = new Date().toISOString();
  await sql(`INSERT INTO organization (id, name, slug, logo, metadata, "createdAt") VALUES (?, ?, ?, NULL, NULL, ?)`, [
    organizationId,
    name,
    `e2e-${tag}`,
    now,
  ]);
  await sql(`INSERT INTO member (id, "organizationId", "userId", role, "createdAt") VALUES (?, ?, ?, 'owner', ?)`, [
    `mem-e2e-${tag}`,
    organizationId,
    userId,
    now,
  ]);
  const billing =
    country === "GB"
      ? ["GB", "GB123456789", "1 High Street", "London", "SW1A 1AA", "+44 20 7946 0000"]
      : ["US", "12-3456789", "1 Main Street", "Austin", "73301", "+1 512 555 0100"];
  const [application] = await sql(
    `INSERT INTO trade_applications (user_id, company_name, country, tax_id, billing_line1, billing_city, billing_postcode, phone, status, created_at, decided_at, decided_by, organization_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'approved', ?, ?, 'e2e', ?) RETURNING id`,
    [userId, name, ...billing, now, now, organizationId],
  );
  await sql(
    `INSERT INTO companies (organization_id, application_id, name, country, tax_id, billing_line1, billing_city, billing_postcode, phone, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [organizationId, application.id, name, ...billing, now, now],
  );
  return { email, name, organizationId, applicationId: Number(application.id) };
}
