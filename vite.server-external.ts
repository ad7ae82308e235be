import path from "node:path";
import type { Plugin } from "vite";

/**
 * The production server build imports `server/` from source instead of bundling a copy of it.
 * Node runs `server/**\/*.ts` directly (it strips the types), so the HTTP server and the route
 * modules of the build share one instance of every server module: one database pool, one auth,
 * one logger, one metrics registry, with no process-wide globals holding two copies together.
 *
 * Each import that resolves to a `.ts` file under `server/` becomes an external, written as a
 * path relative to the emitted chunk (`build/server/index.js` → `../../server/db/connection.ts`,
 * whatever BUILD_DIR is), so the build works wherever the checkout lives. Rolldown's own
 * `external: "relative"` is relative to the sources' base directory, not to the output file, so
 * the plugin keeps the ids absolute while bundling and rewrites them once the chunk is rendered.
 * A `.tsx` module (JSX, which Node cannot strip) stays in the bundle; its own imports of `server/`
 * are external like any other.
 */
export function serverFromSource(root = process.cwd()): Plugin {
  const serverDir = path.resolve(root, "server") + path.sep;
  const quoted = new RegExp(`(["'])${serverDir.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}([^"'\\n]+\\.ts)\\1`, "g");
  return {
    name: "toolstore:server-from-source",
    apply: "build",
    // Before React Router's and Vite's own resolvers, which would otherwise answer first.
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "server",
    async resolveId(source, importer, options) {
      if (!importer || source.startsWith("\0")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return resolved;
      if (!resolved.id.startsWith(serverDir) || !resolved.id.endsWith(".ts")) return resolved;
      return { id: resolved.id, external: "absolute" };
    },
    renderChunk(code, chunk, outputOptions) {
      const outDir = path.resolve(root, outputOptions.dir ?? path.dirname(outputOptions.file ?? "."));
      const from = path.dirname(path.join(outDir, chunk.fileName));
      const rel = (file: string) => {
        const p = path.relative(from, file).split(path.sep).join("/");
        return p.startsWith(".") ? p : `./${p}`;
      };
      const out = code.replace(
        quoted,
        (_all, quote: string, rest: string) => `${quote}${rel(serverDir + rest)}${quote}`,
      );
      return out === code ? null : { code: out, map: null };
    },
  };
}
