/**
 * Runs a seeded fuzz session against a running store: enumerate targets, learn the site, generate
 * the cases from the seed, send them a few at a time, and collect every answer of 500 or more
 * (or no answer at all) with what is needed to replay it.
 */
import { send, type RawResponse } from "../support/http.ts";
import { generateCases, type FuzzCase } from "./cases.ts";
import { discover } from "./discover.ts";
import { FuzzIdentities, type PromoteToStaff } from "./identities.ts";
import { createRandom } from "./prng.ts";
import { allTargets, type FuzzTarget } from "./targets.ts";

export interface FuzzOptions {
  baseUrl: string;
  seed: number;
  requests: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Only this case index (FUZZ_CASE), to replay one failure. */
  only?: number;
  log?: (line: string) => void;
  /** Gives an account the back office's role, when the store has roles (support/staff.ts). */
  promote?: PromoteToStaff;
}

export interface FuzzFailure {
  fuzzCase: FuzzCase;
  status: number | null;
  problem: string;
  response: string;
}

export interface FuzzReport {
  seed: number;
  sent: number;
  targets: FuzzTarget[];
  forms: number;
  statuses: Map<number, number>;
  failures: FuzzFailure[];
  ms: number;
}

/** Fragments that must never come back, whatever the path: source files, config, secrets. */
const LEAKS = [
  /"devDependencies"\s*:/,
  /reliability-secret-0123456789/,
  /\[core\]\s*\n\s*repositoryformatversion/,
  /AUTH_SECRET\s*=/,
];

function check(fuzzCase: FuzzCase, res: RawResponse): FuzzFailure | null {
  const text = res.body.subarray(0, 200_000).toString("utf8");
  if (res.status >= 500)
    return { fuzzCase, status: res.status, problem: `answered ${res.status}`, response: text.slice(0, 600) };
  const leak = LEAKS.find((re) => re.test(text));
  if (leak)
    return { fuzzCase, status: res.status, problem: `leaked content matching ${leak}`, response: text.slice(0, 600) };
  return null;
}

const printable = (s: string, max: number) => {
  const cut = s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
  return JSON.stringify(cut).slice(1, -1);
};

export function describeFailure(f: FuzzFailure, seed: number): string {
  const c = f.fuzzCase;
  const headers = Object.entries(c.headers)
    .map(([k, v]) => `${k}: ${printable(v, 160)}`)
    .join("\n      ");
  return [
    `#${c.index} ${c.method} ${printable(c.path, 400)} — ${f.problem}`,
    `    target ${c.target} (${c.kind}), identity ${c.identity}`,
    `    headers:\n      ${headers}`,
    c.body ? `    body (${c.body.length} bytes): ${printable(c.body.toString("utf8"), 400)}` : "    no body",
    `    response: ${printable(f.response, 400)}`,
    `    replay: FUZZ_SEED=${seed} FUZZ_CASE=${c.index}`,
  ].join("\n");
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { baseUrl, seed, requests } = options;
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const targets = allTargets();
  const ids = new FuzzIdentities(baseUrl, { promote: options.promote });
  await ids.setUp();
  const discovery = await discover(baseUrl, targets, ids);
  log(
    `fuzz: seed ${seed}; ${ids.staff ? "with" : "no"} staff identity; ${targets.length} targets (${targets.filter((t) => t.source === "app").length} app routes, ${targets.filter((t) => t.source === "auth").length} auth endpoints), ${discovery.forms.length} kinds of form from ${discovery.pagesVisited} page visits`,
  );

  const rng = createRandom(seed);
  let cases = generateCases(rng, requests, { baseUrl, targets, discovery });
  if (options.only !== undefined) cases = cases.filter((c) => c.index === options.only);

  const statuses = new Map<number, number>();
  const failures: FuzzFailure[] = [];
  const concurrency = options.concurrency ?? 6;
  const BATCH = 150;
  for (let start = 0; start < cases.length; start += BATCH) {
    await ids.refresh();
    const batch = cases.slice(start, start + BATCH);
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const fuzzCase = batch[next++];
        const headers = { ...fuzzCase.headers };
        const cookie = ids.cookie(fuzzCase.identity, createRandom(seed ^ fuzzCase.index));
        if (cookie) headers.cookie = cookie;
        try {
          const res = await send(
            baseUrl,
            { method: fuzzCase.method, path: fuzzCase.path, headers, body: fuzzCase.body },
            30_000,
          );
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const failure = check({ ...fuzzCase, headers }, res);
          if (failure) failures.push(failure);
        } catch (error) {
          const message = (error as Error).message;
          // node:http refuses some hostile requests before sending them; those are not server failures.
          const code = (error as NodeJS.ErrnoException).code ?? "";
          if (
            /ERR_INVALID_CHAR|ERR_UNESCAPED_CHARACTERS|ERR_INVALID_HTTP_TOKEN|Invalid character/i.test(
              `${code} ${message}`,
            )
          )
            continue;
          // A body over the app's limits may be refused (413) and the socket closed while it is still being written.
          // Likewise a request line and headers past Node's 16 KiB header limit (431, then the socket is closed).
          const headBytes =
            fuzzCase.path.length + Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
          if (
            (code === "ECONNRESET" || code === "EPIPE") &&
            ((fuzzCase.body?.length ?? 0) > 16 * 1024 || headBytes > 16 * 1024)
          ) {
            statuses.set(0, (statuses.get(0) ?? 0) + 1);
            continue;
          }
          failures.push({
            fuzzCase: { ...fuzzCase, headers },
            status: null,
            problem: `no answer: ${message}`,
            response: "",
          });
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  const health = await send(baseUrl, { method: "GET", path: "/healthz" }).catch((e: Error) => ({
    status: 0,
    text: () => e.message,
  }));
  if (health.status !== 200) {
    failures.push({
      fuzzCase: {
        index: -1,
        kind: "health",
        target: "/healthz",
        method: "GET",
        path: "/healthz",
        identity: "anonymous",
        headers: {},
      },
      status: health.status,
      problem: `the server is unhealthy after the run (${health.status})`,
      response: health.text().slice(0, 300),
    });
  }
  return {
    seed,
    sent: cases.length,
    targets,
    forms: discovery.forms.length,
    statuses,
    failures,
    ms: Date.now() - started,
  };
}

/** One example per (method, target, outcome), the smallest request first: a readable report of a bad run. */
export function groupFailures(failures: FuzzFailure[]): { key: string; count: number; example: FuzzFailure }[] {
  const groups = new Map<string, { key: string; count: number; example: FuzzFailure }>();
  const size = (f: FuzzFailure) => f.fuzzCase.path.length + (f.fuzzCase.body?.length ?? 0);
  for (const f of failures) {
    const key = `${f.fuzzCase.method} ${f.fuzzCase.target} → ${f.status ?? f.problem}`;
    const group = groups.get(key);
    if (!group) groups.set(key, { key, count: 1, example: f });
    else {
      group.count++;
      if (size(f) < size(group.example)) group.example = f;
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

export function summarize(report: FuzzReport): string {
  const statuses = [...report.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  return `fuzz: ${report.sent} requests in ${(report.ms / 1000).toFixed(1)} s, seed ${report.seed}; statuses ${statuses}; ${report.failures.length} failure(s)`;
}
