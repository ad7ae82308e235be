/**
 * Issue 49 (decision 0041): nginx's page cache in front of the fleet. A guest, a guest with a cart,
 * a signed-in shopper with a cart and a signed-in trade buyer on a price list take turns, through
 * nginx, on the catalog pages, /cart and /visitor; none ever sees another's header, cart or prices.
 * Anonymous catalog pages are one shared HTML, served from nginx's cache; a signed-in visitor's are
 * rendered for them and bypass it; /cart and /visitor are never stored; nothing served from the
 * cache sets a cookie; a visitor who chose the UK market is served the UK page, kept apart from the
 * US one; and a catalog change reaches an anonymous visitor within the pages' bound.
 * Needs TEST_DATABASE_URL, nginx and a production build (BUILD_DIR), as tests/fleet/fleet.test.ts.
 */
import { rmSync, existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/connection.ts";
import { addPriceListRule, createPriceList } from "../../server/trade/price-lists.ts";
import { killFleetNow, nginxBinary, root, stopFleet, type Fleet } from "../../scripts/fleet.mjs";
import { insertCompany, insertMember } from "../integration/trade-support.ts";
import type { Browser, Reply } from "./support/http.ts";
import {
  addToCart,
  browserFor,
  createFleetDatabase,
  startTestFleet,
  PASSWORD,
  setStock,
  sleep,
  uniqueEmail,
  type FleetDatabase,
} from "./support/store.ts";

const pgUrl = process.env.TEST_DATABASE_URL ?? "";
const nginx = nginxBinary();
const buildDir = process.env.BUILD_DIR ?? "build";
const port = Number(process.env.FLEET_TEST_PORT ?? 8088);
const basePort = Number(process.env.FLEET_TEST_BASE_PORT ?? 3151);
const dir = path.join(root, ".tmp", `fleet-page-cache-${port}`);
const skipReason = !pgUrl ? "TEST_DATABASE_URL is not set" : !nginx ? "nginx is not installed" : null;

const SHARED = "public, max-age=0, s-maxage=30, stale-while-revalidate=30";
const PERSONAL = "private, no-store";
/** s-maxage + stale-while-revalidate: the longest a catalog change may take to reach a visitor through nginx. */
const BOUND_S = 60;
/** What nginx answered from its store (X-Cache-Status). */
const FROM_CACHE = new Set(["HIT", "STALE", "UPDATING", "REVALIDATED"]);

let fleet: Fleet | null = null;
process.on("exit", () => killFleetNow(fleet));

interface Visitor {
  label: string;
  browser: Browser;
  signedIn: boolean;
  /** Strings only this visitor's own answers may hold. */
  own: string[];
  /** What /visitor must say for them. */
  visitor: Record<string, unknown>;
}

describe.skipIf(skipReason !== null)(
  "nginx's page cache keeps every visitor's header, cart and prices their own",
  () => {
    let database: FleetDatabase;
    let db: Db;
    let f: Fleet;
    let productId = 0;
    let visitors: Visitor[] = [];
    const served: { label: string; path: string; reply: Reply; at: number }[] = [];

    async function get(v: Visitor, path: string): Promise<Reply> {
      const reply = await v.browser.get(path);
      served.push({ label: v.label, path, reply, at: Date.now() });
      return reply;
    }
    const cacheStatus = (r: Reply) => String(r.headers["x-cache-status"] ?? "");

    /** Signs up (with a display name) and in over HTTP, as tests/fleet/support/store.ts's signUpAndIn. */
    async function member(name: string): Promise<{ browser: Browser; email: string; userId: string }> {
      const browser = browserFor(f);
      const email = uniqueEmail(name.toLowerCase().replace(" ", "."));
      expect((await browser.postJson("/api/auth/sign-up/email", { email, password: PASSWORD, name })).status).toBe(200);
      const signedIn = await browser.postJson("/api/auth/sign-in/email", { email, password: PASSWORD });
      expect(signedIn.status).toBe(200);
      return { browser, email, userId: (JSON.parse(signedIn.body) as { user: { id: string } }).user.id };
    }

    beforeAll(async () => {
      if (!existsSync(path.resolve(root, buildDir, "server/index.js")))
        throw new Error(`No production build in ${buildDir}/: build first, or set BUILD_DIR.`);
      rmSync(dir, { recursive: true, force: true });
      database = await createFleetDatabase(pgUrl);
      f = await startTestFleet({
        port,
        basePort,
        dir,
        buildDir,
        databaseUrl: database.url,
        onCreated: (created) => (fleet = created),
        env: { LOG_LEVEL: "warn" },
      });
      db = database.open();
      const ids = (
        await db.selectFrom("products").select("id").where("archived_at", "is", null).orderBy("id").limit(4).execute()
      ).map((r) => Number(r.id));
      productId = ids[0]!;
      await setStock(db, productId, 50);

      const shopper = await member("Casey Shopper");
      await addToCart(shopper.browser, ids[1], 3);
      const buyer = await member("Toni Trade");
      const list = await createPriceList(db, { userId: "test:fleet", name: "Fleet test" }, "Page cache trade 12%");
      await addPriceListRule(db, { userId: "test:fleet", name: "Fleet test" }, list.id, {
        target: { kind: "all" },
        amount: { percentOff: 12, fixedCents: null },
      });
      await insertMember(db, await insertCompany(db, { priceListId: list.id }), "buyer", buyer.userId);
      await addToCart(buyer.browser, ids[2], 1);
      const guestWithCart = browserFor(f);
      await addToCart(guestWithCart, ids[3], 2);
      expect(guestWithCart.jar.has("guest"), "adding to the cart gave the guest a cart cookie").toBe(true);

      visitors = [
        {
          label: "guest",
          browser: browserFor(f),
          signedIn: false,
          own: [],
          visitor: { user: null, cartCount: 0, wishlistIds: [], priceList: null },
        },
        {
          label: "guest with a cart",
          browser: guestWithCart,
          signedIn: false,
          own: ["Cart (2 items)"],
          visitor: { user: null, cartCount: 2, priceList: null },
        },
        {
          label: "shopper",
          browser: shopper.browser,
          signedIn: true,
          own: ["Your account (Casey Shopper)", "Casey Shopper", shopper.email, "Cart (3 items)"],
          visitor: { user: { email: shopper.email, fullName: "Casey Shopper" }, cartCount: 3, priceList: null },
        },
        {
          label: "trade buyer",
          browser: buyer.browser,
          signedIn: true,
          own: ["Your account (Toni Trade)", "Toni Trade", buyer.email, "Cart (1 item)", "Your price"],
          visitor: {
            user: { email: buyer.email, fullName: "Toni Trade" },
            cartCount: 1,
            priceList: { everything: { percentOff: 12 } },
          },
        },
      ];
    }, 240_000);

    afterAll(async () => {
      await stopFleet(fleet);
      await db?.destroy();
      await database?.drop();
    }, 60_000);

    /** Every other visitor's strings are absent; an anonymous catalog page also names no one at all. */
    function expectOnlyOwn(v: Visitor, path: string, body: string, shared: boolean) {
      const others = visitors.filter((o) => o !== v).flatMap((o) => o.own.filter((s) => !v.own.includes(s)));
      for (const s of others) expect(body.includes(s), `${v.label} ${path} holds another visitor's "${s}"`).toBe(false);
      if (shared)
        for (const s of ["Your account", ">Logout<", "Cart (", "Your price"])
          expect(body.includes(s), `shared ${path} holds "${s}"`).toBe(false);
    }

    it("3 interleaved rounds: anonymous catalog pages are one cached HTML; signed-in ones, /cart and /visitor are each visitor's own and never stored", async () => {
      const catalog = ["/", "/shop", "/shop?q=drill", `/shop/${productId}`];
      const sharedBodies = new Map<string, Set<string>>();
      const anonymousStatuses = new Map<string, string[]>();
      const started = Date.now();
      for (let round = 0; round < 3; round++) {
        // Round 1 one at a time (the very first anonymous request fills the cache); then all at once, in a rotated order.
        const order = visitors.map((_, i) => visitors[(i + round) % visitors.length]);
        for (const path of [...catalog, "/cart", "/visitor"]) {
          const replies =
            round === 0 ? await sequential(order, path) : await Promise.all(order.map((v) => get(v, path)));
          replies.forEach((reply, i) => {
            const v = order[i];
            const what = `round ${round + 1}, ${v.label}, ${path}`;
            expect(reply.status, what).toBe(200);
            const personalPath = path === "/cart" || path === "/visitor";
            if (personalPath || v.signedIn) {
              expect(reply.headers["cache-control"], what).toBe(PERSONAL);
              expect(cacheStatus(reply), what).toBe(v.signedIn ? "BYPASS" : "MISS");
            } else {
              expect(reply.headers["cache-control"], what).toBe(SHARED);
              anonymousStatuses.set(path, [...(anonymousStatuses.get(path) ?? []), cacheStatus(reply)]);
              sharedBodies.set(path, (sharedBodies.get(path) ?? new Set()).add(reply.body));
            }
            if (path === "/visitor") {
              expect(JSON.parse(reply.body), what).toMatchObject(v.visitor);
              return;
            }
            expectOnlyOwn(v, path, reply.body, !personalPath && !v.signedIn);
            // Rendered for a signed-in visitor (and every /cart): their own header and cart count.
            if (v.signedIn || personalPath)
              for (const s of v.own.filter((s) => s.startsWith("Your account") || s.startsWith("Cart (")))
                expect(reply.body, what).toContain(s);
            if (v.label === "trade buyer" && path === "/shop") expect(reply.body, what).toContain("Your price");
          });
        }
      }
      const elapsed = Date.now() - started;
      expect(elapsed, "the rounds ran within one s-maxage, so every later anonymous view is a HIT").toBeLessThan(
        30_000,
      );
      for (const path of catalog) {
        // One HTML for both anonymous visitors, every round: byte-identical.
        expect(sharedBodies.get(path)!.size, `${path}: anonymous bodies`).toBe(1);
        // 2 anonymous visitors × 3 rounds: the first filled the cache, the other 5 were served from it.
        expect(anonymousStatuses.get(path), path).toEqual(["MISS", "HIT", "HIT", "HIT", "HIT", "HIT"]);
      }
      expect(visitors[0].browser.jar.cookies.size, "the guest was never given a cookie").toBe(0);
      console.log(`page cache: ${served.length} requests in 3 rounds in ${elapsed} ms`);
    });

    it("a visitor who chose the UK market and one who didn't are cached apart: each is only ever served its own market's page", async () => {
      const [row] = await db
        .selectFrom("products")
        .select("id")
        .where("archived_at", "is", null)
        .orderBy("id")
        .offset(10)
        .limit(1)
        .execute();
      const page = `/shop/${row!.id}`;
      const uk = browserFor(f);
      const chose = await uk.postForm("/market", { market: "uk", returnTo: page });
      expect(chose.status).toBe(303);
      expect(chose.location).toBe(page);
      const us = browserFor(f);
      const statuses: string[] = [];
      for (let round = 0; round < 3; round++) {
        for (const [browser, own, other] of [
          [uk, "GBP", "USD"],
          [us, "USD", "GBP"],
        ] as const) {
          const reply = await browser.get(page);
          expect(reply.status).toBe(200);
          expect(reply.body).toContain(`"priceCurrency":"${own}"`);
          expect(reply.body).not.toContain(`"priceCurrency":"${other}"`);
          statuses.push(cacheStatus(reply));
        }
      }
      // Each market's page filled its own entry once, then came from nginx's cache.
      expect(statuses).toEqual(["MISS", "MISS", "HIT", "HIT", "HIT", "HIT"]);
    });

    async function sequential(order: Visitor[], path: string): Promise<Reply[]> {
      const replies: Reply[] = [];
      for (const v of order) replies.push(await get(v, path));
      return replies;
    }

    it(`a stock change reaches an anonymous visitor through nginx within ${BOUND_S} s (stale, then refreshed); a signed-in visitor sees it at once`, async () => {
      const page = `/shop/${productId}`;
      const [guest, , shopper] = visitors;
      const before = await get(guest, page);
      expect(cacheStatus(before), "the page is in nginx's cache").toBe("HIT");
      expect(before.body).toContain("In Stock (50)");
      const stored = served.find((s) => s.path === page && cacheStatus(s.reply) === "MISS")!.at;
      const changed = Date.now();
      await setStock(db, productId, 987);
      const theirs = await get(shopper, page);
      expect(cacheStatus(theirs)).toBe("BYPASS");
      expect(theirs.body, "the shopper's page is rendered for them: the change at once").toContain("In Stock (987)");

      const seen: string[] = [];
      for (;;) {
        const reply = await get(guest, page);
        const fresh = reply.body.includes("In Stock (987)");
        seen.push(`${cacheStatus(reply)}:${fresh ? "new" : "old"}`);
        if (!fresh && cacheStatus(reply) !== "HIT")
          console.log(
            `page cache: ${cacheStatus(reply)} ${Date.now() - stored} ms after nginx stored the page, ${Date.now() - changed} ms after the change`,
          );
        if (fresh) break;
        expect(reply.body, "until then, the stored page").toContain("In Stock (50)");
        expect(
          Date.now() - changed,
          `the change reached the guest within ${BOUND_S} s (${seen.join(" ")})`,
        ).toBeLessThan(BOUND_S * 1000);
        await sleep(1000);
      }
      const took = Date.now() - changed;
      console.log(`page cache: the stock change reached a guest through nginx after ${took} ms: ${compress(seen)}`);
      // The old page came from the cache; nginx then served it stale once while it fetched the page again.
      const firstNew = seen.findIndex((s) => s.endsWith(":new"));
      expect(
        seen.slice(0, firstNew).every((s) => /^(HIT|STALE|UPDATING):old$/.test(s)),
        seen.join(" "),
      ).toBe(true);
      expect(
        seen.slice(0, firstNew).some((s) => s.startsWith("STALE") || s.startsWith("UPDATING")),
        seen.join(" "),
      ).toBe(true);
      const after = await get(guest, page);
      expect(cacheStatus(after)).toBe("HIT");
      expect(after.body).toContain("In Stock (987)");
    }, 90_000);

    it("no answer nginx served from its cache carried a Set-Cookie", () => {
      const fromCache = served.filter((s) => FROM_CACHE.has(cacheStatus(s.reply)));
      expect(fromCache.length).toBeGreaterThan(20);
      for (const s of fromCache)
        expect(s.reply.setCookies, `${s.label} ${s.path} (${cacheStatus(s.reply)})`).toEqual([]);
    });
  },
);

/** "HIT:old HIT:old … STALE:old HIT:new" as "HIT:old×27 STALE:old HIT:new". */
function compress(seen: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < seen.length;) {
    let j = i;
    while (j < seen.length && seen[j] === seen[i]) j++;
    out.push(j - i > 1 ? `${seen[i]}×${j - i}` : seen[i]);
    i = j;
  }
  return out.join(" ");
}
