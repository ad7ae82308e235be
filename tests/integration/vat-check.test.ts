import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkUkVatNumber, vatCheckText, vatRegistrationNumber } from "../../server/tax/vat-check.ts";
import { startVatCheckStandIn } from "../support/fake-services.mjs";

describe("HMRC's VAT number check, against its stand-in", () => {
  let standIn: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    standIn = await startVatCheckStandIn(0);
  });
  afterAll(() => standIn?.close());

  it("says whose a registered number is, and that an unknown one is not registered", async () => {
    expect(await checkUkVatNumber("GB123456789", standIn.url)).toEqual({
      status: "registered",
      name: "Acme Builders Ltd",
    });
    expect(await checkUkVatNumber("GB 987 6543 21", `${standIn.url}/`)).toEqual({
      status: "registered",
      name: "Hammer & Sons Ltd",
    });
    expect(await checkUkVatNumber("GB111111111", standIn.url)).toEqual({ status: "not-registered" });
  });

  it("is unavailable when HMRC fails or can't be reached, and not checked without a URL or for GD/HA numbers", async () => {
    expect(await checkUkVatNumber("GB999999999", standIn.url)).toEqual({ status: "unavailable" });
    expect(await checkUkVatNumber("GB123456789", "http://127.0.0.1:9")).toEqual({ status: "unavailable" });
    const notJson: typeof fetch = async () => new Response("<html>", { status: 200 });
    expect(await checkUkVatNumber("GB123456789", standIn.url, notJson)).toEqual({ status: "unavailable" });
    expect(await checkUkVatNumber("GB123456789", undefined)).toEqual({ status: "not-checked" });
    expect(await checkUkVatNumber("GBGD001", standIn.url)).toEqual({ status: "not-checked" });
  });

  it("looks up only the digits, and words each outcome for staff", () => {
    expect(
      ["GB123456789", "gb 123 456 789 012", "123456789", "GBHA500", "GB12345", "12-3456789"].map(vatRegistrationNumber),
    ).toEqual(["123456789", "123456789012", "123456789", null, null, null]);
    expect(vatCheckText({ status: "registered", name: "Acme Ltd" })).toBe("HMRC: registered to Acme Ltd");
    expect(vatCheckText({ status: "not-registered" })).toBe("HMRC: not a registered VAT number");
  });
});
