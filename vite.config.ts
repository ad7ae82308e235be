import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { islands } from "./vite.islands.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), islands(process.env.BUILD_DIR ?? "build")],
  build: { target: "es2022" },
  ssr: { external: ["pg", "nodemailer", "better-auth"] },
});
