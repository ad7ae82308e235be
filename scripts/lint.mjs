// `npm run lint`: the type check (TypeScript 7), ESLint (type-aware), Prettier's check, unused exports and
// files (knip) and copied code (jscpd). Each runs to the end; the command fails if any of them failed.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (p) => path.join(root, "node_modules", p);

const checks = [
  ["Route types", [bin("@react-router/dev/bin.cjs"), "typegen"]],
  ["Type check", [bin("typescript-7/bin/tsc"), "--noEmit", "-p", "."]],
  ["ESLint", [bin("eslint/bin/eslint.js"), "--max-warnings", "0", "."]],
  ["Formatting (Prettier)", [bin("prettier/bin/prettier.cjs"), "--check", "--log-level", "warn", "."]],
  ["Unused exports and files (knip)", [bin("knip/bin/knip.js"), "--no-progress"]],
  ["Copied code (jscpd)", [bin("jscpd/run-jscpd.js"), "--config", ".jscpd.json"]],
];

function run([title, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    // ESLint takes longest (about 70 CPU-s of the ~105 all checks need); the others yield the CPU to it.
    if (title !== "ESLint" && child.pid) os.setPriority(child.pid, 10);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`${code === 0 ? "✔" : "✖"} ${title} (${seconds} s)`);
      if (code !== 0) console.log(output.trimEnd());
      resolve(code === 0);
    });
  });
}

// Route types first: the type check and ESLint read them. The rest share the two cores.
const [typegen, ...rest] = checks;
const results = [await run(typegen)];
results.push(...(await Promise.all(rest.map(run))));
if (results.includes(false)) process.exit(1);
