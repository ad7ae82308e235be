import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const guard = vi.hoisted(() => ({ requireStaff: vi.fn(), requireAdmin: vi.fn() }));
vi.mock("../../server/staff/guard.ts", () => guard);
vi.mock("../../server/db/connection.ts", () => ({ getDb: () => "the db" }));

const { loadListPage, listQueryOf, MAX_FILTER_PARAM_LENGTH } = await import("../../server/admin/list-page.ts");
const { auditListFilters, customerListFilters, messageListFilters, orderListFilters, subscriberListFilters } =
  await import("../../server/admin/list-filters.ts");
const { countedPager, cursorPager, hrefWith, numberedPager } = await import("../../app/lib/admin/list-pager.ts");

const staff = { userId: "u1", role: "staff" };
const request = (query: string) => new Request(`http://store.test/admin/list${query}`);

beforeEach(() => {
  guard.requireStaff.mockReset().mockResolvedValue(staff);
  guard.requireAdmin.mockReset().mockResolvedValue({ ...staff, role: "admin" });
});

describe("the back-office list loader", () => {
  const filters = z.object({
    kind: z.enum(["a", "b"], { error: "Choose a or b." }).default("a"),
    page: z.coerce.number().int().min(1).default(1),
  });

  it("guards with the page's permission, then reads the list and its figure with the parsed filter and works out the pager", async () => {
    const list = vi.fn(async (_db: unknown, f: { kind: string; page: number }) => ({
      rows: [f.kind],
      page: f.page,
      hasNext: true,
    }));
    const beside = vi.fn(async () => 7);
    const page = await loadListPage(request("?kind=b&page=2"), {
      permission: { message: ["view"] },
      filters,
      list,
      beside,
      pager: numberedPager,
    });
    expect(guard.requireStaff).toHaveBeenCalledWith(expect.any(Request), { message: ["view"] });
    expect(list).toHaveBeenCalledWith("the db", { kind: "b", page: 2 }, staff);
    expect(page).toMatchObject({
      filter: { kind: "b", page: 2 },
      errors: {},
      list: { rows: ["b"] },
      beside: 7,
      pager: { page: 2, previous: { page: 1 }, next: { page: 3 } },
    });
  });

  it("asks for an admin on the admin-only pages, and a list without a pager fits on one page", async () => {
    const page = await loadListPage(request(""), { permission: "admin", filters, list: async () => ["x"] });
    expect(guard.requireAdmin).toHaveBeenCalledOnce();
    expect(guard.requireStaff).not.toHaveBeenCalled();
    expect(page.pager).toEqual({ page: null, pageCount: null, previous: null, next: null });
  });

  it("refuses a filter it can't use with a 400 and the schema's reason, before reading anything", async () => {
    const list = vi.fn();
    const refusal = await loadListPage(request("?kind=zzz"), {
      permission: { message: ["view"] },
      filters,
      list,
    }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ init: { status: 400 }, data: "Choose a or b." });
    expect(list).not.toHaveBeenCalled();
  });

  it("lets a page show the problems beside the fields instead", async () => {
    const list = vi.fn();
    const page = await loadListPage(request("?kind=zzz"), {
      permission: { message: ["view"] },
      filters,
      list,
      whenInvalid: () => ({ filter: { kind: "a", page: 1 }, list: [] }),
    });
    expect(page).toMatchObject({ errors: { kind: "Choose a or b." }, filter: { kind: "a", page: 1 }, list: [] });
    expect(list).not.toHaveBeenCalled();
  });

  it("reads one value per parameter, cut to the longest a filter may be", () => {
    expect(listQueryOf(new URL(`http://store.test/?q=${"x".repeat(500)}&q=second&page=2`))).toEqual({
      q: "x".repeat(MAX_FILTER_PARAM_LENGTH),
      page: "2",
    });
  });
});

describe("the list pages' filters", () => {
  it("fall back to the page's default on an unknown choice or page", () => {
    expect(messageListFilters.parse({ filter: "bogus", page: "-3" })).toEqual({ filter: "all", page: 1 });
    expect(subscriberListFilters.parse({ status: "bogus", q: "a".repeat(200) })).toEqual({
      status: null,
      q: "a".repeat(100),
      page: 1,
    });
    expect(customerListFilters.parse({ role: "staff", banned: "1", sort: "email", page: "3" })).toEqual({
      q: "",
      role: "staff",
      bannedOnly: true,
      sort: "email",
      page: 3,
    });
    expect(auditListFilters.parse({ actor: " u1 ", type: "", before: "12" })).toEqual({
      actorId: "u1",
      objectType: undefined,
      objectId: undefined,
      beforeId: 12,
    });
    expect(auditListFilters.parse({ before: "1.5" }).beforeId).toBeUndefined();
  });

  it("orders: every filter is text, empty when not given; a bad one is reported", () => {
    expect(orderListFilters.safeParse({}).success).toBe(true);
    expect(orderListFilters.safeParse({ from: "not a date" }).success).toBe(false);
  });
});

describe("list pagers", () => {
  it("number pages, count them, or follow cursors", () => {
    expect(numberedPager({ page: 1, hasNext: false })).toEqual({
      page: 1,
      pageCount: null,
      previous: null,
      next: null,
    });
    expect(countedPager({ page: 3, pageCount: 3 })).toEqual({
      page: 3,
      pageCount: 3,
      previous: { page: 2 },
      next: null,
    });
    expect(cursorPager(null, { before: 40 })).toEqual({
      page: null,
      pageCount: null,
      previous: null,
      next: { before: 40 },
    });
  });

  it("build links without empty parameters or page 1", () => {
    expect(hrefWith("/admin/messages", { filter: null, page: 1 })).toBe("/admin/messages");
    expect(hrefWith("/admin/messages", { filter: "handled", page: 2, q: "" })).toBe(
      "/admin/messages?filter=handled&page=2",
    );
  });
});
