/**
 * The currency of the amounts in a part of the page: an order's (every order records its own) or,
 * elsewhere, the page's market's (the site frame sets it). Components inside write amounts with
 * <Money> or useMoney().
 */
import { createContext, useContext, type ReactNode } from "react";
import { formatMoney, type Currency } from "../../lib/money.ts";

const CurrencyContext = createContext<Currency>("usd");

export function InCurrency({ currency, children }: { currency: Currency; children: ReactNode }) {
  return <CurrencyContext value={currency}>{children}</CurrencyContext>;
}

/** The currency of the part of the page it is called in. */
export function useCurrency(): Currency {
  return useContext(CurrencyContext);
}

/** Writes minor units in the currency of the part of the page it is called in. */
export function useMoney(): (minor: number) => string {
  const currency = useCurrency();
  return (minor) => formatMoney(minor, currency);
}

/** An amount in minor units, in the currency of the part of the page it is in. */
export function Money({ minor }: { minor: number }) {
  return useMoney()(minor);
}
