/**
 * RFC 6238 TOTP from a base32 key, as an authenticator app computes it: tests sign staff in with
 * the same key text the enrolment page shows (independent of Better Auth's own code).
 */
import { createHmac } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = ALPHABET.indexOf(ch);
    if (index < 0) throw new Error(`Not base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function totpCode(base32Key: string, at = Date.now(), period = 30): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / period)));
  const mac = createHmac("sha1", base32Decode(base32Key)).update(counter).digest();
  const offset = mac[mac.length - 1] & 15;
  const n = ((mac[offset] & 127) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(n % 1_000_000).padStart(6, "0");
}

/** The base32 key inside an otpauth:// URI. */
export function keyFromUri(uri: string): string {
  const key = new URL(uri).searchParams.get("secret");
  if (!key) throw new Error("No secret in the TOTP URI");
  return key;
}

const lastStepUsed = new Map<string, number>();

/**
 * A code for a time step this process hasn't used for that key yet, as a person waits for the next
 * code: the store accepts each step once, and one step either side of now. Waits (up to a step)
 * only when the current and the next step are both spent.
 */
export async function freshTotpCode(base32Key: string, period = 30): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / 1000 / period);
    const step = Math.max(now, (lastStepUsed.get(base32Key) ?? -Infinity) + 1);
    if (step <= now + 1) {
      lastStepUsed.set(base32Key, step);
      return totpCode(base32Key, step * period * 1000, period);
    }
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * period * 1000 - Date.now() + 50));
  }
}
