import pino, { type Logger } from "pino";

const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;
// Long base64url/hex runs: session tokens, reset and sign-in tokens, order access tokens, secrets.
const TOKEN = /[A-Za-z0-9_-]{24,}(?:\.[A-Za-z0-9_-]{10,}){0,2}/g;
const SECRET_PAIR =
  /\b(password|passwd|secret|token|cookie|authorization)(["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&]+)/gi;

/** `jane.doe@example.com` → `j***@example.com`: enough to tell mails apart, not to contact anyone. */
export function maskEmail(email: string): string {
  return email.replace(EMAIL, "$1***@$2");
}

/** Scrubs what must never reach a log line: email addresses, tokens and secret-looking pairs. */
function scrubLogText(text: string): string {
  return maskEmail(text.replace(SECRET_PAIR, "$1$2[redacted]")).replace(TOKEN, "[redacted]");
}

function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubLogText(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Error)
    return {
      type: value.name,
      message: scrubLogText(value.message),
      stack: value.stack ? scrubLogText(value.stack) : undefined,
    };
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      // The request id is ours (or the trusted proxy's, checked in request-log.ts) and must stay
      // readable: it is how a log line is found from a reply's X-Request-Id or nginx's log.
      k === "reqId" && depth === 0 && typeof v === "string"
        ? v
        : /password|secret|token|cookie|authorization/i.test(k)
          ? "[redacted]"
          : scrubValue(v, depth + 1),
    ]),
  );
}

function createLogger(): Logger {
  return pino({
    level: process.env.LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      // Every argument passes the scrubber, so a careless call can't leak an address or a token.
      logMethod(args, method) {
        method.apply(this, args.map((a) => scrubValue(a)) as Parameters<typeof method>);
      },
    },
  });
}

let processLogger: Logger | undefined;

/** The process's logger: one JSON line per event on stdout. */
export function log(): Logger {
  processLogger ??= createLogger();
  return processLogger;
}

/** Tests only: makes `log()` answer with `logger` (undefined: back to the default on next use). */
export function useLoggerForTests(logger: Logger | undefined): void {
  processLogger = logger;
}

/** A `(line) => void` for modules that take a plain line logger. */
export const logLine = (line: string) => log().info(line);
