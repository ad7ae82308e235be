import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets parallel test runs build side by side; the server reads the same variable.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
