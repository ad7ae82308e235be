import { writeFileSync } from "node:fs";
import path from "node:path";
import { build, type Plugin, type Rolldown } from "vite";
import { ISLANDS_MANIFEST } from "./server/http/islands.ts";

/** Each island page and its entry module (app/islands/island-scripts.tsx explains islands). */
const ISLANDS = { home: "app/islands/home.tsx", product: "app/islands/product.tsx", shop: "app/islands/shop.tsx" };

/**
 * Builds the island bundles once React Router's client build is written: React DOM, each page's
 * components and app/islands/router-shim.tsx in place of "react-router", into the same
 * client/assets folder, and records their URLs in <build>/islands.json (server/http/islands.ts).
 */
export function islands(buildDirectory: string): Plugin {
  let root = process.cwd();
  return {
    name: "toolstore-islands",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    configResolved(config) {
      root = config.root;
    },
    async writeBundle() {
      const buildDir = path.resolve(root, buildDirectory);
      const output = await build({
        configFile: false,
        root,
        logLevel: "warn",
        mode: "production",
        publicDir: false,
        resolve: { alias: [{ find: /^react-router$/, replacement: path.join(root, "app/islands/router-shim.tsx") }] },
        build: {
          target: "es2022",
          outDir: path.join(buildDir, "client"),
          emptyOutDir: false,
          rolldownOptions: {
            input: Object.fromEntries(Object.entries(ISLANDS).map(([name, entry]) => [name, path.join(root, entry)])),
            output: {
              entryFileNames: "assets/island-[name]-[hash].js",
              chunkFileNames: "assets/island-[name]-[hash].js",
              // Whatever two islands share (React DOM, the frame, the product grid, the carousel) in
              // one chunk: each page then loads its entry, that chunk and Rolldown's small runtime,
              // not one more file per shared component.
              codeSplitting: { groups: [{ name: "hydrate", minShareCount: 2 }] },
            },
          },
        },
      });
      const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => ("output" in o ? o.output : [])) as (Rolldown.OutputChunk | Rolldown.OutputAsset)[];
      const scripts: Record<string, string> = {};
      for (const chunk of chunks) if (chunk.type === "chunk" && chunk.isEntry) scripts[chunk.name] = `/${chunk.fileName}`;
      writeFileSync(path.join(buildDir, ISLANDS_MANIFEST), `${JSON.stringify(scripts, null, 2)}\n`);
    },
  };
}
