import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { serverFromSource } from "./vite.server-external.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), serverFromSource()],
  build: { target: "es2022" },
  ssr: { external: ["pg", "nodemailer", "better-auth"] },
});
