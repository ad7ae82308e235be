import { readFileSync } from "node:fs";
import path from "node:path";

/** Written by the islands build (vite.islands.ts) next to the client and server builds. */
export const ISLANDS_MANIFEST = "islands.json";

let manifest: Record<string, string> | null | undefined;

function readManifest(): Record<string, string> | null {
  if (process.env.NODE_ENV !== "production") return null; // `react-router dev` hydrates every page whole.
  try {
    const file = path.resolve(process.env.BUILD_DIR ?? "build", ISLANDS_MANIFEST);
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  } catch {
    return null; // A build without islands: pages hydrate through React Router as before.
  }
}

/**
 * The script URL of a page's island bundle in this production build, or null when there is none.
 * A page with an island is hydrated by that one script instead of React Router's client.
 */
export function islandScript(name: string): string | null {
  if (manifest === undefined) manifest = readManifest();
  return manifest?.[name] ?? null;
}
