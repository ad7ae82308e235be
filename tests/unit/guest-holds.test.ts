import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { guestHoldClient, guestHoldMessage, guestHoldRefusal } from "../../server/orders/guest-holds.ts";
import { clientKey } from "../../server/security/rate-limit.ts";

/** Issue 48, item 7: the rule that caps the units guests' unconfirmed or unpaid orders hold at once. */
describe("the cap on guests' held units", () => {
  const caps = { perClient: 400, perEmail: 200 };

  it("lets an order in while it fits under both caps, up to exactly each cap", () => {
    expect(guestHoldRefusal({ units: 1, heldByEmail: 0, heldByClient: 0 }, caps)).toBeNull();
    expect(guestHoldRefusal({ units: 200, heldByEmail: 0, heldByClient: 200 }, caps)).toBeNull();
    expect(guestHoldRefusal({ units: 50, heldByEmail: 150, heldByClient: 350 }, caps)).toBeNull();
  });

  it("refuses one unit over the email's cap, and names it before the network's", () => {
    expect(guestHoldRefusal({ units: 51, heldByEmail: 150, heldByClient: 0 }, caps)).toEqual({
      cap: "email",
      held: 150,
      limit: 200,
    });
    expect(guestHoldRefusal({ units: 51, heldByEmail: 150, heldByClient: 390 }, caps)).toEqual({
      cap: "email",
      held: 150,
      limit: 200,
    });
  });

  it("refuses one unit over the network's cap", () => {
    expect(guestHoldRefusal({ units: 51, heldByEmail: 0, heldByClient: 350 }, caps)).toEqual({
      cap: "client",
      held: 350,
      limit: 400,
    });
  });

  it("refuses an order above the smaller cap on its own, whatever is held", () => {
    expect(guestHoldRefusal({ units: 201, heldByEmail: 0, heldByClient: 0 }, caps)).toEqual({
      cap: "order",
      held: 0,
      limit: 200,
    });
    expect(guestHoldRefusal({ units: 31, heldByEmail: 0, heldByClient: 0 }, { perClient: 30, perEmail: 100 })).toEqual({
      cap: "order",
      held: 0,
      limit: 30,
    });
  });

  it("says which cap, how much is held, and what to do; the checkout adds that the form is still filled in", () => {
    expect(guestHoldMessage({ cap: "email", held: 1_150, limit: 1_200 }, "checkout")).toBe(
      "Your orders with this email address that are waiting for confirmation or payment already hold 1,150 units, and orders placed without an account can hold at most 1,200 at a time. " +
        "Confirm or pay for the orders you already placed (the links are in our emails), or log in to order more; an order not confirmed or paid in time is released and stops counting. Your details are still filled in below.",
    );
    expect(guestHoldMessage({ cap: "client", held: 350, limit: 400 }, "order-page")).toBe(
      "Orders placed from your network that are waiting for confirmation or payment already hold 350 units, and orders placed without an account can hold at most 400 at a time. " +
        "Confirm or pay for the orders you already placed (the links are in our emails), or log in to order more; an order not confirmed or paid in time is released and stops counting.",
    );
    expect(guestHoldMessage({ cap: "order", held: 0, limit: 200 }, "order-page")).toBe(
      "An order placed without an account can hold at most 200 units while it waits for confirmation or payment. Log in and order again to buy this many.",
    );
  });

  it("stores a network as a hash of its limiter key: every host of a /64 alike, another /64 not, no address readable", () => {
    const a = guestHoldClient(clientKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
    expect(a).toBe(guestHoldClient(clientKey("2001:db8:1:2::1")));
    expect(a).not.toBe(guestHoldClient(clientKey("2001:db8:1:3::1")));
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(guestHoldClient(clientKey("::ffff:192.0.2.1"))).toBe(guestHoldClient("192.0.2.1"));
  });
});

describe("configuration of the caps", () => {
  it("reads GUEST_HOLD_IP_UNITS and GUEST_HOLD_EMAIL_UNITS, 400 and 200 by default", () => {
    expect(loadConfig({})).toMatchObject({
      GUEST_HOLD_IP_UNITS: 400,
      GUEST_HOLD_EMAIL_UNITS: 200,
    });
    expect(loadConfig({ GUEST_HOLD_IP_UNITS: "30", GUEST_HOLD_EMAIL_UNITS: "12" })).toMatchObject({
      GUEST_HOLD_IP_UNITS: 30,
      GUEST_HOLD_EMAIL_UNITS: 12,
    });
  });

  it.each([
    ["GUEST_HOLD_IP_UNITS", "0"],
    ["GUEST_HOLD_IP_UNITS", "many"],
    ["GUEST_HOLD_EMAIL_UNITS", "-5"],
    ["GUEST_HOLD_EMAIL_UNITS", "2.5"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
