/**
 * The browser's bundles carry no server code. A page component that uses a value from a server
 * module pulls that module (and what it imports: the database driver, sharp, node: built-ins)
 * into the page's script, which then fails to load in the browser and the page never hydrates.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const assets = path.resolve(process.env.BUILD_DIR ?? "build", "client/assets");

/** Strings only server code contains: Node's module loader, built-in modules, our database layer. */
const SERVER_MARKERS = [/\bcreateRequire\b/, /["']node:(?:fs|crypto|sqlite|child_process|path|os)["']/, /\bselectFrom\(/, /\bpg_advisory_lock\b/];

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
