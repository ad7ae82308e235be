import { MARKETS, type Market } from "../../../lib/markets.ts";
import { CURRENCY_NAMES, formatMoney } from "../../../lib/money.ts";
import { ListTable } from "../list/ListTable.tsx";

const PRICE_MODES = { inclusive: "Include VAT", exclusive: "Before sales tax" } as const;

/** The store's markets as app/lib/markets.ts defines them: what each sells in and how it prices. */
export function MarketsTable() {
  return (
    <ListTable<Market>
      caption="The store's markets"
      captionVisible
      rows={Object.values(MARKETS)}
      rowKey={(m) => m.id}
      columns={[
        { header: "Market", cell: (m) => m.name, rowHeader: true },
        { header: "Delivers to", cell: (m) => m.countries.join(", ") },
        { header: "Currency", cell: (m) => CURRENCY_NAMES[m.currency] },
        { header: "Prices", cell: (m) => PRICE_MODES[m.priceMode] },
        {
          header: "Member discount from",
          cell: (m) => formatMoney(m.memberDiscountThresholdMinor, m.currency),
        },
      ]}
    />
  );
}
