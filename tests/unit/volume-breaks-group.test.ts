import { describe, expect, it } from "vitest";
import { groupVolumeBreaks } from "../../server/trade/prices.ts";

describe("volume breaks read with the cart's lines", () => {
  it("skips products without breaks, merges a break repeated for each colour, and orders by quantity", () => {
    const rows = [
      { product_id: 1, min_quantity: 50, percent_off: 10 },
      { product_id: 1, min_quantity: 10, percent_off: 5 },
      { product_id: 2, min_quantity: null, percent_off: null },
      { product_id: 1, min_quantity: 10, percent_off: 5 },
      { product_id: 1, min_quantity: 50, percent_off: 10 },
    ];
    expect([...groupVolumeBreaks(rows)]).toEqual([
      [
        1,
        [
          { minQuantity: 10, percentOff: 5 },
          { minQuantity: 50, percentOff: 10 },
        ],
      ],
    ]);
  });
});
