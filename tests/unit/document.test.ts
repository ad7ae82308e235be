import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "../../server/http/document.ts";

const rendered = (head: string, body = "<p>Café — 5% off</p>") => Buffer.from(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`);

describe("withoutModulePreloads", () => {
  it("drops every module preload from <head> and keeps the rest byte for byte", () => {
    const head =
      '<title>Drill — £5</title><link rel="modulepreload" href="/assets/a.js" nonce="n"/><link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/b.js"/>';
    const html = withoutModulePreloads(rendered(head, '<script type="module">import "/assets/a.js";</script>')).toString("utf8");
    expect(html).toBe(
      '<!DOCTYPE html><html><head><title>Drill — £5</title><link rel="stylesheet" href="/assets/app.css"/></head><body><script type="module">import "/assets/a.js";</script></body></html>',
    );
  });

  it("leaves the body alone, even text that looks like a preload", () => {
    const body = '<pre>&lt;link rel="modulepreload"&gt;</pre><template><link rel="modulepreload" href="/x.js"/></template>';
    const html = withoutModulePreloads(rendered("<title>t</title>", body)).toString("utf8");
    expect(html).toContain(body);
  });

  it("returns the same buffer when there is nothing to remove or no <head>", () => {
    const plain = rendered("<title>t</title>");
    expect(withoutModulePreloads(plain)).toBe(plain);
    const fragment = Buffer.from("<p>partial</p>");
    expect(withoutModulePreloads(fragment)).toBe(fragment);
  });
});
