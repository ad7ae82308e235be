import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { checkUsAddress } from "../../server/tax/address-check.ts";
import {
  importLocalRates,
  listUsStates,
  LocalRatesInvalidError,
  localRatesSummary,
  readUsTaxTables,
  saveUsStates,
  UsStatesInvalidError,
  type UsStateInput,
} from "../../server/tax/us-tax-settings.ts";
import { shownState } from "../../app/lib/tax-table-form.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const admin: StaffActor = { userId: "admin-1", name: "Ada Admin", role: "admin" };
const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "staff" };
const today = "2026-12-07";

describe.each(dialects)("the US sales-tax table (%s)", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(async () => t?.drop());

  const state = async (code: string) => (await listUsStates(t.db)).find((s) => s.code === code)!;
  /** A row as the form sends it back: shown as it is now, then changed by `change`. */
  const input = async (code: string, change: Partial<UsStateInput>): Promise<UsStateInput> => {
    const s = await state(code);
    return {
      code,
      rate: String(s.ratePpm / 10_000),
      shippingTaxable: s.shippingTaxable,
      collect: s.collect,
      version: s.version,
      shown: shownState(s),
      ...change,
    };
  };
  const audits = (objectId: string) =>
    t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("object_type", "=", "tax_us_state")
      .where("object_id", "=", objectId)
      .execute();

  it("starts with every state at its seeded rate, collecting nowhere", async () => {
    const states = await listUsStates(t.db);
    expect(states).toHaveLength(51);
    expect(states.filter((s) => s.collect)).toEqual([]);
    expect(await state("CA")).toMatchObject({
      name: "California",
      ratePpm: 72_500,
      shippingTaxable: false,
      version: 0,
    });
    expect((await checkUsAddress(t.db, "CA", "90001", today))?.basis).toEqual({
      kind: "not-registered",
      state: "CA",
      stateName: "California",
    });
  });

  it("saves only what changed, audits it, and the checkout's rules then collect there", async () => {
    const unchanged = await input("NY", {});
    const result = await saveUsStates(t.db, admin, [await input("CA", { rate: "7.5", collect: true }), unchanged]);
    expect(result.changed).toEqual(["California"]);
    expect(await state("CA")).toMatchObject({ ratePpm: 75_000, collect: true, version: 1 });
    expect(await state("NY")).toMatchObject({ version: 0 });
    const [audit] = await audits("CA");
    expect(audit).toMatchObject({ action: "tax.state.update", actor_id: "admin-1" });
    expect(JSON.parse(audit.before!)).toEqual({ ratePpm: 72_500, collect: false });
    expect(JSON.parse(audit.after!)).toEqual({ ratePpm: 75_000, collect: true });
    expect(await audits("NY")).toEqual([]);

    const check = await checkUsAddress(t.db, "ca", "90001", today);
    expect(check).toMatchObject({ taxCents: 750, totalCents: 11_750 });
  });

  it("refuses bad rates, all of them at once, and writes nothing", async () => {
    const before = await listUsStates(t.db);
    const error = await saveUsStates(t.db, admin, [
      await input("TX", { rate: "abc", collect: true }),
      await input("FL", { rate: "15.5" }),
      await input("WA", { rate: "-1" }),
      await input("OR", { rate: "1", collect: true }),
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsStatesInvalidError);
    expect((error as UsStatesInvalidError).problems.map((p) => p.code)).toEqual(["TX", "FL", "WA"]);
    expect((error as UsStatesInvalidError).status).toBe(400);
    expect(await listUsStates(t.db)).toEqual(before);
  });

  it("refuses a state it doesn't have, and a state twice", async () => {
    await expect(
      saveUsStates(t.db, admin, [{ ...(await input("TX", {})), code: "ZZ", rate: "5" }]),
    ).rejects.toMatchObject({
      code: "UNKNOWN_STATE",
      status: 400,
    });
    const tx = await input("TX", { rate: "6" });
    await expect(saveUsStates(t.db, admin, [tx, tx])).rejects.toMatchObject({ status: 400 });
    expect((await state("TX")).ratePpm).toBe(62_500);
  });

  it("refuses a form older than the row, and saves none of the form's other changes", async () => {
    const stale = await input("TX", { rate: "6.5" });
    await saveUsStates(t.db, admin, [await input("TX", { collect: true })]);
    await expect(saveUsStates(t.db, admin, [await input("NV", { rate: "7" }), stale])).rejects.toMatchObject({
      code: "TAX_STATES_STALE",
      status: 409,
    });
    expect(await state("TX")).toMatchObject({ ratePpm: 62_500, collect: true });
    expect((await state("NV")).ratePpm).toBe(68_500);
  });

  it("a form's untouched rows are left alone: another admin's change to them since is neither refused nor undone", async () => {
    const form = [await input("MI", {}), await input("MN", {})];
    await saveUsStates(t.db, admin, [await input("MI", { rate: "6.1" })]);
    const mine = form.map((row) => (row.code === "MN" ? { ...row, collect: true } : row));
    expect((await saveUsStates(t.db, admin, mine)).changed).toEqual(["Minnesota"]);
    expect(await state("MI")).toMatchObject({ ratePpm: 61_000, version: 1 });
    expect(await state("MN")).toMatchObject({ collect: true, version: 1 });
    // Without what the form showed, a stale row counts as changed and is refused.
    await expect(saveUsStates(t.db, admin, [{ ...form[0], shown: null }])).rejects.toMatchObject({
      code: "TAX_STATES_STALE",
    });
  });

  it("two admins saving the same state at once: one wins, the other is told", async () => {
    const a = await input("WA", { rate: "6.6" });
    const b = await input("WA", { rate: "6.7" });
    const results = await Promise.allSettled([saveUsStates(t.db, admin, [a]), saveUsStates(t.db, admin, [b])]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
      ["TAX_STATES_STALE"],
    );
    expect([66_000, 67_000]).toContain((await state("WA")).ratePpm);
    expect(await audits("WA")).toHaveLength(1);
  });

  it("staff without the admin role may read the table but not change it", async () => {
    await expect(saveUsStates(t.db, staff, [await input("GA", { rate: "5" })])).rejects.toMatchObject({ status: 403 });
    await expect(importLocalRates(t.db, staff, "zip,state,region,rate\n30301,GA,Atlanta,4")).rejects.toMatchObject({
      status: 403,
    });
    expect((await state("GA")).ratePpm).toBe(40_000);
    expect((await localRatesSummary(t.db)).count).toBe(0);
  });

  it("imports local rates by ZIP code, replacing a ZIP code's earlier rate, and audits the import", async () => {
    expect(
      await importLocalRates(
        t.db,
        admin,
        "zip,state,region,rate\n90001,CA,Los Angeles,2.5\n10001,NY,New York City,4.875\n",
      ),
    ).toEqual({ imported: 2 });
    expect(
      await importLocalRates(t.db, admin, "\ufeffZIP,State,Region,Rate\r\n90001,ca,Los Angeles County,2.25\r\n"),
    ).toEqual({ imported: 1 });
    const tables = await readUsTaxTables(t.db, "90001-1234");
    expect([...tables.local.values()]).toEqual([{ zip: "90001", region: "Los Angeles County", ratePpm: 22_500 }]);
    expect((await localRatesSummary(t.db)).count).toBe(2);
    const check = await checkUsAddress(t.db, "CA", "90001", today);
    expect(check?.lines.map((l) => [l.label, l.taxCents])).toEqual([
      ["California sales tax 7.5%", 750],
      ["Local sales tax 2.25% (Los Angeles County)", 225],
    ]);
    const imports = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "tax.local-rates.import")
      .execute();
    expect(imports.map((a) => JSON.parse(a.after!))).toEqual([{ rows: 2 }, { rows: 1 }]);
  });

  it("refuses a bad file whole, saying which lines are wrong", async () => {
    const bad = [
      "zip,state,region,rate",
      "30301,GA,Atlanta,4",
      "9001,CA,Short,2",
      "30301,GA,Again,4",
      "30302,ZZ,Nowhere,1",
      "30303,GA,,1",
      "30304,GA,Too high,12",
      "30305,GA,Atlanta",
      "30306,GA,Bell\u0007,1",
    ].join("\n");
    const error = (await importLocalRates(t.db, admin, bad).catch((e: unknown) => e)) as LocalRatesInvalidError;
    expect(error).toBeInstanceOf(LocalRatesInvalidError);
    expect(error.message).toBe("The file has 7 problems; nothing was imported.");
    expect(error.problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(error.problems[0].message).toBe("The ZIP code must be 5 digits.");
    expect(error.problems[1].message).toBe("ZIP code 30301 appears twice.");
    for (const csv of ["", "zip,state\n1,2", "zip,state,region,rate\n", '"unclosed'])
      await expect(importLocalRates(t.db, admin, csv)).rejects.toBeInstanceOf(LocalRatesInvalidError);
    expect((await readUsTaxTables(t.db, "30301")).local.size).toBe(0);
  });

  it("checks only addresses it can place", async () => {
    expect(await checkUsAddress(t.db, "ZZ", "90001", today)).toBeNull();
    expect(await checkUsAddress(t.db, "CA", "9000", today)).toBeNull();
    expect(await checkUsAddress(t.db, "C'A", "90001", today)).toBeNull();
  });
});
