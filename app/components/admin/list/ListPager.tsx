import type { ReactNode } from "react";
import { Link } from "react-router";
import { hrefWith, type ListPager as Pager, type ListQuery } from "../../../lib/admin/list-pager.ts";
import { Pagination } from "../../catalog/Pagination.tsx";

export interface PagerProps {
  /** The navigation's accessible name. */
  label: string;
  pager: Pager;
  /** The list's address and its current filters; the pager adds its own parameters. */
  path: string;
  query: ListQuery;
  prevText?: string;
  nextText?: string;
}

/**
 * The pages of a list: numbered links when the list counted its rows, else a "Previous" and a
 * "Next" link (either left out when there is no such page) around the page number, if it has one.
 */
export function ListPager({
  label,
  pager,
  path,
  query,
  prevText = "Previous page",
  nextText = "Next page",
}: PagerProps) {
  const href = (params: ListQuery) => hrefWith(path, { ...query, ...params });
  if (pager.page !== null && pager.pageCount !== null)
    return <Pagination page={pager.page} pageCount={pager.pageCount} hrefFor={(page) => href({ page })} />;
  return (
    <PrevNextNav
      label={label}
      prevHref={pager.previous ? href(pager.previous) : null}
      nextHref={pager.next ? href(pager.next) : null}
      prevText={prevText}
      nextText={nextText}
    >
      {pager.page !== null ? <span className="text-sm text-slate-700">Page {pager.page}</span> : null}
    </PrevNextNav>
  );
}

function PrevNextNav({
  label,
  prevHref,
  nextHref,
  prevText,
  nextText,
  children,
}: {
  label: string;
  prevHref: string | null;
  nextHref: string | null;
  prevText: string;
  nextText: string;
  children?: ReactNode;
}) {
  if (!prevHref && !nextHref) return null;
  const linkClassName = "rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100";
  return (
    <nav aria-label={label} className="mt-4 flex items-center gap-3">
      {prevHref ? (
        <Link to={prevHref} rel="prev" className={linkClassName}>
          {prevText}
        </Link>
      ) : null}
      {children}
      {nextHref ? (
        <Link to={nextHref} rel="next" className={linkClassName}>
          {nextText}
        </Link>
      ) : null}
    </nav>
  );
}
