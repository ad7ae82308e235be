import { describe, expect, it } from "vitest";
import { DomainError } from "../../server/errors.ts";
import {
  listQuantity,
  parseLineColor,
  parseListName,
  parseListQuantity,
  QUANTITY_MESSAGE,
} from "../../server/trade/saved-list-rules.ts";

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("a saved list's name", () => {
  it("is trimmed, with inner runs of white space made one space", () => {
    expect(parseListName("  Van \t  restock  ")).toBe("Van restock");
    expect(parseListName("Site B — 2nd fix")).toBe("Site B — 2nd fix");
  });

  it("holds 1 to 80 characters, counted as the buyer sees them", () => {
    expect(parseListName("x".repeat(80))).toHaveLength(80);
    expect(parseListName("🔧".repeat(80))).toBe("🔧".repeat(80));
    expect(refusal(() => parseListName("x".repeat(81)))).toEqual({
      code: "LIST_NAME_TOO_LONG",
      message: "A list name can be at most 80 characters.",
    });
    expect(refusal(() => parseListName("   "))).toMatchObject({ code: "LIST_NAME_REQUIRED" });
    expect(refusal(() => parseListName(null))).toMatchObject({ code: "LIST_NAME_REQUIRED" });
  });

  it("refuses control characters such as a NUL", () => {
    expect(refusal(() => parseListName("Van\u0000restock"))).toMatchObject({ code: "LIST_NAME_INVALID" });
    expect(refusal(() => parseListName("Van\u007f"))).toMatchObject({ code: "LIST_NAME_INVALID" });
  });
});

describe("a saved list line's quantity", () => {
  it("is a whole number from 1 to 9,999", () => {
    expect(parseListQuantity("1")).toBe(1);
    expect(parseListQuantity(" 9999 ")).toBe(9999);
    expect(parseListQuantity(250)).toBe(250);
    for (const bad of ["0", "10000", "-1", "1.5", "1e3", "", "abc", "0x10", null, undefined, 3.5])
      expect(parseListQuantity(bad)).toBeNull();
  });

  it("is refused with a message that says what to type", () => {
    expect(listQuantity("12")).toBe(12);
    expect(refusal(() => listQuantity("0"))).toEqual({ code: "LIST_QUANTITY_INVALID", message: QUANTITY_MESSAGE });
    expect(QUANTITY_MESSAGE).toBe("Give the quantity as a whole number from 1 to 9,999.");
  });
});

describe("a line's color from a form", () => {
  it("is any short text without control characters", () => {
    expect(parseLineColor("")).toBe("");
    expect(parseLineColor("Yellow")).toBe("Yellow");
    expect(parseLineColor("x".repeat(65))).toBeNull();
    expect(parseLineColor("Red\u0000")).toBeNull();
    expect(parseLineColor(null)).toBeNull();
  });
});
