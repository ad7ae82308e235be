// Tables of trade accounts (migration 013_trade; server/trade/), merged into Database.
import type { Generated } from "kysely";

export interface VolumeBreakTable {
  product_id: number;
  min_quantity: number;
  percent_off: number;
}

export interface PriceListTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface PriceListRuleTable {
  price_list_id: number;
  /** "all", "category:<id>" or "product:<id>". */
  target: string;
  percent_off: number | null;
  fixed_cents: number | null;
}

type TradeApplicationStatus = "pending" | "approved" | "rejected";

interface BillingColumns {
  country: "US" | "GB";
  /** A UK VAT number (GB + 9 or 12 digits) or a US EIN (NN-NNNNNNN), normalized. */
  tax_id: string;
  billing_line1: string;
  billing_line2: string | null;
  billing_city: string;
  billing_region: string | null;
  billing_postcode: string;
  phone: string;
}

export interface TradeApplicationTable extends BillingColumns {
  id: Generated<number>;
  user_id: string;
  company_name: string;
  status: TradeApplicationStatus;
  /** Staff's reason, sent to the applicant on a rejection. */
  reason: string | null;
  created_at: string;
  decided_at: string | null;
  /** The deciding staff member's user id. */
  decided_by: string | null;
  organization_id: string | null;
}

export interface CompanyTable extends BillingColumns {
  /** Better Auth's organization id (members, roles and invitations live there). */
  organization_id: string;
  application_id: number;
  name: string;
  price_list_id: number | null;
  /** 1 when every order must carry a purchase-order number. */
  po_required: Generated<number>;
  /** 1 when the company may pay by invoice, net 30, up to its credit limit. */
  net30: Generated<number>;
  credit_limit_cents: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Better Auth's organization plugin tables, read by the store (written through the plugin). */
export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  createdAt: Date | string;
}

export interface MemberTable {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date | string;
}

export interface InvitationTable {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  status: string;
  expiresAt: Date | string;
  inviterId: string;
  createdAt: Date | string;
}

/** A member's most per order; above it the order waits for an approver. */
export interface SpendingLimitTable {
  organization_id: string;
  user_id: string;
  per_order_cents: number;
  updated_by: string;
  updated_at: string;
}

export interface OrderApprovalTable {
  order_id: number;
  organization_id: string;
  buyer_user_id: string;
  /** The buyer's limit when the order was sent for approval. */
  limit_cents: number;
  decision: "approved" | "rejected" | null;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
  created_at: string;
}

export interface InvoiceSequenceTable {
  name: string;
  last_number: number;
}

export interface InvoiceTable {
  id: Generated<number>;
  /** INV-000001, from the gap-free invoice_sequence. */
  number: string;
  order_id: number;
  organization_id: string | null;
  issued_at: string;
  /** Net-30 invoices: when payment is due; null when paid up front or due on delivery. */
  due_at: string | null;
  total_cents: number;
  /** void: the order was cancelled, so nothing is owed. */
  status: "unpaid" | "paid" | "void";
  paid_at: string | null;
}

/** A customer's named list (migration 016_saved_lists); shared with a company when organization_id is set. */
export interface SavedListTable {
  id: Generated<number>;
  /** The owner: only they change the list. */
  user_id: string;
  /** The company it is shared with (its members see it and add it to their carts), or null. */
  organization_id: string | null;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface SavedListLineTable {
  list_id: number;
  product_id: number;
  color: Generated<string>;
  quantity: number;
  created_at: string;
}

declare module "./schema.ts" {
  interface OrderLineTable {
    /** The line's list price when ordered (null on lines from before invoices). */
    list_price_cents: number | null;
  }
  interface OrderTable {
    po_number: string | null;
    /** The trade company the order was placed for (a member's order). */
    organization_id: string | null;
  }
  interface Database {
    spending_limits: SpendingLimitTable;
    invoice_sequence: InvoiceSequenceTable;
    invoices: InvoiceTable;
    saved_lists: SavedListTable;
    saved_list_lines: SavedListLineTable;
    order_approvals: OrderApprovalTable;
    volume_breaks: VolumeBreakTable;
    price_lists: PriceListTable;
    price_list_rules: PriceListRuleTable;
    trade_applications: TradeApplicationTable;
    companies: CompanyTable;
    organization: OrganizationTable;
    member: MemberTable;
    invitation: InvitationTable;
  }
}
