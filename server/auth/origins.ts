import type { AppConfig } from "../config.ts";

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * True in the embedded default mode: neither SITE_URL nor AUTH_TRUSTED_ORIGINS is set. The store
 * then trusts a request whose Origin is the loopback host the request was sent to, so that
 * http://localhost:PORT and http://127.0.0.1:PORT both work for a newcomer.
 */
export function isLoopbackDefault(cfg: Pick<AppConfig, "SITE_URL" | "AUTH_TRUSTED_ORIGINS">): boolean {
  return !cfg.SITE_URL && !cfg.AUTH_TRUSTED_ORIGINS?.trim();
}

/** `host:port` for each loopback name on this port (Better Auth's allowed hosts). */
export function loopbackHosts(port: number): string[] {
  return LOOPBACK_HOSTS.map((h) => `${h}:${port}`);
}

/** The authorized-domains list: AUTH_TRUSTED_ORIGINS, or the site's own origin, or (default mode) each loopback origin. */
export function trustedOrigins(cfg: AppConfig): string[] {
  if (isLoopbackDefault(cfg)) return loopbackHosts(cfg.PORT).map((h) => `http://${h}`);
  const list = (cfg.AUTH_TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim().replace(/\/$/, ""))
    .filter(Boolean);
  return list.length ? list : [new URL(cfg.siteUrl).origin];
}

/** How a state-changing request's origin is judged. */
export interface OriginPolicy {
  allowed: string[];
  /** Default mode: an origin is trusted only when it is the loopback host the request was sent to. */
  sameLoopbackHost: boolean;
}

export function originPolicy(cfg: AppConfig): OriginPolicy {
  return { allowed: trustedOrigins(cfg), sameLoopbackHost: isLoopbackDefault(cfg) };
}

/**
 * Whether a state-changing request may come from where it says it does. Browsers send Origin on
 * every POST; when it is missing we fall back to Sec-Fetch-Site, and a request with neither
 * (a non-browser client, which carries no ambient cookies to abuse) is allowed.
 */
export function isTrustedOrigin(
  headers: { get(name: string): string | null },
  policy: OriginPolicy | string[],
): boolean {
  const { allowed, sameLoopbackHost } = Array.isArray(policy) ? { allowed: policy, sameLoopbackHost: false } : policy;
  const origin = headers.get("origin");
  if (origin === "null") return false;
  if (origin) {
    const clean = origin.replace(/\/$/, "");
    if (!allowed.includes(clean)) return false;
    return !sameLoopbackHost || clean === `http://${headers.get("host") ?? ""}`;
  }
  const site = headers.get("sec-fetch-site");
  return !site || site === "same-origin" || site === "none";
}

/** The start-up line that says which origins may sign in and post forms. */
export function describeTrustedOrigins(cfg: AppConfig): string {
  const list = trustedOrigins(cfg).join(", ");
  return isLoopbackDefault(cfg)
    ? `Trusted origins: ${list} (each only for requests sent to that same host; set SITE_URL or AUTH_TRUSTED_ORIGINS for a public site)`
    : `Trusted origins: ${list}`;
}
