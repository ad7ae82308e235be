import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";
import { createPostingFunctions } from "./024_search_postings.ts";

/**
 * PostgreSQL: `search_cells_version.words_version`, which the lists of products per word move
 * whenever a list may have changed (a product joined or left, or its words, category or brand
 * changed), so that each process can keep the lists it has read until then
 * (server/catalog/search-postings.ts, docs/decisions/0030-postgres-search-lists-kept.md). The
 * triggers' functions are re-created to move it.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  await createPostingFunctions(db, kind);
}
