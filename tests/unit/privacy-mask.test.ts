import { describe, expect, it } from "vitest";
import { maskAddress, maskAddressesIn, postcodeDistrict } from "../../server/privacy/mask.ts";

describe("maskAddress", () => {
  it("keeps only the domain, lower-cased", () => {
    expect(maskAddress("ada@Example.COM")).toBe("***@example.com");
    expect(maskAddress('"Ada, L" <ada@example.co.uk>')).toBe("***@example.co.uk");
    expect(maskAddress("odd@@twice@host.io")).toBe("***@host.io");
  });
  it("leaves nothing of a value that is not an address", () => {
    expect(maskAddress("no-at-sign")).toBe("***");
    expect(maskAddress("trailing@")).toBe("***");
    expect(maskAddress("")).toBe("***");
  });
});

describe("maskAddressesIn", () => {
  it("masks every address in free text and leaves the rest", () => {
    expect(maskAddressesIn("550 5.1.1 <ada@example.com>: unknown; cc bob.smith+x@Mail.Example.org")).toBe(
      "550 5.1.1 <***@example.com>: unknown; cc ***@mail.example.org",
    );
    expect(maskAddressesIn("connection reset by peer")).toBe("connection reset by peer");
  });
});

describe("postcodeDistrict", () => {
  it("keeps a UK outward code", () => {
    expect(postcodeDistrict("GB", "SW1A 1AA")).toBe("SW1A");
    expect(postcodeDistrict("GB", "m11ae")).toBe("M1");
    expect(postcodeDistrict("GB", "GIR 0AA")).toBe("GIR");
  });
  it("keeps the first three digits of a US ZIP", () => {
    expect(postcodeDistrict("US", "10001")).toBe("100");
    expect(postcodeDistrict("US", "94103-1234")).toBe("941");
  });
  it("keeps nothing it cannot read or for other countries", () => {
    expect(postcodeDistrict("US", "ABCDE")).toBe("");
    expect(postcodeDistrict("GB", "1AA")).toBe("");
    expect(postcodeDistrict("FR", "75001")).toBe("");
  });
});
