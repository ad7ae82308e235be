import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A lint rule (DESIGN.md, "Rendering and caching"): text reaches HTML through JSX, which escapes
// it. dangerouslySetInnerHTML is only for markup the server generated from no user or staff text,
// each use named here with the reason.
const NAMED_EXCEPTIONS: Record<string, string> = {
  "app/routes/admin/two-factor.tsx": "the enrolment's QR code, an SVG the qrcode library drew from the TOTP URI",
};

const root = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(?:tsx?|jsx?)$/.test(entry.name) ? [rel] : [];
  });
}

describe("no dangerouslySetInnerHTML outside the named exceptions", () => {
  it("finds it only where it is named", () => {
    const users = [...sourceFiles("app"), ...sourceFiles("server")].filter((file) =>
      readFileSync(path.join(root, file), "utf8").includes("dangerouslySetInnerHTML"),
    );
    expect(users.sort()).toEqual(Object.keys(NAMED_EXCEPTIONS).sort());
  });
});
