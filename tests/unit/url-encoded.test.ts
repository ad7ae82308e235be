import { describe, expect, it } from "vitest";
import { urlEncoded } from "../../app/lib/url-encoded.ts";

describe("urlEncoded", () => {
  it("keeps every text field in order, repeated names included, and leaves files out", () => {
    const form = new FormData();
    form.append("productId", "7");
    form.append("color", "Red & Black");
    form.append("color", "Blue");
    form.append("photo", new Blob(["x"]), "x.png");
    expect(urlEncoded(form).toString()).toBe("productId=7&color=Red+%26+Black&color=Blue");
  });
});
