import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "../../server/http/document.ts";

const rendered = (head: string, body = "<p>Café — 5% off</p>") => Buffer.from(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`);
/** A document as React hands it over: in chunks of `size` bytes, cut anywhere (inside a tag, inside a character). */
const inChunks = (html: Buffer, size: number) => Array.from({ length: Math.ceil(html.length / size) }, (_, i) => html.subarray(i * size, (i + 1) * size));

describe("withoutModulePreloads", () => {
  it("drops every module preload from <head> and keeps the rest byte for byte", () => {
    const head =
      '<title>Drill — £5</title><link rel="modulepreload" href="/assets/a.js" nonce="n"/><link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/b.js"/>';
    const document = rendered(head, '<script type="module">import "/assets/a.js";</script>');
    for (const size of [1, 3, 7, 64, 4096]) {
      expect(withoutModulePreloads(inChunks(document, size)).toString("utf8"), `chunks of ${size} bytes`).toBe(
        '<!DOCTYPE html><html><head><title>Drill — £5</title><link rel="stylesheet" href="/assets/app.css"/></head><body><script type="module">import "/assets/a.js";</script></body></html>',
      );
    }
  });

  it("leaves the body alone, even text that looks like a preload", () => {
    const body = '<pre>&lt;link rel="modulepreload"&gt;</pre><template><link rel="modulepreload" href="/x.js"/></template>';
    for (const size of [5, 4096]) expect(withoutModulePreloads(inChunks(rendered("<title>t</title>", body), size)).toString("utf8")).toContain(body);
  });

  it("joins the chunks unchanged when there is nothing to remove or no <head>", () => {
    const plain = rendered("<title>t</title>");
    expect(withoutModulePreloads(inChunks(plain, 6)).equals(plain)).toBe(true);
    const fragment = Buffer.from("<p>partial — no head</p>");
    expect(withoutModulePreloads(inChunks(fragment, 4)).equals(fragment)).toBe(true);
    expect(withoutModulePreloads([]).length).toBe(0);
  });
});
