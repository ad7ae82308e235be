import { describe, expect, it } from "vitest";
import {
  cancelSchema,
  orderFilterSchema,
  orderNumberSchema,
  returnFormInput,
  returnSchema,
  shipSchema,
} from "../../app/lib/order-admin-schema.ts";
import { orderCancelledMail, orderReturnMail, orderShippedMail } from "../../server/orders/mails.ts";
import { refusal } from "../../server/orders/staff-order.ts";

describe("the back office's order forms", () => {
  it("ship: a known carrier and a tracking number without spaces, upper-cased", () => {
    expect(shipSchema.parse({ version: "3", carrier: "Royal Mail", trackingNumber: " rm 1234 5678 gb " })).toEqual({
      version: 3,
      carrier: "Royal Mail",
      trackingNumber: "RM12345678GB",
    });
    for (const bad of [
      { version: "3", carrier: "Royal Mail", trackingNumber: "abc" },
      { version: "3", carrier: "royal mail", trackingNumber: "ABCD1234" },
      { version: "3", carrier: "DPD", trackingNumber: "ABCD_1234" },
      { version: "3.5", carrier: "DPD", trackingNumber: "ABCD1234" },
      { version: "", carrier: "DPD", trackingNumber: "ABCD1234" },
      { version: "12345678901", carrier: "DPD", trackingNumber: "ABCD1234" },
    ]) {
      expect(shipSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("cancel: the reason is optional, one blank is none, and it has a limit", () => {
    expect(cancelSchema.parse({ version: 0 })).toEqual({ version: 0, reason: null });
    expect(cancelSchema.parse({ version: 0, reason: "   " })).toEqual({ version: 0, reason: null });
    expect(cancelSchema.parse({ version: 0, reason: " Duplicate order\nplaced twice " }).reason).toBe(
      "Duplicate order\nplaced twice",
    );
    expect(cancelSchema.safeParse({ version: 0, reason: "x".repeat(501) }).success).toBe(false);
  });

  it("return: reads one qty-<line id> field per line; blank is zero; at least one unit; yes/no restock", () => {
    const form = new FormData();
    form.set("version", "7");
    form.set("reason", "Faulty");
    form.set("restock", "no");
    form.set("qty-11", "2");
    form.set("qty-12", "");
    form.set("qty-x", "9");
    form.set("note", "");
    expect(returnSchema.parse(returnFormInput(form))).toEqual({
      version: 7,
      reason: "Faulty",
      restock: false,
      note: null,
      lines: [
        { lineId: 11, quantity: 2 },
        { lineId: 12, quantity: 0 },
      ],
    });
    form.set("qty-11", "0");
    const none = returnSchema.safeParse(returnFormInput(form));
    expect(none.success).toBe(false);
    expect(none.error!.issues[0].message).toBe("Enter how many units of at least one line came back.");
    form.set("qty-11", "1");
    form.delete("restock");
    expect(returnSchema.safeParse(returnFormInput(form)).error!.issues[0].path).toEqual(["restock"]);
  });

  it("order numbers: with or without the TH- prefix, any case", () => {
    expect(orderNumberSchema.parse("th-00ab12cd34")).toBe("TH-00AB12CD34");
    expect(orderNumberSchema.parse(" 00ab12cd34 ")).toBe("TH-00AB12CD34");
    for (const bad of ["TH-00AB12CD3", "TH-00AB12CD34X", "XX-00AB12CD34", "", "'; DROP TABLE orders; --"])
      expect(orderNumberSchema.safeParse(bad).success, bad).toBe(false);
  });

  it("list filters: blanks are no filter; impossible dates and reversed ranges are refused", () => {
    expect(orderFilterSchema.parse({ status: "", from: "", email: "  ", country: "GB" })).toEqual({ country: "GB" });
    expect(orderFilterSchema.parse({ email: " Ada@Example.COM " }).email).toBe("ada@example.com");
    expect(orderFilterSchema.safeParse({ from: "2025-02-29" }).success).toBe(false);
    expect(orderFilterSchema.safeParse({ from: "2024-02-29" }).success).toBe(true);
    expect(orderFilterSchema.safeParse({ from: "2025-03-02", to: "2025-03-01" }).success).toBe(false);
    expect(orderFilterSchema.safeParse({ after: "2025-03-01T10:00:00.000Z~12" }).success).toBe(true);
    expect(orderFilterSchema.safeParse({ after: "x'~1" }).success).toBe(false);
  });
});

describe("the order mails", () => {
  const order = {
    number: "TH-00AB12CD34",
    email: "ada@example.com",
    ship_name: "Ada <b>Buyer</b>",
    link: "https://shop.example/account/orders/TH-00AB12CD34",
  };

  it("the shipped mail names the carrier and tracking number and links to the order page", () => {
    const mail = orderShippedMail(order, { carrier: "DPD", trackingNumber: "155012345678" });
    expect(mail.subject).toBe("Your order TH-00AB12CD34 has shipped");
    expect(mail.text).toContain("Carrier: DPD\nTracking number: 155012345678");
    expect(mail.text).toContain(order.link);
    expect(mail.html).toContain("Ada &lt;b&gt;Buyer&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>Buyer</b>");
  });

  it("cancellation and return mails carry the reason given", () => {
    expect(orderCancelledMail(order, { reason: "Duplicate" }).text).toContain("Reason: Duplicate");
    expect(orderCancelledMail(order, { reason: null }).text).not.toContain("Reason:");
    const partial = orderReturnMail(order, {
      reason: "Faulty",
      complete: false,
      lines: [{ title: "Drill", color: "Red", quantity: 2 }],
    });
    expect(partial.subject).toBe("We received a return from your order TH-00AB12CD34");
    expect(partial.text).toContain("2 × Drill (Red)");
    expect(orderReturnMail(order, { reason: "Faulty", complete: true, lines: [] }).subject).toBe(
      "We received the return of your order TH-00AB12CD34",
    );
  });
});

describe("refused moves", () => {
  it.each([
    ["shipped", "cancel", /already been shipped, so it can't be cancelled/],
    ["delivered", "cancel", /already been delivered/],
    ["shipped", "ship", /already been shipped/],
    ["placed", "ship", /Pack this order before you ship it/],
    ["packed", "return", /Nothing has been shipped yet/],
    ["cancelled", "pack", /was cancelled/],
    ["expired", "pack", /never confirmed/],
  ] as const)("%s → %s says why", (status, action, message) => {
    const error = refusal(status, action);
    expect(error.status).toBe(409);
    expect(error.message).toMatch(message);
  });
});
