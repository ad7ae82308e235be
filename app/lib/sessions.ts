/** "Active sessions" on /account: what the page shows of a session, and its texts. Shared by server and page. */

/** One signed-in session as the page sees it. It never carries the session's token. */
export interface ActiveSession {
  /** The session's id: how the page names a session it wants to end. */
  id: string;
  /** Browser and system from the user agent, e.g. "Chrome on Windows". */
  device: string;
  ipAddress: string | null;
  /** ISO 8601. */
  signedInAt: string;
  /** ISO 8601: when the store last refreshed the session (at most a day behind). */
  lastActiveAt: string;
  /** The session this request came with. */
  current: boolean;
}

export const SESSION_INTENTS = { endOne: "end-session", endOthers: "end-other-sessions" } as const;
export type SessionIntent = (typeof SESSION_INTENTS)[keyof typeof SESSION_INTENTS];

/** Whether a form's intent belongs to the "Active sessions" section. */
export function isSessionIntent(intent: unknown): intent is SessionIntent {
  return intent === SESSION_INTENTS.endOne || intent === SESSION_INTENTS.endOthers;
}

export const SESSION_MESSAGES = {
  ended: (device: string) => `The session on ${device} has ended. That device is signed out.`,
  othersEnded: "Every other session has ended. Those devices are signed out.",
  noOthers: "There were no other sessions to end.",
  notFound: "That session wasn't found. It may have ended already.",
  current: "That's the session you're using now. To end it, log out.",
} as const;

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bCriOS\/|Chrome\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\/|\b(iPhone|iPad)\b.*\bMobile\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, "Windows"],
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const first = (list: [RegExp, string][], ua: string) => list.find(([pattern]) => pattern.test(ua))?.[1];

/** A short, human summary of a user agent: "Chrome on Windows", "Safari on iPhone", or "Unknown device". */
export function describeDevice(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? "").slice(0, 512);
  const browser = first(BROWSERS, ua);
  const system = first(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return "Unknown device";
}

/** An address as people know it: an IPv4-mapped IPv6 address (::ffff:1.2.3.4) shown as IPv4. */
export function displayIp(ip: string | null | undefined): string | null {
  if (!ip || ip === "unknown") return null;
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** "23 Nov 2026": the same on the server and in every browser (UTC, no locale data). */
export function formatSessionDate(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "23 Nov 2026, 14:05 UTC". */
export function formatSessionTime(iso: string): string {
  const d = new Date(iso);
  return `${formatSessionDate(iso)}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** The accessible name of a session's "End session" button: which session it ends. */
export function endSessionLabel(session: Pick<ActiveSession, "device" | "ipAddress" | "signedInAt">): string {
  const where = session.ipAddress ? ` from ${session.ipAddress}` : "";
  return `End session: ${session.device}${where}, signed in ${formatSessionTime(session.signedInAt)}`;
}
