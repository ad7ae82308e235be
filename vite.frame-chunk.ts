import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// Static imports and re-exports of a relative path ("import … from './x'", "export … from './x'",
// "import './x.css'"); dynamic import("./x") is not one, so what a page loads on demand stays apart.
const STATIC_IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']/g;
const TYPE_ONLY = /^\s*(?:import|export)\s+type\b/;

/**
 * The app's own modules the root route imports, directly or through others: the site frame every
 * page loads (header, footer, user menu, search box …). Only files under the entry's folder count;
 * server modules a loader imports never reach the browser.
 */
export function rootModules(entry: string): Set<string> {
  const appDir = path.dirname(path.resolve(entry)) + path.sep;
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file) || !file.startsWith(appDir) || !existsSync(file)) return;
    found.add(file);
    const source = readFileSync(file, "utf8");
    for (const m of source.matchAll(STATIC_IMPORT)) {
      if (!TYPE_ONLY.test(m[0])) visit(path.resolve(path.dirname(file), m[1]));
    }
  };
  visit(path.resolve(entry));
  return found;
}
