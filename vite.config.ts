import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { rootModules } from "./vite.frame-chunk.ts";
import { serverFromSource } from "./vite.server-external.ts";

// The site frame and the framework it needs ship as one chunk: every page loads them anyway, and
// ~25 small files of module preloads held back the first paint on a slow connection (issue 49).
const frame = rootModules("app/root.tsx");

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), serverFromSource()],
  build: {
    target: "es2022",
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: "frame", test: (id: string) => frame.has(id.split("?")[0]) }] } },
    },
  },
  ssr: { external: ["pg", "nodemailer", "better-auth"] },
});
