import type { AppConfig } from "../config.ts";

/** The authorized-domains list: AUTH_TRUSTED_ORIGINS, or the site's own origin. */
export function trustedOrigins(cfg: AppConfig): string[] {
  const list = (cfg.AUTH_TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim().replace(/\/$/, ""))
    .filter(Boolean);
  return list.length ? list : [new URL(cfg.siteUrl).origin];
}

/**
 * Whether a state-changing request may come from where it says it does. Browsers send Origin on
 * every POST; when it is missing we fall back to Sec-Fetch-Site, and a request with neither
 * (a non-browser client, which carries no ambient cookies to abuse) is allowed.
 */
export function isTrustedOrigin(headers: { get(name: string): string | null }, allowed: string[]): boolean {
  const origin = headers.get("origin");
  if (origin && origin !== "null") return allowed.includes(origin.replace(/\/$/, ""));
  if (origin === "null") return false;
  const site = headers.get("sec-fetch-site");
  return !site || site === "same-origin" || site === "none";
}
