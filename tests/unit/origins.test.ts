import { describe, expect, it } from "vitest";
import { describeTrustedOrigins, isTrustedOrigin, originPolicy, trustedOrigins } from "../../server/auth/origins.ts";
import { loadConfig } from "../../server/config.ts";

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });

describe("trusted origins in the default (loopback) mode", () => {
  const cfg = loadConfig({ PORT: "3000" });
  const policy = originPolicy(cfg);

  it("trusts each loopback name on the store's port", () => {
    expect(trustedOrigins(cfg)).toEqual(["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]);
  });

  it("accepts an origin that is the loopback host the request was sent to", () => {
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000"]) {
      expect(isTrustedOrigin(headers({ origin: `http://${host}`, host }), policy)).toBe(true);
    }
  });

  it("refuses a loopback origin sent to another loopback host, another port, or another site", () => {
    expect(isTrustedOrigin(headers({ origin: "http://localhost:3000", host: "127.0.0.1:3000" }), policy)).toBe(false);
    expect(isTrustedOrigin(headers({ origin: "http://127.0.0.1:3001", host: "127.0.0.1:3001" }), policy)).toBe(false);
    expect(isTrustedOrigin(headers({ origin: "http://evil.example", host: "evil.example" }), policy)).toBe(false);
    expect(isTrustedOrigin(headers({ origin: "null", host: "127.0.0.1:3000" }), policy)).toBe(false);
  });

  it("says at start-up which origins are trusted", () => {
    expect(describeTrustedOrigins(cfg)).toContain("http://127.0.0.1:3000");
    expect(describeTrustedOrigins(cfg)).toContain("same host");
  });
});

describe("trusted origins with SITE_URL or AUTH_TRUSTED_ORIGINS set", () => {
  it("stays strict to SITE_URL's origin", () => {
    const policy = originPolicy(loadConfig({ PORT: "3000", SITE_URL: "https://tools.example" }));
    expect(policy.allowed).toEqual(["https://tools.example"]);
    expect(isTrustedOrigin(headers({ origin: "https://tools.example", host: "tools.example" }), policy)).toBe(true);
    expect(isTrustedOrigin(headers({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }), policy)).toBe(false);
  });

  it("uses exactly the listed origins", () => {
    const policy = originPolicy(
      loadConfig({ PORT: "3000", AUTH_TRUSTED_ORIGINS: "http://localhost:3000, https://b.example/" }),
    );
    expect(policy.allowed).toEqual(["http://localhost:3000", "https://b.example"]);
    expect(isTrustedOrigin(headers({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }), policy)).toBe(false);
  });
});
