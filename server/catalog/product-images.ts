/**
 * Uploaded product photos. An upload is decoded by sharp (never trusted by its name or type),
 * turned into WebP renditions at the widths the storefront shows, written under
 * UPLOAD_DIR/products/<file key>-<width>.webp, and recorded in product_images. The URLs carry the
 * file key, which is new for every upload, so they may be cached for a year. A product without
 * uploads keeps its generated SVG pictures.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ExpressionBuilder } from "kysely";
import sharp from "sharp";
import { productImageUrl } from "../../app/lib/catalog-types.ts";
import { writeAudit } from "../audit/audit.ts";
import { config } from "../config.ts";
import { compiledOnce } from "../db/compiled-once.ts";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, InvalidError, NotFoundError, TooLargeError } from "../errors.ts";
import { assertCan, type StaffActor } from "./staff-actor.ts";
import { bumpCatalogVersion } from "./version.ts";

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_IMAGES_PER_PRODUCT = 8;
/** Widths written for every upload: cart and suggestion thumbnails, cards and the product page, its 2× version. */
const RENDITION_WIDTHS = [160, 600, 1200] as const;
export type RenditionWidth = (typeof RENDITION_WIDTHS)[number];
/** What cards and the product page show. */
const DISPLAY_WIDTH: RenditionWidth = 600;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);
/** Refuse pictures whose pixels would take more memory to decode than this (decompression bombs). */
const MAX_INPUT_PIXELS = 50_000_000;

const FILE_KEY = /^p\d{1,12}-[0-9a-f]{16}$/;

function uploadDir(): string {
  return path.resolve(config().UPLOAD_DIR, "products");
}

export function renditionPath(fileKey: string, width: number): string {
  if (!FILE_KEY.test(fileKey)) throw new RangeError("bad file key");
  return path.join(uploadDir(), `${fileKey}-${width}.webp`);
}

export function uploadedImageUrl(productId: number, fileKey: string, width: number = DISPLAY_WIDTH): string {
  return `/images/products/${productId}/${fileKey}-${width}.webp`;
}

/** Reads an uploaded-image file name ("p12-…-600.webp"); null when it isn't one. */
export function parseRenditionName(name: string): { fileKey: string; width: RenditionWidth } | null {
  const m = /^(p\d{1,12}-[0-9a-f]{16})-(\d{2,4})\.webp$/.exec(name);
  if (!m) return null;
  const width = Number(m[2]);
  return (RENDITION_WIDTHS as readonly number[]).includes(width)
    ? { fileKey: m[1], width: width as RenditionWidth }
    : null;
}

export interface ProductImage {
  id: number;
  position: number;
  fileKey: string;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

const productImageRows = compiledOnce((db: Db, productId: number) =>
  db
    .selectFrom("product_images")
    .select(["id", "position", "file_key", "width", "height"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .orderBy("id"),
);

export async function listProductImages(db: Db, productId: number): Promise<ProductImage[]> {
  const rows = await productImageRows(db, productId);
  return rows.map((r) => ({
    id: Number(r.id),
    position: r.position,
    fileKey: r.file_key,
    url: uploadedImageUrl(productId, r.file_key),
    thumbnailUrl: uploadedImageUrl(productId, r.file_key, 160),
    width: r.width,
    height: r.height,
  }));
}

/**
 * The file key of the cover of the product `p` (its first upload, as coverImageUrls picks it), as
 * a subquery of a select from `products as p`: a list that reads its products gets their covers
 * in the same round trip.
 */
export function coverKeyOfProduct(eb: ExpressionBuilder<Database & { p: Database["products"] }, "p">) {
  return eb
    .selectFrom("product_images as i")
    .select("i.file_key")
    .whereRef("i.product_id", "=", "p.id")
    .orderBy("i.position")
    .orderBy("i.id")
    .limit(1);
}

/** The first uploaded image of each product that has one (cards, suggestions). */
export async function coverImageUrls(db: Db, productIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom("product_images")
    .select(["product_id", "file_key", "position", "id"])
    .where("product_id", "in", productIds)
    .orderBy("product_id")
    .orderBy("position")
    .orderBy("id")
    .execute();
  for (const r of rows)
    if (!out.has(Number(r.product_id)))
      out.set(Number(r.product_id), uploadedImageUrl(Number(r.product_id), r.file_key));
  return out;
}

/** The card image of a product: its first upload, else the generated picture. */
export function cardImage(covers: Map<number, string>, id: number): string {
  return covers.get(id) ?? productImageUrl(id);
}

/** Decodes the upload and makes its renditions; a file that isn't a JPEG, PNG or WebP picture is refused. */
async function makeRenditions(
  input: Uint8Array,
): Promise<{ width: number; height: number; files: Map<RenditionWidth, Buffer> }> {
  if (input.byteLength === 0) throw new InvalidError("image_empty", "Choose a picture to upload.");
  if (input.byteLength > MAX_IMAGE_BYTES)
    throw new TooLargeError("image_too_large", "The picture must be 10 MB or smaller.");
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new InvalidError("image_invalid", "That file isn't a JPEG, PNG or WebP picture.");
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) {
    throw new InvalidError("image_invalid", "That file isn't a JPEG, PNG or WebP picture.");
  }
  const files = new Map<RenditionWidth, Buffer>();
  try {
    for (const width of RENDITION_WIDTHS) {
      const out = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width, height: width, fit: "inside", withoutEnlargement: true })
        .flatten({ background: "#ffffff" })
        .webp({ quality: 82 })
        .toBuffer();
      files.set(width, out);
    }
  } catch {
    // Headers that decode but pixels that don't (a truncated file).
    throw new InvalidError("image_invalid", "That picture could not be read; it may be damaged.");
  }
  const upright = (meta.orientation ?? 1) >= 5;
  return { width: upright ? meta.height : meta.width, height: upright ? meta.width : meta.height, files };
}

async function writeRenditions(fileKey: string, files: Map<RenditionWidth, Buffer>): Promise<void> {
  await mkdir(uploadDir(), { recursive: true });
  for (const [width, buffer] of files) {
    const target = renditionPath(fileKey, width);
    const temp = `${target}.${randomBytes(4).toString("hex")}.tmp`;
    await writeFile(temp, buffer);
    await rename(temp, target);
  }
}

async function removeRenditions(fileKey: string): Promise<void> {
  await Promise.all(RENDITION_WIDTHS.map((w) => rm(renditionPath(fileKey, w), { force: true }).catch(() => undefined)));
}

/** Adds a photo to a product: renditions on disk first, then the row, the audit entry and the catalog version in one transaction. */
export async function addProductImage(
  db: Db,
  actor: StaffActor,
  productId: number,
  input: Uint8Array,
): Promise<ProductImage> {
  assertCan(actor, { product: ["update"] });
  const product = await db.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst();
  if (!product) throw new NotFoundError("not_found", "That product doesn't exist.");
  const { width, height, files } = await makeRenditions(input);
  const fileKey = `p${productId}-${randomBytes(8).toString("hex")}`;
  await writeRenditions(fileKey, files);
  try {
    const id = await db.transaction().execute(async (trx) => {
      const count = await trx
        .selectFrom("product_images")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("product_id", "=", productId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_IMAGES_PER_PRODUCT)
        throw new ConflictError(
          "too_many_images",
          `A product can have at most ${MAX_IMAGES_PER_PRODUCT} pictures; remove one first.`,
        );
      const last = await trx
        .selectFrom("product_images")
        .select((eb) => eb.fn.max("position").as("p"))
        .where("product_id", "=", productId)
        .executeTakeFirst();
      const position = Number(last?.p ?? 0) + 1;
      const row = await trx
        .insertInto("product_images")
        .values({
          product_id: productId,
          position,
          file_key: fileKey,
          width,
          height,
          created_at: new Date().toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeAudit(trx, actor, {
        action: "product.image.add",
        objectType: "product",
        objectId: productId,
        after: { image: fileKey, width, height, position },
      });
      await bumpCatalogVersion(trx);
      return Number(row.id);
    });
    return (await listProductImages(db, productId)).find((i) => i.id === id)!;
  } catch (error) {
    await removeRenditions(fileKey);
    throw error;
  }
}

/** Removes one photo (row, audit entry and version bump together; the files after the commit). */
export async function removeProductImage(db: Db, actor: StaffActor, productId: number, imageId: number): Promise<void> {
  assertCan(actor, { product: ["update"] });
  const fileKey = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("product_images")
      .select(["id", "file_key", "position"])
      .where("id", "=", imageId)
      .where("product_id", "=", productId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError("not_found", "That picture was already removed.");
    await trx.deleteFrom("product_images").where("id", "=", row.id).execute();
    await writeAudit(trx, actor, {
      action: "product.image.remove",
      objectType: "product",
      objectId: productId,
      before: { image: row.file_key, position: row.position },
    });
    await bumpCatalogVersion(trx);
    return row.file_key;
  });
  await removeRenditions(fileKey);
}

/** Makes one photo the first (the one cards show). */
export async function makeCoverImage(db: Db, actor: StaffActor, productId: number, imageId: number): Promise<void> {
  assertCan(actor, { product: ["update"] });
  await db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("product_images")
      .select(["id", "file_key"])
      .where("product_id", "=", productId)
      .orderBy("position")
      .orderBy("id")
      .execute();
    const chosen = rows.find((r) => Number(r.id) === imageId);
    if (!chosen) throw new NotFoundError("not_found", "That picture was removed.");
    const order = [chosen, ...rows.filter((r) => r !== chosen)];
    for (const [i, r] of order.entries())
      await trx
        .updateTable("product_images")
        .set({ position: i + 1 })
        .where("id", "=", r.id)
        .execute();
    await writeAudit(trx, actor, {
      action: "product.image.cover",
      objectType: "product",
      objectId: productId,
      after: { image: chosen.file_key },
    });
    await bumpCatalogVersion(trx);
  });
}
