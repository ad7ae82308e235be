/**
 * Which page of app/routes.ts a request path is, for what the Express app decides before React
 * Router runs (metrics labels, body limits): a new route in app/routes.ts is known here without a
 * second list. The patterns are compiled once and ranked as React Router ranks them (static
 * segments before dynamic ones); React Router's own matchRoutes compiles every pattern on every
 * call, some 0.4 ms a request. tests/unit/page-routes.test.ts checks the two agree on every page.
 */
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routeConfig from "../../app/routes.ts";

interface CompiledPage {
  pattern: string;
  regex: RegExp;
  score: number;
}

/** Every page's pattern ("/shop/:id", "/admin" for the back office's index), in app/routes.ts's order; not the catch-all. */
export function pagePatterns(entries: readonly RouteConfigEntry[] = routeConfig, parent = ""): string[] {
  return entries.flatMap((entry) => {
    if (entry.path === "*") return [];
    const pattern = entry.path ? `${parent}/${entry.path}` : parent || "/";
    const own = entry.index || !entry.children ? [pattern] : [];
    return [...own, ...(entry.children ? pagePatterns(entry.children, pattern === "/" ? "" : pattern) : [])];
  });
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** React Router's ranking: 10 a static segment, 3 a dynamic one, plus the segment count. */
function compile(pattern: string): CompiledPage {
  const segments = pattern.split("/").filter(Boolean);
  if (segments.some((s) => s.includes("*") || s.endsWith("?")))
    throw new Error(`page-routes.ts does not match optional or splat segments yet: ${pattern}`);
  const source = segments.map((s) => (s.startsWith(":") ? "/[^/]+" : `/${escapeRegex(s)}`)).join("");
  const score = segments.reduce((sum, s) => sum + (s.startsWith(":") ? 3 : 10), segments.length);
  return { pattern, regex: new RegExp(`^${source || "/"}/?$`, "i"), score };
}

function ranked(patterns: string[]): CompiledPage[] {
  return patterns.map(compile).sort((a, b) => b.score - a.score);
}

const PAGES = ranked(pagePatterns());

function decoded(pathname: string): string {
  try {
    return pathname
      .split("/")
      .map((s) => decodeURIComponent(s).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return pathname;
  }
}

/** The pattern of the page a path is, or null for a path only the not-found route (`*`) takes. */
export function matchPage(pathname: string, pages: CompiledPage[] = PAGES): string | null {
  const path = decoded(pathname);
  return pages.find((page) => page.regex.test(path))?.pattern ?? null;
}
