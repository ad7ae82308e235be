import { sql, type Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import { dbKind, type Db, type DbKind } from "./connection.ts";
import * as catalog from "./migrations/001_catalog.ts";
import * as auth from "./migrations/002_auth.ts";
import * as mail from "./migrations/003_mail.ts";
import * as search from "./migrations/004_search.ts";
import * as shopping from "./migrations/005_shopping.ts";
import * as indexes from "./migrations/006_indexes.ts";
import * as jobs from "./migrations/007_jobs.ts";
import * as orderHolds from "./migrations/008_order_holds.ts";
import * as privacy from "./migrations/009_privacy.ts";
import * as backOffice from "./migrations/010_back_office.ts";
import * as backOfficeIndexes from "./migrations/011_back_office_indexes.ts";
import * as payments from "./migrations/012_payments.ts";
import * as trade from "./migrations/013_trade.ts";
import * as tradeOrders from "./migrations/014_trade_orders.ts";
import * as invoices from "./migrations/015_invoices.ts";
import * as savedLists from "./migrations/016_saved_lists.ts";
import * as quotes from "./migrations/017_quotes.ts";
import * as searchWords from "./migrations/018_search_words.ts";
import * as catalogVersionStripes from "./migrations/019_catalog_version_stripes.ts";
import * as partialOrderIndexes from "./migrations/020_partial_order_indexes.ts";
import * as stockSearchTrigger from "./migrations/021_stock_search_trigger.ts";
import * as searchMatchIndex from "./migrations/022_search_match_index.ts";
import * as searchCellsVersion from "./migrations/023_search_cells_version.ts";
import * as searchPostings from "./migrations/024_search_postings.ts";
import * as searchWordsVersion from "./migrations/025_search_words_version.ts";
import * as secondFactorCodes from "./migrations/026_second_factor_codes.ts";
import * as guestHoldClients from "./migrations/027_guest_hold_clients.ts";
import * as searchSchemaRepair from "./migrations/028_search_schema_repair.ts";
import * as usSalesTax from "./migrations/029_us_sales_tax.ts";
import * as taxExemptions from "./migrations/030_tax_exemptions.ts";
import * as orderTaxLines from "./migrations/031_order_tax_lines.ts";
import * as productTaxRules from "./migrations/032_product_tax_rules.ts";
import * as marketPrices from "./migrations/033_market_prices.ts";
import * as invoiceDueIndex from "./migrations/034_invoice_due_index.ts";
import * as shopperMarkets from "./migrations/035_shopper_markets.ts";

type DialectMigration = { up(db: Kysely<any>, kind: DbKind): Promise<void> };

/** Ordered list: append new migrations, never reorder or edit shipped ones. */
const migrations: Record<string, DialectMigration> = {
  "001_catalog": catalog,
  "002_auth": auth,
  "003_mail": mail,
  "004_search": search,
  "005_shopping": shopping,
  "006_indexes": indexes,
  "007_jobs": jobs,
  "008_order_holds": orderHolds,
  "009_privacy": privacy,
  "010_back_office": backOffice,
  "011_back_office_indexes": backOfficeIndexes,
  "012_payments": payments,
  "013_trade": trade,
  "014_trade_orders": tradeOrders,
  "015_invoices": invoices,
  "016_saved_lists": savedLists,
  "017_quotes": quotes,
  "018_search_words": searchWords,
  "019_catalog_version_stripes": catalogVersionStripes,
  "020_partial_order_indexes": partialOrderIndexes,
  "021_stock_search_trigger": stockSearchTrigger,
  "022_search_match_index": searchMatchIndex,
  "023_search_cells_version": searchCellsVersion,
  "024_search_postings": searchPostings,
  "025_search_words_version": searchWordsVersion,
  "026_second_factor_codes": secondFactorCodes,
  "027_guest_hold_clients": guestHoldClients,
  "028_search_schema_repair": searchSchemaRepair,
  "029_us_sales_tax": usSalesTax,
  "030_tax_exemptions": taxExemptions,
  "031_order_tax_lines": orderTaxLines,
  "032_product_tax_rules": productTaxRules,
  "033_market_prices": marketPrices,
  "034_invoice_due_index": invoiceDueIndex,
  "035_shopper_markets": shopperMarkets,
};

function staticProvider(kind: DbKind): MigrationProvider {
  return {
    getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(migrations)) out[name] = { up: (db) => m.up(db, kind) };
      return Promise.resolve(out);
    },
  };
}

export async function migrateToLatest(db: Db): Promise<void> {
  const kind = dbKind(db);
  // On PostgreSQL, keep the migration bookkeeping in the connection's own schema, so several
  // schemas in one database (tests, side-by-side installs) never see each other's.
  const schema =
    kind === "postgres" ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider: staticProvider(kind), migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}

/** Names of migrations this build knows that the database has not run yet (readiness check). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const kind = dbKind(db);
  const schema =
    kind === "postgres" ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider: staticProvider(kind), migrationTableSchema: schema });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}
