/**
 * How a back-office list moves between pages, shared by the list-page loader (server/admin/list-page.ts)
 * and the list component (app/components/admin/list/). A pager names the query parameters that lead
 * to the previous and the next page, whatever the list pages by: a page number or a cursor.
 */
export type ListQuery = Record<string, string | number | null | undefined>;

export interface ListPager {
  /** The page shown, for lists that number their pages. */
  page: number | null;
  /** How many pages there are, for lists that count their rows. */
  pageCount: number | null;
  previous: ListQuery | null;
  next: ListQuery | null;
}

/** A list that fetched one row more than a page to know whether another page follows. */
export function numberedPager({ page, hasNext }: { page: number; hasNext: boolean }): ListPager {
  return {
    page,
    pageCount: null,
    previous: page > 1 ? { page: page - 1 } : null,
    next: hasNext ? { page: page + 1 } : null,
  };
}

/** A list that counted its rows. */
export function countedPager({ page, pageCount }: { page: number; pageCount: number }): ListPager {
  return {
    page,
    pageCount,
    previous: page > 1 ? { page: page - 1 } : null,
    next: page < pageCount ? { page: page + 1 } : null,
  };
}

/** A list that pages by keyset: the query of the page before and after this one, if any. */
export function cursorPager(previous: ListQuery | null, next: ListQuery | null): ListPager {
  return { page: null, pageCount: null, previous, next };
}

/** A whole list that fits on one page. */
export const ONE_PAGE: ListPager = { page: null, pageCount: null, previous: null, next: null };

/** A URL with these query parameters, leaving out empty ones (and page 1). */
export function hrefWith(path: string, params: ListQuery): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === "" || (key === "page" && Number(value) === 1)) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** A page number from the query string: a whole number from 1, else 1. */
export function pageParam(raw: string | null | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
