/**
 * The loader of every back-office list page: guard with the page's permission, parse the query
 * string with the page's zod schema, read the list and whatever the page shows beside it at once, and
 * work out the pager. A page passes its own query; the list component (app/components/admin/list/)
 * draws the result.
 */
import { data } from "react-router";
import type { z } from "zod";
import { ONE_PAGE, type ListPager } from "../../app/lib/admin/list-pager.ts";
import type { Permissions } from "../auth/permissions.ts";
import { getDb, type Db } from "../db/connection.ts";
import { requireAdmin, requireStaff, type StaffSession } from "../staff/guard.ts";

/** A list filter is never longer: anything past it is cut off before parsing. */
export const MAX_FILTER_PARAM_LENGTH = 300;

export interface ListPageSpec<Filter, Result, Beside> {
  /** What the staff member must be allowed to do; "admin" for the pages only admins see. */
  permission: Permissions | "admin";
  /** Parses the query string, one string per parameter. A value it can't use is refused with a 400 and the schema's message. */
  filters: z.ZodType<Filter>;
  list: (db: Db, filter: Filter, staff: StaffSession) => Promise<Result>;
  /** What the page shows beside the list (how many are waiting, the filters' choices…), read alongside it. */
  beside?: (db: Db, filter: Filter) => Promise<Beside>;
  /** Where the previous and next pages are; a list without one fits on one page. */
  pager?: (result: Result, filter: Filter) => ListPager;
  /** Instead of a 400: the page shows each field's first problem beside it, with this filter and list. */
  whenInvalid?: (errors: Record<string, string>) => { filter: Filter; list: Result };
}

export interface ListPage<Filter, Result, Beside> {
  staff: StaffSession;
  filter: Filter;
  /** Each refused field's first problem (only with whenInvalid). */
  errors: Record<string, string>;
  list: Result;
  beside: Beside;
  pager: ListPager;
}

/** The query string as the schema reads it: one value per parameter, each cut to MAX_FILTER_PARAM_LENGTH. */
export function listQueryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] ??= value.slice(0, MAX_FILTER_PARAM_LENGTH);
  return query;
}

function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}

export async function loadListPage<Filter, Result, Beside = undefined>(
  request: Request,
  spec: ListPageSpec<Filter, Result, Beside>,
): Promise<ListPage<Filter, Result, Beside>> {
  const staff =
    spec.permission === "admin" ? await requireAdmin(request) : await requireStaff(request, spec.permission);
  const parsed = spec.filters.safeParse(listQueryOf(new URL(request.url)));
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    if (!spec.whenInvalid) throw data(Object.values(errors)[0] ?? "Check the filters.", { status: 400 });
    const { filter, list } = spec.whenInvalid(errors);
    return { staff, filter, errors, list, beside: undefined as Beside, pager: ONE_PAGE };
  }
  const filter = parsed.data;
  const db = getDb();
  const [list, beside] = await Promise.all([
    spec.list(db, filter, staff),
    spec.beside ? spec.beside(db, filter) : (undefined as Beside),
  ]);
  return { staff, filter, errors: {}, list, beside, pager: spec.pager ? spec.pager(list, filter) : ONE_PAGE };
}
