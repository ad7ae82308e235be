/** A small seeded PRNG (sfc32), so a fuzz run can be replayed exactly from its seed. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: [[weight, value], …]. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T;
  /** Up to `max` distinct items, in random order. */
  some<T>(items: readonly T[], max: number): T[];
}

export function createRandom(seed: number): Random {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const raw = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) raw();
  const random: Random = {
    next: raw,
    int: (min, max) => min + Math.floor(raw() * (max - min + 1)),
    chance: (p) => raw() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[Math.floor(raw() * items.length)];
    },
    weighted: (entries) => {
      const total = entries.reduce((n, [w]) => n + w, 0);
      let x = raw() * total;
      for (const [w, v] of entries) {
        x -= w;
        if (x < 0) return v;
      }
      return entries[entries.length - 1][1];
    },
    some: (items, max) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(raw() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, random.int(0, Math.min(max, copy.length)));
    },
  };
  return random;
}

/**
 * The seed `npm test` uses: a fixed one, so a run's outcome depends only on the code (new routes
 * and forms still change the cases it makes). FUZZ_SEED=random explores; any failure prints its seed.
 */
const DEFAULT_FUZZ_SEED = 20_261_123;

/** FUZZ_SEED when set (decimal, or "random" for a fresh one), else DEFAULT_FUZZ_SEED. */
export function fuzzSeed(): number {
  const fromEnv = process.env.FUZZ_SEED;
  if (fromEnv && /^\d+$/.test(fromEnv)) return Number(fromEnv) >>> 0;
  if (fromEnv === "random") return Math.floor(Math.random() * 2 ** 32) >>> 0;
  return DEFAULT_FUZZ_SEED;
}
