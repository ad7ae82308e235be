import { describe, expect, it } from "vitest";
import { worthPreparing } from "../../server/db/pg-prepared.ts";

describe("which PostgreSQL statements become prepared statements", () => {
  it.each([
    ['select "id", "title" from "products" where "id" = $1', [1], true],
    [
      'update "products" set "stock_quantity" = "stock_quantity" + $1 where "id" = $2 returning "stock_quantity"',
      [1, 2],
      true,
    ],
    ['select count(*) as "n" from "orders" where "status" = $1', ["placed"], true],
    ["begin", [], false],
    ['select "id" from "products"', [], true],
    ['select sum(version) as "version" from "catalog_version"', undefined, true],
    ["SELECT version, words_version FROM search_cells_version WHERE id = 1", [], true],
    ["commit", undefined, false],
    ["create table widgets (id integer)", [], false],
    ['select * from "catalog_version"', [], false],
    ["select count(*) from search_products", [], false],
    ['select * from "orders" where "id" = $1', [1], false],
    ['select distinct "o".* from "orders" as "o" where "o"."id" = $1', [1], false],
    [
      'select "o"."id", "u".* from "orders" as "o" join "user" as "u" on "u"."id" = "o"."user_id" where "o"."id" = $1',
      [1],
      false,
    ],
    ['insert into "orders" ("number") values ($1) returning *', ["TH-1"], false],
    ['select "s"."product_id" from "search_products" as "s" where "s"."category_id" = $1', [3], false],
    ["select count(*) from search_products s where s.document @@ to_tsquery('search_words', $1)", ["drill:*"], false],
    ['select "term" from "search_term_trigrams" where "trigram" in ($1, $2)', ["dri", "ril"], false],
    ['select "stem" from "search_terms" where "term" = $1', ["drills"], false],
  ])("%s", (text, values, expected) => {
    expect(worthPreparing(text, values)).toBe(expected);
  });
});
