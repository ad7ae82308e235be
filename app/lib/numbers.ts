// Numbers written for people, without Intl: the first Intl formatter a browser page creates loads
// ICU's locale data, 12–50 ms of the main thread in one go on a fast machine (four times that under
// Lighthouse's CPU throttling), and these are the only formats the storefront needs. The output is
// what Intl's "en-US" gives (tests/unit/numbers.test.ts checks them side by side).

/** A whole number with thousands separators, as "en-US" writes it: 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`Expected a whole number, got ${n}`);
  const digits = String(Math.abs(n));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${grouped}` : grouped;
}

/** A count and its noun: 1 → "1 line", 1200 → "1,200 lines". */
export function countText(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
