/**
 * The browser's bundles carry no server code. A page component that uses a value from a server
 * module pulls that module (and what it imports: the database driver, sharp, node: built-ins)
 * into the page's script, which then fails to load in the browser and the page never hydrates.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const assets = path.join(buildDir, "client/assets");

/** Strings only server code contains: Node's module loader, built-in modules, our database layer. */
const SERVER_MARKERS = [
  /\bcreateRequire\b/,
  /["']node:(?:fs|crypto|sqlite|child_process|path|os)["']/,
  /\bselectFrom\(/,
  /\bpg_advisory_lock\b/,
];

describe("client bundles", () => {
  it("contain no server code", () => {
    const files = readdirSync(assets).filter((f) => f.endsWith(".js"));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((file) => {
      const text = readFileSync(path.join(assets, file), "utf8");
      return SERVER_MARKERS.filter((m) => m.test(text)).map((m) => `${file}: ${m}`);
    });
    expect(offenders).toEqual([]);
  });
});

/** The scripts a page of the storefront loads: React Router's entry, the root and its route module, and what they import. */
function scriptsOf(routeIds: string[]): string[] {
  const urls = new Set<string>();
  const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f))!;
  const manifest = JSON.parse(
    readFileSync(path.join(assets, manifestFile), "utf8")
      .replace(/^window\.__reactRouterManifest=/, "")
      .replace(/;?\s*$/, ""),
  ) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { module: string; imports?: string[] }>;
  };
  for (const url of [manifest.entry.module, ...manifest.entry.imports]) urls.add(url);
  for (const id of routeIds)
    for (const url of [manifest.routes[id].module, ...(manifest.routes[id].imports ?? [])]) urls.add(url);
  // Follow each module's static imports (a route's components).
  const queue = [...urls];
  while (queue.length) {
    const url = queue.pop()!;
    const text = readFileSync(path.join(buildDir, "client", url), "utf8");
    for (const [, rel] of text.matchAll(/(?:from|import)\s*["'](\.\/[\w.-]+\.js)["']/g)) {
      const next = `/assets/${rel.slice(2)}`;
      if (urls.has(next)) continue;
      urls.add(next);
      queue.push(next);
    }
  }
  return [...urls];
}

// Issue 15's five pages. The first Intl formatter a page creates loads ICU's locale data: 12–50 ms
// of the main thread at once, counted four times over by Lighthouse's Total Blocking Time
// (app/lib/numbers.ts formats without it).
const AUDITED_PAGES = [
  { page: "/", routes: ["root", "routes/home"] },
  { page: "/shop/:id", routes: ["root", "routes/product"] },
  { page: "/shop and /shop?q=…", routes: ["root", "routes/shop"] },
  { page: "/cart", routes: ["root", "routes/cart"] },
];

describe("the storefront's scripts", () => {
  it.each(AUDITED_PAGES)("on $page create no Intl formatter", ({ routes }) => {
    const scripts = scriptsOf(routes);
    expect(scripts.length).toBeGreaterThan(0);
    const offenders = scripts.filter((url) =>
      /\bIntl\.|\.toLocale(?:Date|Time)?String\(/.test(readFileSync(path.join(buildDir, "client", url), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
