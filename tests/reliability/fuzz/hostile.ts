/** Hostile input: strings, numbers, JSON values and query strings that real clients never send. */
import type { Random } from "./prng.ts";

export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "0",
  "-1",
  "-0",
  "1.5",
  "1e309",
  "NaN",
  "Infinity",
  "0x1F",
  "99999999999999999999999999",
  "2147483648",
  "9007199254740993",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "' OR '1'='1",
  "'; DROP TABLE products; --",
  '" OR 1=1 --',
  "1; SELECT pg_sleep(3)",
  "%' --",
  "\\",
  "'",
  '"',
  "`",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "{{7*7}}",
  "${7*7}",
  "../../../../etc/passwd",
  "..\\..\\..\\windows\\win.ini",
  "..%2f..%2f..%2fetc%2fpasswd",
  "\u0000",
  "a\u0000b",
  "\r\nSet-Cookie: injected=1",
  "\t\n\r",
  "\u202Egnp.exe",
  "\u200B\u200B",
  "\uFEFF",
  "\uD800",
  "\uDFFF\uD800",
  "😀🔧🔨",
  "𝕳𝖆𝖒𝖒𝖊𝖗",
  "Ω≈ç√∫˜µ≤≥÷",
  "ｔｏｏｌ",
  "ß",
  "İ",
  "日本語のテキスト",
  "مرحبا",
  "%",
  "%%",
  "%zz",
  "%E0%A4%A",
  "%C0%AE%C0%AE",
  "%00",
  "%FF%FE",
  "+",
  "&",
  "=",
  "?",
  "#",
  ";",
  "/",
  "//evil.example",
  "http://evil.example/",
  "mailto:a@b.c",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "a@b",
  "@example.com",
  "a@b.c".repeat(60),
  "x@example.com\r\nBcc: victim@example.com",
  "Robert'); DROP TABLE students;--@example.com",
  "TH-0000000000",
  "-".repeat(64),
  "A".repeat(64),
];

/** A string of `length` characters drawn from a hostile alphabet. */
export function randomText(rng: Random, length: number): string {
  const alphabets = [
    "abcdefghijklmnopqrstuvwxyz0123456789",
    "%&=?#/\\'\"<>;:+ .,-_*()[]{}|^~`!$@",
    "\u0000\u0001\u0007\u001f\u007f\u0085\u00a0\u2028\u2029",
    "éßüøåЖЯ中文日本語한국어😀🔧𝕳",
  ];
  let out = "";
  while (out.length < length) {
    const alphabet = [...rng.pick(alphabets)];
    out += rng.pick(alphabet);
  }
  return out;
}

/** Sizes that cross the limits the app enforces (names ~100–254, forms 16 KiB, auth 64 KiB). */
function hugeText(rng: Random): string {
  const size = rng.pick([255, 1_000, 4_097, 9_000, 16_000, 17_000, 40_000, 70_000]);
  return rng.chance(0.5)
    ? "A".repeat(size)
    : randomText(rng, Math.min(size, 3_000))
        .repeat(Math.ceil(size / 3_000))
        .slice(0, size);
}

/** A hostile value for a field whose real value is `real` (used now and then, slightly changed). */
export function hostileValue(rng: Random, real?: string): string {
  return rng.weighted<() => string>([
    [5, () => rng.pick(HOSTILE_STRINGS)],
    [2, () => randomText(rng, rng.int(1, 60))],
    [1, () => hugeText(rng)],
    [2, () => real ?? ""],
    [1, () => (real ?? "") + rng.pick(HOSTILE_STRINGS)],
    [1, () => (real ? real.slice(0, rng.int(0, real.length)) : "")],
    [1, () => String(rng.int(-5, 5) * 10 ** rng.int(0, 12))],
  ])();
}

/** Any JSON value, nested up to `depth`, hostile at the leaves. */
export function hostileJson(rng: Random, depth = 3): unknown {
  return rng.weighted<() => unknown>([
    [4, () => hostileValue(rng)],
    [1, () => rng.int(-(2 ** 53), 2 ** 53)],
    [1, () => rng.pick([0, -1, 1.5, 1e308, -1e-308])],
    [1, () => rng.pick([true, false, null])],
    [depth > 0 ? 1 : 0, () => Array.from({ length: rng.int(0, 4) }, () => hostileJson(rng, depth - 1))],
    [
      depth > 0 ? 1 : 0,
      () =>
        Object.fromEntries(
          Array.from({ length: rng.int(0, 4) }, () => [hostileValue(rng).slice(0, 40), hostileJson(rng, depth - 1)]),
        ),
    ],
    [depth > 0 ? 0.2 : 0, () => deeplyNested(rng.int(50, 2_000))],
  ])();
}

function deeplyNested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Percent-encodes a value, or now and then leaves it raw (malformed escapes, `../`, quotes …). */
export function encodeHostile(rng: Random, value: string): string {
  return rng.chance(0.75) ? encodeURIComponent(safeForEncoding(value)) : value;
}

/** encodeURIComponent throws on lone surrogates; replace them so the rest still goes out. */
export function safeForEncoding(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** A query string with the given parameter names (and some random ones): repeated keys, malformed escapes. */
export function hostileQuery(rng: Random, names: readonly string[], realValues: Record<string, string[]> = {}): string {
  const pool = [
    ...names,
    "q",
    "page",
    "sort",
    "token",
    "callbackURL",
    "redirectTo",
    "error",
    "_routes",
    "index",
    "_data",
    "__proto__[x]",
    "a[]",
    "a[b][c]",
  ];
  const parts: string[] = [];
  for (let i = rng.int(1, 6); i > 0; i--) {
    const name = rng.pick(pool);
    const real = realValues[name]?.length ? rng.pick(realValues[name]) : undefined;
    const value = hostileValue(rng, real);
    parts.push(`${encodeHostile(rng, name)}=${encodeHostile(rng, value.slice(0, 6_000))}`);
    if (rng.chance(0.15)) parts.push(`${encodeHostile(rng, name)}=${encodeHostile(rng, hostileValue(rng))}`);
  }
  if (rng.chance(0.1)) parts.push(rng.pick(["%", "&&&", "=", "==", "a", "%zz=%zz", "%00=%00", "x=%E0%A4%A"]));
  return parts.join("&");
}
