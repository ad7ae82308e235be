/**
 * Keeps the search in step with one product's change from the back office, inside the caller's
 * transaction. Triggers already rewrite the product's search document (FTS5 / tsvector) and its
 * search_products row when its text or facts change; this module does the rest:
 *
 * - search_products holds the products on sale: archiving a product removes its row (so the shop
 *   grid, facet counts, search and suggestions leave it out), unarchiving puts it back. SQLite's
 *   FTS index keeps archived products; every FTS query joins search_products.
 * - the vocabulary (search_terms) gains and loses the words of that product, so new words are
 *   found, completed and corrected at once, without rebuilding the whole vocabulary.
 */
import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { porterStem, trigrams, words } from "./search-text.ts";
import { forgetVocabulary, indexable } from "./search-vocabulary.ts";
import { productsWithBrandAndCategory } from "./product-rows.ts";

/** The text of a product that the search indexes. */
export interface SearchText {
  title: string;
  description: string;
  brand: string;
  category: string;
}

/** The search text of products as they are now (null for ids that don't exist). */
export async function searchTextOf(db: Db, id: number): Promise<SearchText | null> {
  const row = await productsWithBrandAndCategory(db)
    .select(["p.title", "p.description", "b.name as brand", "c.name as category"])
    .where("p.id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

function wordSets(text: SearchText | null): { head: Set<string>; all: Set<string> } {
  if (!text) return { head: new Set(), all: new Set() };
  const head = new Set(words(`${text.title} ${text.brand} ${text.category}`).filter(indexable));
  const all = new Set(head);
  for (const w of words(text.description)) if (indexable(w)) all.add(w);
  return { head, all };
}

/**
 * Moves the vocabulary's counts from `before` to `after` (null = the product is not on sale).
 * Words no product on sale uses any more leave the vocabulary, unless a brand or category name has them.
 */
export async function updateVocabulary(trx: Db, before: SearchText | null, after: SearchText | null): Promise<void> {
  const b = wordSets(before);
  const a = wordSets(after);
  const changes = new Map<string, { doc: number; title: number }>();
  const add = (word: string, doc: number, title: number) => {
    const c = changes.get(word) ?? { doc: 0, title: 0 };
    c.doc += doc;
    c.title += title;
    changes.set(word, c);
  };
  for (const w of a.all) if (!b.all.has(w)) add(w, 1, 0);
  for (const w of b.all) if (!a.all.has(w)) add(w, -1, 0);
  for (const w of a.head) if (!b.head.has(w)) add(w, 0, 1);
  for (const w of b.head) if (!a.head.has(w)) add(w, 0, -1);
  if (changes.size === 0) return;

  const sqlite = dbKind(trx) === "sqlite";
  const list = [...changes.keys()];
  const existing = new Map(
    (
      await trx
        .selectFrom("search_terms")
        .select(["term", "doc_count", "title_count"])
        .where("term", "in", list)
        .execute()
    ).map((r) => [r.term, r]),
  );
  const names = await Promise.all([
    trx.selectFrom("brands").select("name").execute(),
    trx.selectFrom("categories").select("name").execute(),
  ]);
  const nameWords = new Set(names.flat().flatMap((n) => words(n.name)));

  for (const [term, change] of changes) {
    const row = existing.get(term);
    const doc = Math.max(0, Number(row?.doc_count ?? 0) + change.doc);
    const title = Math.max(0, Number(row?.title_count ?? 0) + change.title);
    if (!row) {
      if (doc === 0) continue;
      await trx
        .insertInto("search_terms")
        .values({
          term,
          stem: porterStem(term),
          doc_count: doc,
          title_count: title,
          trigram_count: trigrams(term).length,
        })
        .execute();
      if (sqlite)
        await trx
          .insertInto("search_term_trigrams")
          .values(trigrams(term).map((trigram) => ({ trigram, term })))
          .execute();
    } else if (doc === 0 && !nameWords.has(term)) {
      await trx.deleteFrom("search_terms").where("term", "=", term).execute();
      if (sqlite)
        await trx
          .deleteFrom("search_term_trigrams")
          .where("term", "=", term)
          .where("trigram", "in", trigrams(term))
          .execute();
    } else {
      await trx
        .updateTable("search_terms")
        .set({ doc_count: doc, title_count: title })
        .where("term", "=", term)
        .execute();
    }
  }
  forgetVocabulary(trx);
}

/** Takes products out of the shop's search (archiving). */
export async function withdrawFromSearch(trx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const texts = [];
  for (const id of ids) texts.push(await searchTextOf(trx, id));
  // search_products first, as a product's edit does: its triggers lock the search version's row
  // (PostgreSQL), then the vocabulary's rows. Taken the other way round, an edit and an archive
  // sharing a word could deadlock.
  await trx.deleteFrom("search_products").where("product_id", "in", ids).execute();
  for (const text of texts) await updateVocabulary(trx, text, null);
}

/** Puts products back into the shop's search (unarchiving). */
export async function restoreToSearch(trx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.deleteFrom("search_products").where("product_id", "in", ids).execute();
  const list = sql.join(ids);
  if (dbKind(trx) === "postgres") {
    await sql`
      INSERT INTO search_products (product_id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title, head, document)
      SELECT p.id, p.category_id, p.brand_id, p.sale_price_cents, p.discount_percent, p.stock_quantity, p.created_at, p.title,
             search_head(p.title, b.name, c.name), search_document(p.title, b.name, c.name, p.description)
      FROM products p JOIN brands b ON b.id = p.brand_id JOIN categories c ON c.id = p.category_id
      WHERE p.id IN (${list})`.execute(trx);
  } else {
    await sql`
      INSERT INTO search_products (product_id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title)
      SELECT id, category_id, brand_id, sale_price_cents, discount_percent, stock_quantity, created_at, title FROM products WHERE id IN (${list})`.execute(
      trx,
    );
  }
  for (const id of ids) await updateVocabulary(trx, null, await searchTextOf(trx, id));
}
