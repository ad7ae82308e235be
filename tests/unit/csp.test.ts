import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes } from "../../server/http/csp.ts";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("the CSP of a cacheable page", () => {
  it("hashes each distinct inline script, not scripts loaded from files", () => {
    const html = `<html><head><script src="/assets/a.js"></script><script type="module" src="/x.js" async></script></head>
      <body><script>window.__ctx = {"a":"£5 <\\/b>"};</script><script type="module">import "/assets/entry.js";</script><script>window.__ctx = {"a":"£5 <\\/b>"};</script></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([
      sha('window.__ctx = {"a":"£5 <\\/b>"};'),
      sha('import "/assets/entry.js";'),
    ]);
    expect(inlineScriptHashes(Buffer.from(html))).toEqual(inlineScriptHashes(html));
    expect(inlineScriptHashes("<p>no script</p>")).toEqual([]);
    expect(inlineScriptHashes("<scripts>x</scripts><script\n>y</script><script>unclosed")).toEqual([sha("y")]);
  });

  it("allows only the page's own script files and those hashes: no nonce, no 'unsafe-inline' script", () => {
    const plain = contentSecurityPolicy();
    const withHashes = contentSecurityPolicy(["'sha256-abc'", "'sha256-def'"]);
    const scriptSrc = (policy: string) => policy.split(";").find((d) => d.startsWith("script-src "));
    expect(scriptSrc(plain)).toBe("script-src 'self'");
    expect(scriptSrc(withHashes)).toBe("script-src 'self' 'sha256-abc' 'sha256-def'");
    expect(withHashes).not.toMatch(/nonce|__SCRIPT_HASHES__/);
    expect(withHashes).toContain("object-src 'none'");
    expect(withHashes).toContain("script-src-attr 'none'");
  });
});
