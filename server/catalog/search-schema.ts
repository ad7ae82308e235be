import type { Db } from "../db/connection.ts";
import { ensureSearchVocabulary, rebuildSearchVocabulary } from "./search-vocabulary.ts";

/**
 * After the catalog changed in bulk (the seed): the vocabulary is current. The search tables
 * themselves come from the migrations (004 and the later search ones; 028 repairs a database
 * whose 004 left none or an earlier shape).
 */
export async function refreshSearchIndex(db: Db, options: { productsChanged: boolean }): Promise<void> {
  if (options.productsChanged) await rebuildSearchVocabulary(db);
  else await ensureSearchVocabulary(db);
}
