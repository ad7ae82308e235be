import type { Market } from "../../app/lib/markets.ts";
import type { VatClass } from "../../app/lib/product-tax.ts";
import { allocate, computeTax, formatRate, type TaxItem, type TaxRate, type TaxResult } from "../../app/lib/tax.ts";

/**
 * Which rates apply to an order, by market and delivery address, and the order's tax (issue 51,
 * decision 0049). Plain functions of the tables they are given: the database reads live beside.
 */
const UK_VAT_PPM: Readonly<Record<VatClass, number>> = { standard: 200_000, reduced: 50_000, zero: 0 };

export function ukVatRate(vatClass: VatClass): TaxRate {
  const ratePpm = UK_VAT_PPM[vatClass];
  return { jurisdiction: "GB", label: `VAT ${formatRate(ratePpm)}`, ratePpm };
}

interface UsStateRule {
  code: string;
  name: string;
  ratePpm: number;
  shippingTaxable: boolean;
}

interface UsLocalRate {
  /** The 5-digit ZIP code. */
  zip: string;
  /** The tax region's name, as the imported table gives it. */
  region: string;
  /** Every local rate of the ZIP code together (county, city, special districts). */
  ratePpm: number;
}

export interface UsTaxTables {
  states: ReadonlyMap<string, UsStateRule>;
  /** The states where the store is registered to collect sales tax (chosen by staff). */
  nexus: ReadonlySet<string>;
  local: ReadonlyMap<string, UsLocalRate>;
}

/** A trade company's verified exemption certificate for one state. */
export interface ExemptionCertificate {
  id: number;
  state: string;
  /** The last day it applies, YYYY-MM-DD. */
  expiresOn: string;
}

export type UsTaxBasis =
  | { kind: "collected"; rates: TaxRate[]; shippingTaxable: boolean }
  | { kind: "not-registered"; state: string; stateName: string }
  | { kind: "exempt"; state: string; certificateId: number };

/**
 * Sales tax for a US delivery address: the state's rate and its ZIP code's local rates, where the
 * store is registered in that state and the buyer holds no verified certificate for it that is
 * still valid `today` (YYYY-MM-DD, the store's date).
 */
export function usTaxBasis(
  address: { state: string; zip: string },
  tables: UsTaxTables,
  certificates: readonly ExemptionCertificate[],
  today: string,
): UsTaxBasis {
  const state = tables.states.get(address.state.trim().toUpperCase());
  if (!state) throw new RangeError(`Unknown US state: ${address.state}`);
  if (!tables.nexus.has(state.code)) return { kind: "not-registered", state: state.code, stateName: state.name };
  const certificate = certificates.find((c) => c.state === state.code && c.expiresOn >= today);
  if (certificate) return { kind: "exempt", state: state.code, certificateId: certificate.id };
  const rates: TaxRate[] = [];
  if (state.ratePpm > 0)
    rates.push({
      jurisdiction: `US-${state.code}`,
      label: `${state.name} sales tax ${formatRate(state.ratePpm)}`,
      ratePpm: state.ratePpm,
    });
  const local = tables.local.get(address.zip.trim().slice(0, 5));
  if (local && local.ratePpm > 0)
    rates.push({
      jurisdiction: `US-${state.code}-${local.zip}`,
      label: `Local sales tax ${formatRate(local.ratePpm)} (${local.region})`,
      ratePpm: local.ratePpm,
    });
  return { kind: "collected", rates, shippingTaxable: state.shippingTaxable };
}

export interface OrderTaxLine {
  key: string;
  /** The line's price for all its units, after volume and trade prices, before order discounts. */
  amountMinor: number;
  vatClass: VatClass;
}

export interface OrderTaxInput {
  lines: readonly OrderTaxLine[];
  /** Order-level discounts (member discount, promotions), shared among the lines by value. */
  discountMinor: number;
  shippingMinor: number;
  /** Required in an exclusive-price market: what `usTaxBasis` found for the delivery address. */
  us?: UsTaxBasis;
}

/**
 * An order's tax in its market. Order discounts are shared among the lines by value before tax.
 * UK delivery is taxed at the goods' rates, shared by value where an order mixes rates (HMRC's
 * rule for a mixed supply); US delivery is taxed with the goods where the state taxes delivery.
 */
export function orderTax(market: Market, input: OrderTaxInput): TaxResult {
  const lineAmounts = input.lines.map((l) => l.amountMinor);
  const subtotal = lineAmounts.reduce((s, a) => s + a, 0);
  if (input.discountMinor > subtotal) throw new RangeError("A discount cannot be more than the goods");
  const discounts = input.lines.length ? allocate(input.discountMinor, lineAmounts) : [];
  const goods = input.lines.map((l, i) => ({ line: l, amountMinor: l.amountMinor - discounts[i] }));

  if (market.priceMode === "inclusive") {
    const items: TaxItem[] = goods.map((g) => ({
      key: g.line.key,
      amountMinor: g.amountMinor,
      rates: [ukVatRate(g.line.vatClass)],
    }));
    if (input.shippingMinor > 0) {
      if (!goods.length) throw new RangeError("Delivery needs goods to be taxed with");
      const classes = [...new Set(goods.map((g) => g.line.vatClass))];
      const byClass = classes.map((c) =>
        goods.filter((g) => g.line.vatClass === c).reduce((s, g) => s + g.amountMinor, 0),
      );
      allocate(input.shippingMinor, byClass).forEach((amountMinor, i) =>
        items.push({
          key: classes.length === 1 ? "shipping" : `shipping:${classes[i]}`,
          amountMinor,
          rates: [ukVatRate(classes[i])],
        }),
      );
    }
    return computeTax("inclusive", items);
  }

  if (!input.us) throw new RangeError("A US order's tax needs its delivery address's basis");
  const basis = input.us;
  const goodsRates = basis.kind === "collected" ? basis.rates : [];
  const shippingRates = basis.kind === "collected" && basis.shippingTaxable ? basis.rates : [];
  const items: TaxItem[] = goods.map((g) => ({ key: g.line.key, amountMinor: g.amountMinor, rates: goodsRates }));
  if (input.shippingMinor > 0) items.push({ key: "shipping", amountMinor: input.shippingMinor, rates: shippingRates });
  return computeTax("exclusive", items);
}
