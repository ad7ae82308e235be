import { discountedPriceCents } from "../../../app/lib/pricing.ts";
import { DEFAULT_UK_PRICE_RULE } from "../../../app/lib/price-derivation.ts";
import { ukPriceColumns } from "../../catalog/market-prices.ts";
import type { NewProduct } from "../schema.ts";
import {
  BRAND_PROFILES,
  BRANDS,
  CATEGORIES,
  COLOR_PALETTE,
  COUNTRIES,
  DESCRIPTION_CLOSERS,
  PRODUCT_TEMPLATES,
  RETURN_POLICIES,
  type ProductKind,
} from "./catalog-data.ts";

/** Default number of products the seed creates (matches SEED_PRODUCTS' default in server/config.ts). */
export const productCountForSeed = 600;

const DISCOUNT_CHOICES = [5, 10, 15, 20, 25, 30] as const;

const EPOCH_MS = Date.UTC(2025, 0, 1, 0, 0, 0);
// Ten seconds apart keeps even a million-product catalog in the past (about 116 days from 2025-01-01).
const SECONDS_PER_PRODUCT = 10;

/** mulberry32: tiny, fast, well-distributed 32-bit PRNG. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Spreads consecutive indexes over the seed space so neighbouring products are unrelated. */
function seedFor(index: number): number {
  let h = Math.imul((index + 1) >>> 0, 0x9e3779b1) ^ 0x5bd1e995;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

type Rng = () => number;

function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

/** `count` distinct items in a random order (partial Fisher–Yates). */
function sample<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const copy = items.slice();
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng() * (copy.length - i));
    const tmp = copy[i];
    copy[i] = copy[j];
    copy[j] = tmp;
  }
  return copy.slice(0, n);
}

function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Realistic shelf price: a whole-dollar amount in range ending .99, .49, .95 or .00. */
function priceIn(rng: Rng, [min, max]: [number, number]): number {
  const raw = min + rng() * (max - min);
  const dollars = Math.max(1, Math.floor(raw / 100));
  const ending = pick(rng, [99, 99, 99, 49, 95, 0]);
  const cents = dollars * 100 + ending;
  return Math.min(Math.max(cents, min), max);
}

function weightIn(rng: Rng, [min, max]: [number, number]): number {
  const step = max - min > 2000 ? 50 : 5;
  return Math.max(min, Math.round(int(rng, min, max) / step) * step);
}

function fillTitle(pattern: string, brand: string, values: string[]): string {
  return pattern.replace("{brand}", brand).replace(/\{(\d)\}/g, (_, n: string) => values[Number(n)] ?? "");
}

function modelNumber(rng: Rng, brandCode: string, kind: ProductKind, values: string[]): string {
  const digits = /\d+/.exec(values[0] ?? "")?.[0];
  const number = digits && digits.length <= 3 ? digits : String(int(rng, 10, 99));
  return `${brandCode}-${kind.code}${number}-${int(rng, 1, 9)}`;
}

/** Which brand makes product `index`: every brand appears in each run of 15, in a shifting order. */
function brandSlot(index: number): number {
  const round = Math.floor(index / CATEGORIES.length);
  return (index + round * 4) % BRANDS.length;
}

/**
 * Product number `index` (0-based) of the seed catalog. Pure: the same index and refs always give
 * the same row. `refs` maps category/brand positions (the order of CATEGORIES/BRANDS) to ids.
 */
export function generateProduct(index: number, refs: { categoryIds: number[]; brandIds: number[] }): NewProduct {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`Invalid product index: ${index}`);
  const rng = mulberry32(seedFor(index));

  const categoryPos = index % CATEGORIES.length;
  const brandPos = brandSlot(index);
  const category = CATEGORIES[categoryPos];
  const brand = BRANDS[brandPos];
  const profile = BRAND_PROFILES[brandPos];
  const kind = pick(rng, PRODUCT_TEMPLATES[category.slug]);

  const values = kind.slots.map((options) => pick(rng, options));
  const title = fillTitle(pick(rng, kind.titles), brand.name, values);
  const number = index + 1;

  const features = sample(rng, kind.features, int(rng, 3, Math.min(6, kind.features.length)));
  const colors = sample(rng, COLOR_PALETTE, int(rng, 1, 3));

  const [intro, ...rest] = kind.descriptions;
  const sentences = [intro, ...sample(rng, rest, int(rng, 1, Math.max(1, rest.length)))];
  if (rng() < 0.7) sentences.push(pick(rng, DESCRIPTION_CLOSERS));
  const description = sentences.join(" ").replaceAll("{brand}", brand.name);

  const price = priceIn(rng, kind.priceCents);
  const discount = rng() < 1 / 3 ? pick(rng, DISCOUNT_CHOICES) : null;
  const stock = rng() < 0.05 ? 0 : int(rng, 1, 250);

  const categoryId = refs.categoryIds[categoryPos];
  const brandId = refs.brandIds[brandPos];
  if (categoryId === undefined || brandId === undefined) {
    throw new Error(`generateProduct needs ${CATEGORIES.length} category ids and ${BRANDS.length} brand ids`);
  }

  return {
    slug: `${slugify(title)}-${number}`,
    sku: `TH-${String(number).padStart(7, "0")}`,
    title,
    description,
    features: JSON.stringify(features),
    price_cents: price,
    discount_percent: discount,
    sale_price_cents: discountedPriceCents(price, discount),
    ...ukPriceColumns({ priceCents: price, discountPercent: discount, ukPricePence: null }, DEFAULT_UK_PRICE_RULE),
    colors: JSON.stringify(colors),
    stock_quantity: stock,
    brand_id: brandId,
    category_id: categoryId,
    model: modelNumber(rng, profile.code, kind, values),
    material: pick(rng, kind.materials),
    weight_grams: weightIn(rng, kind.weightGrams),
    country_of_origin: pick(rng, COUNTRIES),
    manufacturer: profile.company,
    return_policy: pick(rng, RETURN_POLICIES),
    image_count: int(rng, 1, 4),
    rating: 5,
    featured: index < 4 ? 1 : 0,
    created_at: new Date(EPOCH_MS + index * SECONDS_PER_PRODUCT * 1000).toISOString(),
    updated_at: new Date(EPOCH_MS + index * SECONDS_PER_PRODUCT * 1000).toISOString(),
  };
}
