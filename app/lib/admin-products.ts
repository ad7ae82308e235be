// What the back office's product list shares between its loader (server) and its page (browser),
// kept free of server code so the page's bundle stays small.

/** Rows per page of the product list. */
export const ADMIN_PER_PAGE = 50;
