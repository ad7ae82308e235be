/**
 * Turns the seeded PRNG, the targets and what discovery learned into concrete hostile requests.
 * Generation never looks at responses, so one seed always yields the same list of cases.
 */
import {
  encodeHostile,
  hostileJson,
  hostileQuery,
  hostileValue,
  HOSTILE_STRINGS,
  randomText,
  safeForEncoding,
} from "./hostile.ts";
import type { Discovery } from "./discover.ts";
import type { FormField, ScrapedForm } from "./html-forms.ts";
import { IDENTITY_WEIGHTS, type IdentityKind } from "./identities.ts";
import type { Random } from "./prng.ts";
import { fillPattern, patternParams, type FuzzTarget } from "./targets.ts";

export interface FuzzCase {
  index: number;
  /** What sort of case, for the report. */
  kind: string;
  /** The target pattern or form action it was made from. */
  target: string;
  method: string;
  path: string;
  identity: IdentityKind;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface CaseContext {
  baseUrl: string;
  targets: FuzzTarget[];
  discovery: Discovery;
}

const ODD_METHODS = ["PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "HEAD"];

const RAW_PATHS = [
  "/%",
  "/%zz",
  "/%E0%A4%A",
  "/%00",
  "/%2e%2e/%2e%2e/package.json",
  "/..%2f..%2fpackage.json",
  "/../../package.json",
  "/assets/../../package.json",
  "/assets/..%2f..%2fpackage.json",
  "/assets/%2e%2e/%2e%2e/server/config.ts",
  "/.env",
  "/.git/config",
  "/build/server/index.js",
  "//evil.example/",
  "///",
  "/shop//1",
  "/shop/1/",
  "/shop/1/..",
  "/.data",
  "/_root.data",
  "/_root.data?_routes=%",
  "/shop.data?_routes=routes/shop,routes/product,root",
  "/shop/1.data?_routes=",
  "/index.data",
  "/*",
  "/{*splat}",
  "/;",
  "/shop;jsessionid=1",
  "/shop?",
  "/shop#frag",
  "/\u00ff\u00fe",
  "/images/products/1/1.svg",
  "/images/products/99999999999999/1.svg",
  "/images/brands/%00.svg",
  "/sitemap.xml?page=-1",
  "/api/auth",
  "/api/auth/",
  "/api/auth/%",
  "/api/auth/../../shop",
  "/api/auth/callback/%zz",
  "/api/auth/reset-password/%00",
];

function pickIdentity(rng: Random): IdentityKind {
  return rng.weighted(IDENTITY_WEIGHTS);
}

function randomIp(rng: Random): string {
  return `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
}

/** A concrete path for the pattern: real param values now and then, hostile ones otherwise. */
function pathFor(rng: Random, target: FuzzTarget, discovery: Discovery): string {
  const samples = discovery.samples.get(target.pattern) ?? {};
  const values: Record<string, string | undefined> = {};
  for (const param of patternParams(target.pattern)) {
    if (param.optional && rng.chance(0.3)) continue;
    const real = samples[param.name]?.length ? rng.pick(samples[param.name]) : "1";
    if (rng.chance(0.35)) values[param.name] = real;
    else if (param.splat)
      values[param.name] = Array.from({ length: rng.int(1, 4) }, () =>
        encodeHostile(rng, hostileValue(rng, real).slice(0, 300)),
      ).join("/");
    else values[param.name] = encodeHostile(rng, hostileValue(rng, real).slice(0, 2_000)) || "x";
  }
  return fillPattern(target.pattern, values);
}

function queryFor(rng: Random, names: string[], discovery: Discovery): string {
  return hostileQuery(rng, [...names, ...Object.keys(discovery.queryValues)], discovery.queryValues);
}

/** React Router's single-fetch URL for a document path. */
function dataPath(rng: Random, path: string, targets: FuzzTarget[]): string {
  const [pathname, search = ""] = path.split("?");
  const base = pathname === "/" || pathname === "" ? "/_root.data" : `${pathname.replace(/\/$/, "")}.data`;
  const params = search ? [search] : [];
  if (rng.chance(0.4)) {
    const ids = rng.some(
      targets.map((t) => t.routeId).filter((id): id is string => Boolean(id)),
      3,
    );
    params.push(
      `_routes=${rng.chance(0.8) ? ids.map(encodeURIComponent).join(",") : encodeHostile(rng, hostileValue(rng))}`,
    );
  }
  if (rng.chance(0.1)) params.push("index");
  return params.length ? `${base}?${params.join("&")}` : base;
}

function mutateFields(rng: Random, fields: FormField[], namePool: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const field of fields) {
    if (rng.chance(0.15)) continue;
    let name = field.name;
    if (rng.chance(0.05))
      name = rng.pick([`${name}[]`, `${name}[0]`, `${name}.x`, name.toUpperCase(), ` ${name}`, `${name}\u0000`]);
    const real = field.values.length ? rng.pick(field.values) : undefined;
    out.push([name, rng.chance(0.4) && real !== undefined ? real : hostileValue(rng, real)]);
    if (rng.chance(0.1)) out.push([name, hostileValue(rng, real)]);
  }
  for (let i = rng.int(0, 2); i > 0; i--)
    out.push([
      rng.chance(0.6) && namePool.length ? rng.pick(namePool) : hostileValue(rng).slice(0, 50),
      hostileValue(rng),
    ]);
  return rng.chance(0.2) ? rng.some(out, out.length) : out;
}

interface EncodedBody {
  contentType?: string;
  body: Buffer;
}

function multipart(rng: Random, entries: [string, string][]): EncodedBody {
  const boundary = `----fuzz${rng.int(0, 1e9)}`;
  const quote = (s: string) => safeForEncoding(s).replace(/"/g, "%22").replace(/\r|\n/g, " ");
  const parts: string[] = [];
  for (const [name, value] of entries) {
    if (rng.chance(0.08)) {
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"; filename="${quote(hostileValue(rng).slice(0, 80))}"\r\nContent-Type: application/octet-stream\r\n\r\n${randomText(rng, rng.int(0, 2_000))}\r\n`,
      );
    } else {
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${safeForEncoding(value)}\r\n`,
      );
    }
  }
  let body = `${parts.join("")}--${boundary}--\r\n`;
  let contentType = `multipart/form-data; boundary=${boundary}`;
  if (rng.chance(0.15)) {
    body = rng.weighted<() => string>([
      [1, () => body.slice(0, Math.floor(body.length / 2))],
      [1, () => body.replace(`--${boundary}--`, "")],
      [1, () => body.replaceAll("Content-Disposition", "Content-Dispositio")],
      [1, () => `--${boundary}\r\n\r\n\r\n--${boundary}--`],
    ])();
    if (rng.chance(0.3))
      contentType = rng.pick([
        "multipart/form-data",
        "multipart/form-data; boundary=",
        `multipart/form-data; boundary="${boundary}`,
        "multipart/mixed; boundary=x",
      ]);
  }
  return { contentType, body: Buffer.from(body, "utf8") };
}

function jsonBody(rng: Random, entries: [string, string][]): unknown {
  const object: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    const v = rng.chance(0.3) ? hostileJson(rng) : value;
    object[name] = name in object ? [object[name], v].flat() : v;
  }
  if (rng.chance(0.05))
    return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
  return rng.chance(0.1) ? hostileJson(rng) : object;
}

function encodeBody(rng: Random, entries: [string, string][], preferred: "form" | "json"): EncodedBody {
  const kind = rng.weighted<string>([
    [preferred === "form" ? 10 : 2, "urlencoded"],
    [preferred === "form" ? 5 : 1, "multipart"],
    [preferred === "json" ? 10 : 2, "json"],
    [1, "bad-json"],
    [1, "odd-type"],
    [1, "none"],
  ]);
  switch (kind) {
    case "urlencoded": {
      const body = entries.map(([k, v]) => `${encodeHostile(rng, k)}=${encodeHostile(rng, v)}`).join("&");
      return {
        contentType: rng.chance(0.9)
          ? "application/x-www-form-urlencoded"
          : rng.pick([
              "application/x-www-form-urlencoded; charset=ISO-2022-JP",
              "application/x-www-form-urlencoded; charset=utf-16",
              "APPLICATION/X-WWW-FORM-URLENCODED",
            ]),
        body: Buffer.from(body, "utf8"),
      };
    }
    case "multipart":
      return multipart(rng, entries);
    case "json":
      return {
        contentType: rng.pick([
          "application/json",
          "application/json; charset=utf-8",
          "text/json",
          "application/vnd.api+json",
        ]),
        body: Buffer.from(JSON.stringify(jsonBody(rng, entries)) ?? "null"),
      };
    case "bad-json":
      return {
        contentType: "application/json",
        body: Buffer.from(
          rng.pick(['{"a":', "{'a':1}", "[1,2", "\u0000", "", "{}}", '{"a":1}garbage', "NaN", '"unterminated']),
          "utf8",
        ),
      };
    case "odd-type":
      return {
        contentType: rng.pick([
          "text/plain",
          "application/xml",
          "application/octet-stream",
          "image/png",
          "text/html",
          "*/*",
          ";;;",
          "application/x-www-form-urlencoded, application/json",
        ]),
        body: Buffer.from(entries.map(([k, v]) => `${k}=${v}`).join("\n")),
      };
    default:
      return {
        body: Buffer.from(
          entries
            .map(([k, v]) => `${encodeURIComponent(safeForEncoding(k))}=${encodeURIComponent(safeForEncoding(v))}`)
            .join("&"),
        ),
      };
  }
}

/** Headers a client might get wrong, added to some cases. */
function hostileHeaders(rng: Random, headers: Record<string, string>): void {
  const name = rng.pick([
    "host",
    "x-forwarded-for",
    "accept",
    "accept-language",
    "referer",
    "origin",
    "user-agent",
    "accept-encoding",
    "if-none-match",
    "range",
    "x-client-ip",
    "authorization",
    "sec-fetch-site",
    "content-language",
    "x-http-method-override",
    "x-forwarded-proto",
    "x-forwarded-host",
  ]);
  const value = rng.pick([
    ...HOSTILE_STRINGS.filter((s) => !/[\u0000-\u001f\u007f-\uffff]/.test(s)),
    "null",
    "1.1.1.1, 2.2.2.2, garbage",
    "::1",
    "[::ffff:127.0.0.1]",
    "unknown",
    "bytes=0-0,-1",
    "bytes=9999999-",
    "gzip;q=x, br;q=-1",
    "Bearer " + "A".repeat(500),
    "*/*;q=abc",
    "text/x-component",
    "x".repeat(6_000),
  ]);
  headers[name] = value;
}

function formCase(rng: Random, ctx: CaseContext, form: ScrapedForm): Omit<FuzzCase, "index" | "identity"> {
  const namePool = [...new Set(ctx.discovery.forms.flatMap((f) => f.fields.map((x) => x.name)))];
  const entries = mutateFields(rng, form.fields, namePool);
  const { contentType, body } = encodeBody(rng, entries, "form");
  let path = form.action;
  if (rng.chance(0.3)) path = dataPath(rng, path, ctx.targets);
  if (rng.chance(0.1)) path += `${path.includes("?") ? "&" : "?"}${queryFor(rng, [], ctx.discovery)}`;
  const headers: Record<string, string> = {};
  if (contentType) headers["content-type"] = contentType;
  return {
    kind: "form",
    target: form.action.split("?")[0],
    method: rng.chance(0.95) ? "POST" : rng.pick(ODD_METHODS),
    path,
    headers,
    body,
  };
}

function getCase(rng: Random, ctx: CaseContext, target: FuzzTarget): Omit<FuzzCase, "index" | "identity"> {
  let path = pathFor(rng, target, ctx.discovery);
  if (rng.chance(0.7)) path += `?${queryFor(rng, target.query, ctx.discovery)}`;
  if (target.source === "app" && rng.chance(0.25)) path = dataPath(rng, path, ctx.targets);
  return { kind: "get", target: target.pattern, method: rng.chance(0.9) ? "GET" : "HEAD", path, headers: {} };
}

function postCase(rng: Random, ctx: CaseContext, target: FuzzTarget): Omit<FuzzCase, "index" | "identity"> {
  let path = pathFor(rng, target, ctx.discovery);
  if (rng.chance(0.2)) path += `?${queryFor(rng, target.query, ctx.discovery)}`;
  if (target.source === "app" && rng.chance(0.3)) path = dataPath(rng, path, ctx.targets);
  const formsHere = ctx.discovery.forms.filter((f) => f.action.split("?")[0] === path.split("?")[0]);
  const fields: FormField[] = [
    ...target.fields.map((name) => ({ name, type: "text", values: [] })),
    ...formsHere.flatMap((f) => f.fields),
  ];
  const entries = mutateFields(rng, fields, target.fields);
  const { contentType, body } = encodeBody(rng, entries, target.body);
  const methods = target.methods.filter((m) => m !== "GET");
  const method = methods.length && rng.chance(0.9) ? rng.pick(methods) : rng.pick(["POST", ...ODD_METHODS]);
  return {
    kind: target.source === "auth" ? "auth" : "post",
    target: target.pattern,
    method,
    path,
    headers: contentType ? { "content-type": contentType } : {},
    body,
  };
}

function rawCase(rng: Random): Omit<FuzzCase, "index" | "identity"> {
  let path = rng.pick(RAW_PATHS);
  if (rng.chance(0.2)) path = `/${"a/".repeat(rng.int(10, 2_000))}`;
  if (rng.chance(0.2)) path = `/${encodeHostile(rng, hostileValue(rng).slice(0, 4_000))}`;
  return {
    kind: "raw-path",
    target: "(raw)",
    method: rng.chance(0.8) ? "GET" : rng.pick(["POST", ...ODD_METHODS]),
    path,
    headers: {},
  };
}

export function generateCases(rng: Random, count: number, ctx: CaseContext): FuzzCase[] {
  const apps = ctx.targets.filter((t) => t.source === "app");
  const auth = ctx.targets.filter((t) => t.source !== "app");
  const cases: FuzzCase[] = [];
  for (let index = 0; index < count; index++) {
    const made = rng.weighted<() => Omit<FuzzCase, "index" | "identity">>([
      [25, () => getCase(rng, ctx, rng.pick(apps))],
      [ctx.discovery.forms.length ? 30 : 0, () => formCase(rng, ctx, rng.pick(ctx.discovery.forms))],
      [10, () => postCase(rng, ctx, rng.pick(apps))],
      [18, () => postCase(rng, ctx, rng.pick(auth))],
      [7, () => getCase(rng, ctx, rng.pick(auth))],
      [6, () => rawCase(rng)],
    ])();
    const headers: Record<string, string> = {
      "x-forwarded-for": randomIp(rng),
      "user-agent": "toolstore-fuzz",
      ...made.headers,
    };
    if (made.method !== "GET" && made.method !== "HEAD" && rng.chance(0.85)) headers.origin = ctx.baseUrl;
    if (made.body && rng.chance(0.9)) headers["sec-fetch-site"] = "same-origin";
    if (rng.chance(0.12)) hostileHeaders(rng, headers);
    cases.push({ ...made, index, identity: pickIdentity(rng), headers });
  }
  return cases;
}
