/**
 * The server build carries no copy of `server/`: its route modules import the server's modules
 * from source (vite.server-external.ts), the same files the HTTP server imports, so a process has
 * one instance of each (one database pool, one auth, one logger) without process-wide globals.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const serverBuild = path.join(buildDir, "server");
/** Modules Node cannot run from source (JSX), so the build keeps them; their imports of server/ stay external. */
const BUNDLED_ON_PURPOSE = ["server/invoices/InvoiceDocument.tsx"];

function chunks(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? chunks(path.join(dir, e.name)) : e.name.endsWith(".js") ? [path.join(dir, e.name)] : [],
  );
}

describe("the server build", () => {
  it("bundles no module of server/ and imports each one by a relative path that exists", () => {
    const files = chunks(serverBuild);
    expect(files.length).toBeGreaterThan(0);
    const bundled: string[] = [];
    const imported = new Set<string>();
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      // The bundler heads each module it inlines with a `// <path>` comment.
      for (const [, source] of text.matchAll(/^\/\/ (server\/\S+)$/gm))
        if (!BUNDLED_ON_PURPOSE.includes(source)) bundled.push(source);
      for (const [, spec] of text.matchAll(/(?:\bfrom|\bimport\s*\()\s*"(\.{1,2}\/[^"]*\/server\/[^"]+)"/g)) {
        const target = path.resolve(path.dirname(file), spec);
        expect(path.relative(root, target).startsWith(`server${path.sep}`), `${spec} from ${file}`).toBe(true);
        if (existsSync(target)) imported.add(path.relative(root, target));
        else missing.push(`${path.relative(root, file)}: ${spec}`);
      }
      expect(text, "an absolute path left in the build").not.toContain(`"${root}/server/`);
    }
    expect(bundled).toEqual([]);
    expect(missing).toEqual([]);
    expect(imported).toContain("server/db/connection.ts");
    expect(imported.size).toBeGreaterThan(20);
  });

  it("loads in plain Node: every server module it imports runs from source", () => {
    const entry = pathToFileURL(path.join(serverBuild, "index.js")).href;
    const script = `const build = await import(${JSON.stringify(entry)}); console.log(Object.keys(build.routes).length);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "production" },
      timeout: 30_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(Number(run.stdout.trim())).toBeGreaterThan(10);
  });
});
