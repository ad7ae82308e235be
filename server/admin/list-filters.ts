/**
 * The query strings of the back-office list pages, one zod schema per page (server/admin/list-page.ts
 * parses with them). Unknown choices fall back to the page's default, as a stale or hand-edited link
 * should still show a list; a value that can't mean anything is refused with a 400.
 */
import { z } from "zod";
import { pageParam } from "../../app/lib/admin/list-pager.ts";
import { MESSAGE_FILTERS } from "../../app/lib/admin/message-constants.ts";
import { MAX_SEARCH_LENGTH } from "../../app/lib/admin/customer-labels.ts";
import { STAFF_QUOTE_FILTERS } from "../../app/lib/quotes.ts";
import { FILTER_FIELDS, orderFilterSchema } from "../../app/lib/order-admin-schema.ts";
import { parseAdminProductQuery } from "../catalog/admin-products.ts";
import { CUSTOMER_SORTS } from "../customers/list.ts";
import { parseNewsletterStatus } from "../newsletter/admin.ts";
import { APPLICATION_FILTERS } from "../trade/applications.ts";

const param = z.string().optional();

/** One of these values; anything else, or nothing, is the fallback. */
function choiceOf<T extends string>(values: readonly T[], fallback: T) {
  return param.transform((value): T => values.find((v) => v === value) ?? fallback);
}

const pageNumber = param.transform((value) => pageParam(value));

/** Free text, cut to `max` characters; "" for none. */
function searchText(max: number) {
  return param.transform((value) => (value ?? "").slice(0, max));
}

/** Trimmed text cut to `max` characters; undefined for none. */
function optionalText(max: number) {
  return param.transform((value) => value?.trim().slice(0, max) || undefined);
}

export const messageListFilters = z.object({ filter: choiceOf(MESSAGE_FILTERS, "all"), page: pageNumber });

export const applicationListFilters = z.object({ filter: choiceOf(APPLICATION_FILTERS, "pending"), page: pageNumber });

export const quoteListFilters = z.object({ filter: choiceOf(STAFF_QUOTE_FILTERS, "requested") });

export const subscriberListFilters = z.object({
  status: param.transform((value) => parseNewsletterStatus(value)),
  q: searchText(MAX_SEARCH_LENGTH),
  page: pageNumber,
});

export const customerListFilters = z
  .object({
    q: searchText(MAX_SEARCH_LENGTH),
    role: choiceOf(["all", "customer", "staff"], "all"),
    banned: param,
    sort: choiceOf(CUSTOMER_SORTS, "newest"),
    page: pageNumber,
  })
  .transform(({ banned, ...query }) => ({ ...query, bannedOnly: banned === "1" }));

export const auditListFilters = z
  .object({ actor: optionalText(100), type: optionalText(40), object: optionalText(100), before: param })
  .transform(({ actor, type, object, before }) => {
    const beforeId = Number(before);
    return {
      actorId: actor,
      objectType: type,
      objectId: object,
      beforeId: Number.isSafeInteger(beforeId) && beforeId > 0 ? beforeId : undefined,
    };
  });

export const productListFilters = z
  .record(z.string(), z.string())
  .transform((query) => parseAdminProductQuery(new URLSearchParams(query)));

/** Every order filter is a string, "" when not given; the schema reports a bad one beside its field. */
export const orderListFilters = z.preprocess(
  (query) =>
    Object.fromEntries(
      [...FILTER_FIELDS, "sort", "dir", "after", "before"].map((key) => [
        key,
        (query as Record<string, string>)[key] ?? "",
      ]),
    ),
  orderFilterSchema,
);

/** A list page without filters: any query string shows the whole list. */
export const noListFilters = z.object({});

/** The staff page: a notice after a change, and ?reset=<id>, the confirmation step of "Reset two-factor". */
export const staffListFilters = z.object({ notice: optionalText(40), reset: optionalText(100) });
