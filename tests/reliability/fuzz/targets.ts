/**
 * What the fuzzer attacks, found without a hand-kept list: every route in app/routes.ts (nested
 * routes and index routes included), every HTTP endpoint of the store's Better Auth instance
 * (plugins included), and EXTRA_TARGETS for anything else Express serves.
 */
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { betterAuth } from "better-auth";
import appRoutes from "../../../app/routes.ts";
import { buildAuthOptions } from "../../../server/auth/auth.ts";
import { UNGUARDED } from "../../../server/auth/sign-in-guard.ts";
import { loadConfig } from "../../../server/config.ts";
import { createDb } from "../../../server/db/connection.ts";
import { EXTRA_TARGETS } from "./extra-targets.ts";

type BodyKind = "form" | "json";

export interface FuzzTarget {
  /** Path pattern: `:name` params, `:name?` optional, a trailing `*` splat. */
  pattern: string;
  source: "app" | "auth" | "extra";
  /** Methods a real client uses here; the fuzzer sends others too. */
  methods: string[];
  /** What a real client posts: React Router forms, or JSON (Better Auth and APIs). */
  body: BodyKind;
  /** Body field names a real client sends (forms found on pages add theirs). */
  fields: string[];
  /** Query parameter names a real client sends. */
  query: string[];
  /** React Router's route id (app routes), for `.data` requests' `_routes` parameter. */
  routeId?: string;
}

function joinPaths(parent: string, child: string | undefined): string {
  if (!child) return parent || "/";
  return `${parent.replace(/\/$/, "")}/${child.replace(/^\//, "")}`;
}

/** Every route of app/routes.ts as a full path pattern. */
function appRouteTargets(routes: readonly RouteConfigEntry[] = appRoutes): FuzzTarget[] {
  const out: FuzzTarget[] = [];
  const walk = (entries: readonly RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const full = entry.index ? parent || "/" : joinPaths(parent, entry.path);
      const routeId = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      if (entry.index || entry.path)
        out.push({
          pattern: full.startsWith("/") ? full : `/${full}`,
          source: "app",
          methods: ["GET", "POST"],
          body: "form",
          fields: [],
          query: [],
          routeId,
        });
      if (entry.children) walk(entry.children, full === "/" ? "" : full);
    }
  };
  walk(routes, "");
  return dedupe(out);
}

/** Field names of Better Auth endpoints whose body schema is not a plain object. */
const AUTH_FIELD_HINTS: Record<string, string[]> = {
  "/sign-up/email": ["name", "email", "password", "callbackURL", "image", "rememberMe"],
  "/update-user": ["name", "image"],
  "/callback/:id": ["code", "state", "error", "error_description", "user"],
  "/magic-link/verify": ["token", "callbackURL", "errorCallbackURL", "newUserCallbackURL"],
  "/reset-password/:token": ["callbackURL"],
  "/verify-email": ["token", "callbackURL"],
  "/get-session": ["disableCookieCache", "disableRefresh"],
};

/**
 * Every endpoint the store's Better Auth instance answers over HTTP, read from its API object,
 * so a plugin added to server/auth/auth.ts is fuzzed without editing this file.
 */
function authEndpointTargets(): FuzzTarget[] {
  const cfg = loadConfig({
    NODE_ENV: "production",
    SITE_URL: "http://127.0.0.1:9",
    AUTH_SECRET: "fuzz-enumeration-only-0123456789abcdef",
  });
  const db = createDb({ kind: "sqlite", sqlitePath: ":memory:" });
  const auth = betterAuth(buildAuthOptions(db, cfg, UNGUARDED));
  const out: FuzzTarget[] = [];
  for (const endpoint of Object.values(auth.api as Record<string, unknown>)) {
    const e = endpoint as {
      path?: string;
      options?: {
        method?: string | string[];
        metadata?: { SERVER_ONLY?: boolean };
        body?: { shape?: object };
        query?: { shape?: object };
      };
    };
    if (typeof e?.path !== "string" || e.options?.metadata?.SERVER_ONLY) continue;
    const methods = [e.options?.method ?? "GET"].flat().filter((m) => m !== "*");
    out.push({
      pattern: `/api/auth${e.path}`,
      source: "auth",
      methods: methods.length ? methods : ["GET", "POST"],
      body: "json",
      fields: [...new Set([...Object.keys(e.options?.body?.shape ?? {}), ...(AUTH_FIELD_HINTS[e.path] ?? [])])],
      query: [
        ...new Set([
          ...Object.keys(e.options?.query?.shape ?? {}),
          ...(methods.includes("GET") ? (AUTH_FIELD_HINTS[e.path] ?? []) : []),
        ]),
      ],
    });
  }
  void db.destroy();
  return dedupe(out);
}

function dedupe(targets: FuzzTarget[]): FuzzTarget[] {
  const seen = new Map<string, FuzzTarget>();
  for (const t of targets) if (!seen.has(t.pattern)) seen.set(t.pattern, t);
  return [...seen.values()];
}

export function allTargets(): FuzzTarget[] {
  return dedupe([...appRouteTargets(), ...authEndpointTargets(), ...EXTRA_TARGETS]);
}

export interface PatternParam {
  name: string;
  optional: boolean;
  splat: boolean;
}

export function patternParams(pattern: string): PatternParam[] {
  return pattern
    .split("/")
    .filter((s) => s.startsWith(":") || s === "*")
    .map((s) =>
      s === "*"
        ? { name: "*", optional: false, splat: true }
        : { name: s.slice(1).replace(/\?$/, ""), optional: s.endsWith("?"), splat: false },
    );
}

/** A regular expression matching concrete paths of the pattern, capturing its params by name. */
export function patternRegExp(pattern: string): RegExp {
  const body = pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return "(?<splat>.*)";
      if (segment.startsWith(":")) {
        const name = segment.slice(1).replace(/\?$/, "").replace(/\W/g, "_");
        return segment.endsWith("?") ? `(?<${name}>[^/]*)?` : `(?<${name}>[^/]+)`;
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${body}/?$`);
}

/** Fills a pattern's params (already encoded values); a missing optional param drops its segment. */
export function fillPattern(pattern: string, values: Record<string, string | undefined>): string {
  const filled = pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return values["*"] ?? "";
      if (segment.startsWith(":")) return values[segment.slice(1).replace(/\?$/, "")] ?? null;
      return segment;
    })
    .filter((s): s is string => s !== null)
    .join("/");
  return filled || "/";
}
