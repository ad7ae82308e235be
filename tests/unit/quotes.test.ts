import { describe, expect, it } from "vitest";
import {
  mayRequestQuote,
  parseQuotedPrice,
  parseValidUntil,
  QUOTE_MIN_UNITS,
  quoteState,
} from "../../app/lib/quotes.ts";

const NOW = new Date("2026-11-26T15:00:00.000Z");

describe("quote rules", () => {
  it("a cart may ask for a quote from QUOTE_MIN_UNITS units, or always for a trade account, never when empty", () => {
    expect(mayRequestQuote({ totalQuantity: QUOTE_MIN_UNITS - 1, lineCount: 3 }, false)).toBe(false);
    expect(mayRequestQuote({ totalQuantity: QUOTE_MIN_UNITS, lineCount: 1 }, false)).toBe(true);
    expect(mayRequestQuote({ totalQuantity: 1, lineCount: 1 }, true)).toBe(true);
    expect(mayRequestQuote({ totalQuantity: 0, lineCount: 0 }, true)).toBe(false);
  });

  it("a quoted quote past the end of its last day is expired; other states are as stored", () => {
    expect(quoteState({ status: "quoted", valid_until: "2026-11-26T23:59:59.999Z" }, NOW)).toBe("quoted");
    expect(quoteState({ status: "quoted", valid_until: "2026-11-25T23:59:59.999Z" }, NOW)).toBe("expired");
    expect(quoteState({ status: "accepted", valid_until: "2020-01-01T23:59:59.999Z" }, NOW)).toBe("accepted");
    expect(quoteState({ status: "requested", valid_until: null }, NOW)).toBe("requested");
  });

  it("valid until: a real date from tomorrow to 90 days ahead, held to the end of that day (UTC)", () => {
    expect(parseValidUntil("2026-11-27", NOW)).toEqual({ iso: "2026-11-27T23:59:59.999Z" });
    expect(parseValidUntil(" 2027-02-24 ", NOW)).toEqual({ iso: "2027-02-24T23:59:59.999Z" });
    expect(parseValidUntil("2027-02-25", NOW)).toEqual({ error: "A quote holds for at most 90 days." });
    expect(parseValidUntil("2026-11-26", NOW)).toEqual({ error: "A quote must hold until tomorrow at least." });
    for (const junk of ["", "tomorrow", "2026-02-30", "2026-13-01", "26-11-30", "2026-11-30T00:00", "2026-11-3\u0000"])
      expect(parseValidUntil(junk, NOW)).toHaveProperty("error");
  });

  it("a quoted price is dollars and cents, above zero and never above the list price", () => {
    expect(parseQuotedPrice("12.5", 2_000)).toEqual({ cents: 1_250 });
    expect(parseQuotedPrice("$1,999.99", 200_000)).toEqual({ cents: 199_999 });
    expect(parseQuotedPrice("20.00", 2_000)).toEqual({ cents: 2_000 });
    expect(parseQuotedPrice("20.01", 2_000)).toEqual({ error: "A quoted price can't be above the list price." });
    for (const junk of ["0", "0.00", "-1", "abc", "1.234", "", "1e3"])
      expect(parseQuotedPrice(junk, 2_000)).toEqual({ error: "Enter a price per unit in dollars, like 12.50." });
  });
});
