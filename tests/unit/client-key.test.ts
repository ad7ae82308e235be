import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientIp, clientKey, CLIENT_IP_HEADER } from "../../server/security/rate-limit.ts";

describe("clientKey: what a limiter counts an address under", () => {
  it("keeps IPv4 addresses whole and unwraps IPv4-mapped IPv6", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts an IPv6 address as its /64", () => {
    expect(clientKey("2001:db8:1:2:3:4:5:6")).toBe("2001:0db8:0001:0002::/64");
    expect(clientKey("2001:db8:1:2::9")).toBe("2001:0db8:0001:0002::/64");
    expect(clientKey("2001:DB8:1:2:ffff::1")).toBe("2001:0db8:0001:0002::/64");
    expect(clientKey("::1")).toBe("0000:0000:0000:0000::/64");
    expect(clientKey("2001:db8::")).toBe("2001:0db8:0000:0000::/64");
  });

  it("gives every address of one /64 the same key, and different /64s different keys", () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 8, maxLength: 8 }),
        fc.array(group, { minLength: 4, maxLength: 4 }),
        (a, host) => {
          const full = a.join(":");
          const sameNetwork = [...a.slice(0, 4), ...host].join(":");
          expect(clientKey(full)).toBe(clientKey(sameNetwork));
          const other = [...a.slice(0, 3), ((parseInt(a[3], 16) + 1) % 0x10000).toString(16), ...a.slice(4)].join(":");
          expect(clientKey(other)).not.toBe(clientKey(full));
        },
      ),
    );
  });

  it("passes anything else through, bounded, and reads the request's header", () => {
    expect(clientKey(undefined)).toBe("unknown");
    expect(clientKey("")).toBe("unknown");
    expect(clientKey("x".repeat(100))).toHaveLength(64);
    expect(clientIp(new Request("http://x/", { headers: { [CLIENT_IP_HEADER]: "2001:db8:0:0:1::2" } }))).toBe(
      "2001:0db8:0000:0000::/64",
    );
  });
});
