/**
 * Longest search text the shop and the search look at; the search box's own limit too. Apart from
 * shop-query.ts so that the header's search box does not bring the shop's URL rules to every page.
 */
export const MAX_QUERY_LENGTH = 200;
