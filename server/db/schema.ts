import type { MarketId } from "../../app/lib/markets.ts";
import type { Generated, Insertable, Selectable } from "kysely";
import type { OrderTaxBasis } from "./schema-tax.ts";
import type { VatClass } from "../../app/lib/product-tax.ts";

interface CategoryTable {
  id: Generated<number>;
  name: string;
  slug: string;
  position: number;
}

interface BrandTable {
  id: Generated<number>;
  name: string;
  slug: string;
  position: number;
}

interface ProductTable {
  id: Generated<number>;
  slug: string;
  sku: string;
  title: string;
  description: string;
  /** JSON array of strings. */
  features: string;
  price_cents: number;
  /** Whole percent (1–90), or null when the product is not discounted. */
  discount_percent: number | null;
  /** Price after discount, kept in step with price_cents and discount_percent (see app/lib/pricing). */
  sale_price_cents: number;
  /** JSON array of color names. */
  colors: string;
  stock_quantity: number;
  brand_id: number;
  category_id: number;
  model: string;
  material: string;
  weight_grams: number;
  country_of_origin: string;
  manufacturer: string;
  return_policy: string;
  /** Number of generated images (1–4), served at /images/products/:id/:n.svg. */
  image_count: number;
  /** 1–5, spec shows five stars on every card; kept for a future review system. */
  rating: number;
  featured: number;
  created_at: string;
  /** Archived products leave the shop, search and sitemap; old orders still show them (migration 010). */
  archived_at: string | null;
  /** The back office lists the product as low on stock at or below this. */
  low_stock_threshold: Generated<number>;
  updated_at: string | null;
  /** Its UK VAT rate class (migration 032): standard, reduced or zero. */
  vat_class: Generated<VatClass>;
  /** 1 when a Californian is shown a Proposition 65 warning before paying for it. */
  prop65: Generated<number>;
  /** Its UK price in pence (migration 033): set by staff, or derived from price_cents by market_price_rules. */
  uk_price_pence: Generated<number>;
  /** The UK price after discount_percent (app/lib/pricing). */
  uk_sale_price_pence: Generated<number>;
  /** 1 when staff set the UK price; 0 when the market's rule derives it from the US price. */
  uk_price_set: Generated<number>;
}

export interface Database {
  categories: CategoryTable;
  brands: BrandTable;
  products: ProductTable;
}

export type NewProduct = Insertable<ProductTable>;

// ---- Mail queue, newsletter and contact messages (issue 6; migration 003_mail) ----
// Declared as a merged `Database` interface so this block stays self-contained.

export type MailStatus = "queued" | "sending" | "transmitting" | "sent" | "failed" | "unknown";

export interface MailQueueTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  reply_to: string | null;
  /** JSON object of extra header name → value. */
  headers: string;
  message_id: string;
  status: MailStatus;
  attempts: number;
  /** ISO-8601 UTC. */
  next_attempt_at: string;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  /** When the retention job or an account deletion blanked the body and masked the address (migration 009). */
  body_erased_at: string | null;
}

export type NewsletterStatus = "pending" | "confirmed" | "unsubscribed";

interface NewsletterSubscriberTable {
  id: Generated<number>;
  email: string;
  status: NewsletterStatus;
  confirm_token_hash: string | null;
  confirm_expires_at: string | null;
  unsubscribe_token: string;
  created_at: string;
  updated_at: string;
  confirmation_sent_at: string | null;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
}

interface ContactMessageTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  ip: string | null;
  created_at: string;
  /** The back office's marks (migration 010). handled_by: the staff member's user id. */
  handled_at: string | null;
  handled_by: string | null;
  replied_at: string | null;
}

export interface Database {
  mail_queue: MailQueueTable;
  newsletter_subscribers: NewsletterSubscriberTable;
  contact_messages: ContactMessageTable;
}

export type MailRow = Selectable<MailQueueTable>;
export type NewsletterSubscriberRow = Selectable<NewsletterSubscriberTable>;
export type ContactMessageRow = Selectable<ContactMessageTable>;
// ---- end of issue 6 block ----

// ---- Product search (issue 5; migration 004_search; docs/decisions/0003-search.md) ----
// Kept in step with products by triggers (search_products) or rebuilt by the seed (search_terms).
// PostgreSQL also has search_products.document (tsvector); SQLite has the FTS5 table products_fts.

interface SearchProductTable {
  product_id: number;
  category_id: number;
  brand_id: number;
  sale_price_cents: number;
  discount_percent: number | null;
  stock_quantity: number;
  created_at: string;
  title: string;
}

interface SearchTermTable {
  term: string;
  /** Porter stem of term. */
  stem: string;
  /** Products that use the word anywhere. */
  doc_count: number;
  /** Products that use it in the title, brand or category. */
  title_count: number;
  trigram_count: number;
}

/** SQLite only: the trigrams of each vocabulary word (PostgreSQL uses a pg_trgm index instead). */
interface SearchTermTrigramTable {
  trigram: string;
  term: string;
}

export interface Database {
  search_products: SearchProductTable;
  search_terms: SearchTermTable;
  search_term_trigrams: SearchTermTrigramTable;
}
// ---- end of issue 5 block ----

// ---- Cart, wishlist and orders (issue 4; migration 005_shopping) ----
// An owner is "u:<user id>" for a signed-in shopper or "g:<guest id>" for the guest cookie.

interface CartItemTable {
  owner: string;
  product_id: number;
  color: string;
  quantity: number;
  /** Unit price when the line was added, to flag later price changes. */
  seen_price_cents: number;
  /** The market that price is in (migration 035): a change is flagged only within it. */
  seen_market: Generated<MarketId>;
  created_at: string;
  updated_at: string;
}

interface WishlistItemTable {
  owner: string;
  product_id: number;
  color: string;
  created_at: string;
}

// The states' values live in server/orders/statuses.ts, their moves in server/orders/states.ts (migration 008 added version and holds).
import type { OrderStatus, PaymentStatus } from "../orders/statuses.ts";
export type { OrderStatus, PaymentStatus };

/** @public Widened by `declare module` in schema-trade.ts and guest-holds.ts. */
export interface OrderTable {
  id: Generated<number>;
  number: string;
  /** Unguessable token for the guest's order link. */
  access_token: string;
  /** Idempotency key from the checkout form. */
  checkout_token: string;
  user_id: string | null;
  email: string;
  status: OrderStatus;
  payment_method: string;
  payment_status: PaymentStatus;
  business_name: string | null;
  tax_number: string | null;
  ship_name: string;
  ship_line1: string;
  ship_line2: string | null;
  ship_city: string;
  ship_region: string | null;
  ship_postcode: string;
  ship_country: string;
  subtotal_cents: number;
  member_discount_cents: number;
  shipping_cents: number;
  /** Sales tax added to the total (US); 0 where tax is inside the prices. Its lines: order_tax_lines. */
  tax_cents: number;
  total_cents: number;
  created_at: string;
  /** Why the order holds the tax it does (migration 031; schema-tax.ts), null before tax lines were kept. */
  tax_basis: OrderTaxBasis | null;
  /** The US state whose tax rules applied, by the delivery ZIP code. */
  tax_state: string | null;
  /** The verified exemption certificate that removed the sales tax. */
  tax_certificate_id: number | null;
  /** 1 when the checkout showed California's Proposition 65 warning before the order was placed (migration 032). */
  prop65_warned: Generated<number>;
  /** Bumped by every status change (server/orders/states.ts). */
  version: Generated<number>;
  /** ISO-8601 UTC; while the order holds stock awaiting confirmation or payment. */
  hold_expires_at: string | null;
  /** SHA-256 (hex) of the token in a guest's confirmation link. */
  confirm_token_hash: string | null;
  /** Set when the order is shipped (migration 010). */
  carrier: string | null;
  tracking_number: string | null;
  updated_at: string | null;
  /** Card payments (migration 012; server/payments/). */
  cart_owner: string | null;
  payment_session_id: string | null;
  payment_session_expires_at: string | null;
  payment_attempts: Generated<number>;
  payment_intent_id: string | null;
  paid_cents: number | null;
  paid_at: string | null;
  refunded_cents: Generated<number>;
  payment_flag: string | null;
}

/** @public Widened by `declare module` in schema-trade.ts. */
export interface OrderLineTable {
  id: Generated<number>;
  order_id: number;
  product_id: number;
  title: string;
  color: string;
  quantity: number;
  unit_price_cents: number;
  line_total_cents: number;
}

export interface Database {
  cart_items: CartItemTable;
  wishlist_items: WishlistItemTable;
  orders: OrderTable;
  order_lines: OrderLineTable;
}
// ---- end of issue 4 block ----

// ---- Stock ledger (migration 008_order_holds; server/inventory/stock.ts) ----
interface StockMovementTable {
  id: Generated<number>;
  product_id: number;
  /** Negative for a sale. */
  delta: number;
  stock_before: number;
  stock_after: number;
  reason: import("../inventory/stock-reasons.ts").StockReason;
  order_id: number | null;
  actor: string | null;
  note: string | null;
  created_at: string;
}

export interface Database {
  stock_movements: StockMovementTable;
}

// ---- Catalog version (migration 006): bumped when stock or prices change; page caches compare it ----
interface CatalogVersionTable {
  id: number;
  version: number;
}

export interface Database {
  catalog_version: CatalogVersionTable;
}

// ---- Periodic job leases (migration 007_jobs; server/jobs/) ----
interface JobLeaseTable {
  name: string;
  locked_by: string | null;
  /** ISO-8601 UTC; the lease is free once this is in the past. */
  locked_until: string | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_error: string | null;
}

export interface Database {
  job_leases: JobLeaseTable;
}

// ---- Better Auth's own tables (created by server/auth/migrate.ts; camelCase columns) ----
// Dates are ISO strings on SQLite and timestamps on PostgreSQL; booleans are 0/1 on SQLite.
type AuthDate = string | Date;

interface AuthUserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  createdAt: AuthDate;
  updatedAt: AuthDate;
  // Better Auth's admin plugin (server/auth/permissions.ts). role: "customer" | "staff" | "admin";
  // null on accounts created before the plugin, which are customers.
  role: Generated<string | null>;
  banned: Generated<boolean | number | null>;
  banReason: Generated<string | null>;
  banExpires: Generated<AuthDate | null>;
  /** Better Auth's twoFactor plugin: true once a TOTP enrolment was confirmed with a code. */
  twoFactorEnabled: Generated<boolean | number | null>;
}

interface AuthSessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: AuthDate;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: AuthDate;
  updatedAt: AuthDate;
  /** Admin plugin: the admin behind an impersonation session (no role may impersonate today). */
  impersonatedBy: Generated<string | null>;
  /** When this session passed a second factor (server/auth/second-factor.ts). */
  secondFactorAt: Generated<AuthDate | null>;
}

/** Better Auth's twoFactor plugin: one row per enrolled user (secret and backup codes encrypted). */
interface AuthTwoFactorTable {
  id: string;
  secret: string;
  backupCodes: string;
  userId: string;
  verified: Generated<boolean | number | null>;
}

interface AuthAccountTable {
  id: string;
  accountId: string;
  /** "credential" for a password; "google" for Google. */
  providerId: string;
  userId: string;
  password: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  scope: string | null;
  createdAt: AuthDate;
  updatedAt: AuthDate;
}

interface AuthVerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: AuthDate;
  createdAt: AuthDate;
  updatedAt: AuthDate;
}

export interface Database {
  user: AuthUserTable;
  session: AuthSessionTable;
  account: AuthAccountTable;
  verification: AuthVerificationTable;
  twoFactor: AuthTwoFactorTable;
}

// ---- Back office (issue 12; migration 010_back_office) ----
interface ProductImageTable {
  id: Generated<number>;
  product_id: number;
  position: number;
  /** File name stem under UPLOAD_DIR/products; each rendition adds its width and extension. */
  file_key: string;
  width: number;
  height: number;
  created_at: string;
}

export type OrderEventKind = "status" | "return" | "payment" | "note";

interface OrderEventTable {
  id: Generated<number>;
  order_id: number;
  created_at: string;
  actor: string | null;
  kind: OrderEventKind;
  from_status: string | null;
  to_status: string | null;
  /** JSON object. */
  details: string;
}

interface OrderReturnTable {
  id: Generated<number>;
  order_id: number;
  created_at: string;
  actor: string | null;
  reason: string;
  /** 1 when the returned goods went back into stock. */
  restock: number;
  note: string | null;
}

interface OrderReturnLineTable {
  id: Generated<number>;
  return_id: number;
  order_line_id: number;
  quantity: number;
}

interface AuditLogTable {
  id: Generated<number>;
  created_at: string;
  actor_id: string;
  actor_name: string;
  action: string;
  object_type: string;
  object_id: string;
  /** JSON, or null when the object was created. */
  before: string | null;
  /** JSON, or null when the object was removed. */
  after: string | null;
}

export interface Database {
  product_images: ProductImageTable;
  order_events: OrderEventTable;
  order_returns: OrderReturnTable;
  order_return_lines: OrderReturnLineTable;
  audit_log: AuditLogTable;
}

// ---- Card payments (migration 012_payments; server/payments/) ----
interface PaymentEventTable {
  /** Stripe's event id. */
  id: string;
  type: string;
  object_id: string | null;
  order_id: number | null;
  created: number;
  received_at: string;
  outcome: string;
}

type RefundStatus = "pending" | "succeeded" | "failed";

interface PaymentRefundTable {
  id: Generated<number>;
  order_id: number;
  idempotency_key: string;
  stripe_refund_id: string | null;
  amount_cents: number;
  reason: string | null;
  actor: string | null;
  status: RefundStatus;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  payment_events: PaymentEventTable;
  payment_refunds: PaymentRefundTable;
}
export type * from "./schema-trade.ts";
export type * from "./schema-quotes.ts";
export type * from "./schema-tax.ts";
export type * from "./schema-markets.ts";

// ---- Second-factor codes accepted, each once (migration 026; server/auth/code-guard.ts) ----
interface SecondFactorCodeTable {
  /** sha256 of the account, the kind and the code. */
  claim: string;
  user_id: string;
  /** Epoch milliseconds after which the code could no longer be accepted. */
  expires_at: number;
}

export interface Database {
  second_factor_codes: SecondFactorCodeTable;
}
