// Types for support.mjs, so TypeScript tests (tests/reliability/) can reuse its server helpers.
import type { ChildProcess } from "node:child_process";

export const root: string;
export function log(line?: string): void;
export function fail(message: string): never;
export function ensureBuild(buildDir: string): void;
export function tail(file: string, lines?: number): string;
export function startStoreServer(options: {
  buildDir: string;
  port: number;
  env?: Record<string, string>;
  logPath: string;
  timeoutMs?: number;
}): Promise<ChildProcess>;
export function stopStoreServer(child: ChildProcess | null | undefined): Promise<void>;
export function printTable(headers: string[], rows: unknown[][]): void;
export function killNow(pid: number | undefined, options?: { group?: boolean }): void;
export function runBenchScript(
  name: string,
  hooks: { main: () => Promise<void>; cleanup: () => Promise<void>; lastResort?: () => void },
): Promise<never>;
