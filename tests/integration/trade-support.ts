/** Approved trade companies and their people, written straight to the tables the store reads. */
import { randomBytes } from "node:crypto";
import { tradeApplicationSchema, type TradeApplicationInput } from "../../app/lib/trade-schema.ts";
import type { Db } from "../../server/db/connection.ts";

export interface CompanyOptions {
  name?: string;
  country?: "US" | "GB";
  taxId?: string;
  poRequired?: boolean;
  net30?: boolean;
  creditLimitCents?: number;
  priceListId?: number | null;
}

/** An approved company (organization, application and companies row); returns its organization id. */
export async function insertCompany(db: Db, options: CompanyOptions = {}): Promise<string> {
  const id = randomBytes(6).toString("hex");
  const now = new Date().toISOString();
  const gb = options.country === "GB";
  const name = options.name ?? `Acme ${id}`;
  const billing = gb
    ? {
        country: "GB" as const,
        tax_id: options.taxId ?? "GB123456789",
        billing_line1: "1 High St",
        billing_line2: null,
        billing_city: "London",
        billing_region: null,
        billing_postcode: "SW1A 1AA",
        phone: "+44 20 7946 0000",
      }
    : {
        country: "US" as const,
        tax_id: options.taxId ?? "12-3456789",
        billing_line1: "1 Main St",
        billing_line2: null,
        billing_city: "New York",
        billing_region: "NY",
        billing_postcode: "10001",
        phone: "+1 212 555 0100",
      };
  await db
    .insertInto("organization")
    .values({ id: `org-${id}`, name, slug: `acme-${id}`, logo: null, metadata: null, createdAt: now })
    .execute();
  const application = await db
    .insertInto("trade_applications")
    .values({
      user_id: "nobody",
      company_name: name,
      ...billing,
      status: "approved",
      reason: null,
      created_at: now,
      decided_at: now,
      decided_by: "staff",
      organization_id: `org-${id}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("companies")
    .values({
      organization_id: `org-${id}`,
      application_id: application.id,
      name,
      ...billing,
      price_list_id: options.priceListId ?? null,
      po_required: options.poRequired ? 1 : 0,
      net30: options.net30 ? 1 : 0,
      credit_limit_cents: options.creditLimitCents ?? 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return `org-${id}`;
}

/** A user who is a member of the company in `role`; returns the user's id. */
export async function insertMember(db: Db, organizationId: string, role: string, userId?: string): Promise<string> {
  const id = randomBytes(6).toString("hex");
  const now = new Date().toISOString();
  const user = userId ?? `user-${id}`;
  const exists = await db.selectFrom("user").select("id").where("id", "=", user).executeTakeFirst();
  if (!exists)
    await db
      .insertInto("user")
      .values({
        id: user,
        name: `${role} ${id}`,
        email: `${role}.${id}@example.com`,
        emailVerified: true,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
  await db
    .insertInto("member")
    .values({ id: `mem-${id}`, organizationId, userId: user, role, createdAt: now })
    .execute();
  return user;
}

/** A buyer in a new company with net-30 terms and a generous credit limit: for orders paid by invoice. */
export async function net30Buyer(
  db: Db,
  options: CompanyOptions & { userId?: string } = {},
): Promise<{ userId: string; organizationId: string }> {
  const organizationId = await insertCompany(db, { creditLimitCents: 100_000_000, ...options, net30: true });
  return { organizationId, userId: await insertMember(db, organizationId, "owner", options.userId) };
}

/** A valid trade application form (Acme Builders Ltd, London), with these fields changed. */
export function tradeApplicationForm(overrides: Partial<Record<string, string>> = {}): TradeApplicationInput {
  return tradeApplicationSchema.parse({
    companyName: "Acme Builders Ltd",
    country: "GB",
    taxId: "GB 123 4567 89",
    line1: "1 High Street",
    city: "London",
    postcode: "sw1a 1aa",
    phone: "+44 20 7946 0000",
    ...overrides,
  });
}
