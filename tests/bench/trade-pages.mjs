// `npm run bench:trade-pages`: issue 14's bar for trade buyers' pages, as figures: "a trade buyer's
// product page and grid stay within 20% of an anonymous uncached one", on SQLite and PostgreSQL,
// on a 100,000-product catalog.
//
// 1. Databases: .tmp/bench/trade-100k.db and toolstore_bench_trade on BENCH_PG_URL (default
//    postgres://postgres@127.0.0.1:5432), the ones `npm run bench:quick-order` uses, seeded with
//    `npm run seed -- --products 100000` (resumable: a seeded database is reused).
// 2. The production server (WEB_CONCURRENCY=1, rate limits in memory) on each.
// 3. The trade buyer: bench-trade-buyer@example.com, registered through the auth API when missing
//    and signed in through it (a session cookie, as a browser holds). Then, straight into the
//    database (reused when there): the price list "Bench trade buyers" (8% off everything, 12% off
//    Power Tools), the organization org-bench-trade with the user as its 'buyer' member, an
//    approved trade application and the company on that price list — what the back office and
//    the organization plugin would have written (tests/e2e/trade/trade-prices.spec.ts does the
//    same).
// 4. Pages: /shop, /shop?page=50, /shop?category=power-tools (canonical forms: anything else
//    redirects, app/lib/shop-query.ts) and three product pages spread over the catalog. Each is
//    asked for by the trade buyer (session cookie) and anonymously UNCACHED, interleaved A, B, A,
//    B … so a slow moment of the shared machine hits both: 3 warm-up pairs, then ROUNDS rounds of
//    SAMPLES pairs per page. The time is the whole answer (gzip, as browsers ask) seen from the
//    same machine.
//
// "Anonymous uncached": the page micro-cache (server/http/page-cache.ts, docs/decisions/0004)
// serves only paths matching a case-sensitive pattern (/shop, /shop/123 …), while React Router
// matches routes case-insensitively. So the anonymous requests go to /Shop, /Shop?page=50 …,
// /Shop/<id>, with no cookie at all: the same middleware, loaders and render as a first visit to
// /shop, minus the cache (no lookup, no store). The script checks it: no answer says
// `X-Page-Cache: hit`, and /Shop's HTML matches /shop's (asked for once with no cookie on the fresh
// server: a first ask always renders) except the header's "Shop" link not being marked current.
//
// The trade path really ran: the buyer's /shop HTML must contain "Your price" and the anonymous
// one must not; the buyer's product pages must say "Your trade price" and the anonymous ones not.
//
// A report, not a test: exits 0 whether or not the target (trade / anonymous ≤ 1.20) is met; 1
// when the script could not run, a set-up step failed, an answer was not 200 (its status and 300
// characters of its body are printed) or the trade path did not show. Flags: --skip-sqlite,
// --skip-pg, --samples N (30), --rounds N (3). Environment: BUILD_DIR (build; built when
// missing), TRADE_PAGES_BENCH_PORT (3412), BENCH_PG_URL.
import {
  countProducts,
  fail,
  log,
  numberFlag,
  openSeeded,
  percentile,
  printTable,
  runTradeBench,
  startBenchServer,
} from "./support.mjs";

const SAMPLES = numberFlag("--samples", 30);
const ROUNDS = numberFlag("--rounds", 3);
const WARM_UP = 3;
const PRODUCTS = 100_000;
const TARGET_RATIO = 1.2;
const PORT = Number(process.env.TRADE_PAGES_BENCH_PORT || 3412);
const SITE_URL = `http://127.0.0.1:${PORT}`;

const BUYER = { email: "bench-trade-buyer@example.com", password: "Bench-Sturdy-Pass-42", name: "Bench Trade Buyer" };
const PRICE_LIST = "Bench trade buyers";
const ORG_ID = "org-bench-trade";
const MEMBER_ID = "mem-bench-trade";
const COMPANY = "Bench Trade Co";
const ALL_OFF = 8;
const CATEGORY_SLUG = "power-tools";
const CATEGORY_OFF = 12;

/** POSTs JSON to the auth API as a browser on the site would; returns the answer. */
async function authPost(p, body, cookie = "") {
  const res = await fetch(`${SITE_URL}${p}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: SITE_URL, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
    redirect: "manual",
  });
  return { res, text: await res.text() };
}

/** Registers the buyer through the auth API when the database has no such user; returns the user id. */
async function ensureBuyer(db) {
  const find = () => db.selectFrom("user").select("id").where("email", "=", BUYER.email).executeTakeFirst();
  let user = await find();
  if (!user) {
    const { res, text } = await authPost("/api/auth/sign-up/email", BUYER);
    if (res.status !== 200) fail(`sign-up of ${BUYER.email} answered ${res.status}: ${text.slice(0, 300)}`);
    user = await find();
    if (!user) fail(`sign-up of ${BUYER.email} answered 200 but no user row is there`);
    log(`  registered ${BUYER.email} through /api/auth/sign-up/email`);
  }
  return user.id;
}

/** Signs the buyer in through the auth API; returns the Cookie header a browser would send. */
async function signIn() {
  const { res, text } = await authPost("/api/auth/sign-in/email", { email: BUYER.email, password: BUYER.password });
  if (res.status !== 200) fail(`sign-in of ${BUYER.email} answered ${res.status}: ${text.slice(0, 300)}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
  if (!cookie.includes("session_token=")) fail(`sign-in of ${BUYER.email} set no session cookie`);
  return cookie;
}

/**
 * The buyer's company on a price list of 8% off everything and 12% off one category, written
 * straight into the database (idempotent: rows are found by fixed names/ids and reused).
 */
async function ensureTradeBuyer(db, userId) {
  const now = new Date().toISOString();
  const category = await db.selectFrom("categories").select("id").where("slug", "=", CATEGORY_SLUG).executeTakeFirst();
  if (!category) fail(`no category ${CATEGORY_SLUG} in the bench database`);
  let list = await db
    .selectFrom("price_lists")
    .select("id")
    .where("name", "=", PRICE_LIST)
    .orderBy("id")
    .executeTakeFirst();
  if (!list)
    list = await db
      .insertInto("price_lists")
      .values({ name: PRICE_LIST, created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("price_list_rules").where("price_list_id", "=", list.id).execute();
    await trx
      .insertInto("price_list_rules")
      .values([
        { price_list_id: list.id, target: "all", percent_off: ALL_OFF, fixed_cents: null },
        { price_list_id: list.id, target: `category:${category.id}`, percent_off: CATEGORY_OFF, fixed_cents: null },
      ])
      .execute();
  });
  if (!(await db.selectFrom("organization").select("id").where("id", "=", ORG_ID).executeTakeFirst())) {
    await db
      .insertInto("organization")
      .values({ id: ORG_ID, name: COMPANY, slug: "bench-trade-co", logo: null, metadata: null, createdAt: now })
      .execute();
  }
  const member = await db
    .selectFrom("member")
    .select(["id", "userId", "role"])
    .where("id", "=", MEMBER_ID)
    .executeTakeFirst();
  if (!member) {
    await db
      .insertInto("member")
      .values({ id: MEMBER_ID, organizationId: ORG_ID, userId, role: "buyer", createdAt: now })
      .execute();
  } else if (member.userId !== userId || member.role !== "buyer") {
    await db.updateTable("member").set({ userId, role: "buyer" }).where("id", "=", MEMBER_ID).execute();
  }
  const billing = {
    country: "US",
    tax_id: "12-3456789",
    billing_line1: "1 Main St",
    billing_city: "New York",
    billing_postcode: "10001",
    phone: "+1 212 555 0100",
  };
  let application = await db
    .selectFrom("trade_applications")
    .select("id")
    .where("user_id", "=", userId)
    .where("organization_id", "=", ORG_ID)
    .where("status", "=", "approved")
    .executeTakeFirst();
  if (!application) {
    application = await db
      .insertInto("trade_applications")
      .values({
        user_id: userId,
        company_name: COMPANY,
        ...billing,
        status: "approved",
        reason: null,
        created_at: now,
        decided_at: now,
        decided_by: "bench",
        organization_id: ORG_ID,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  }
  const company = await db
    .selectFrom("companies")
    .select(["price_list_id"])
    .where("organization_id", "=", ORG_ID)
    .executeTakeFirst();
  if (!company) {
    await db
      .insertInto("companies")
      .values({
        organization_id: ORG_ID,
        application_id: application.id,
        name: COMPANY,
        ...billing,
        price_list_id: list.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
  } else if (company.price_list_id !== list.id) {
    await db
      .updateTable("companies")
      .set({ price_list_id: list.id, updated_at: now })
      .where("organization_id", "=", ORG_ID)
      .execute();
  }
  // The buyer must not belong to another company first (buyerPriceRules takes the oldest membership).
  const others = await db
    .selectFrom("member")
    .select("id")
    .where("userId", "=", userId)
    .where("id", "!=", MEMBER_ID)
    .execute();
  if (others.length > 0)
    fail(
      `${BUYER.email} is also a member of ${others.length} other organization(s); drop them from the bench database`,
    );
  return { priceListId: list.id, categoryId: category.id };
}

/** One GET; fails on anything but 200 (status and 300 characters of the body). */
async function get(url, cookie) {
  const started = performance.now();
  const res = await fetch(`${SITE_URL}${url}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const html = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200)
    fail(`${url} (${cookie ? "trade buyer" : "anonymous"}) answered ${res.status}: ${html.slice(0, 300)}`);
  if (!cookie && res.headers.get("x-page-cache") === "hit")
    fail(`${url} (anonymous) came from the page cache: the anonymous figures would not be uncached`);
  return { ms, html };
}

/** The anonymous, uncached URL of a page: the same path with "Shop" capitalized (see the top). */
const uncached = (url) => url.replace(/^\/shop/, "/Shop");

/** The HTML with what differs from request to request, or between /shop and /Shop, taken out. */
const comparable = (html) =>
  html
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/ aria-current="page"/g, "")
    .replace(/bg-brand-100 text-brand-800/g, "text-slate-700 hover:text-ink");

/** Checks that the trade path ran for the buyer and that /Shop renders what /shop does, uncached. */
async function checkPages(pages, cookie) {
  const kb = (html) => `${(Buffer.byteLength(html) / 1024).toFixed(1)} KB`;
  const sizes = [];
  for (const { name, url, product } of pages) {
    // The server is fresh and nobody asked for this URL yet: the cache renders it (a miss).
    const first = (await get(url, null)).html;
    const anon = (await get(uncached(url), null)).html;
    const trade = (await get(url, cookie)).html;
    if (comparable(first) !== comparable(anon))
      fail(
        `${name}: /Shop's HTML differs from /shop's beyond the current-link mark; the anonymous figure would not be the same page`,
      );
    const marker = product ? "Your trade price" : "Your price";
    if (!trade.includes(marker))
      fail(`${name}: the trade buyer's page does not contain "${marker}": the trade path did not run`);
    if (anon.includes(marker) || first.includes(marker)) fail(`${name}: the anonymous page contains "${marker}"`);
    sizes.push(`${name} ${kb(trade)} / ${kb(anon)}`);
  }
  log(`  HTML before gzip, trade buyer / anonymous: ${sizes.join(", ")}`);
}

async function measurePage(url, cookie) {
  const anonUrl = uncached(url);
  const pair = async () => [(await get(url, cookie)).ms, (await get(anonUrl, null)).ms];
  for (let i = 0; i < WARM_UP; i++) await pair();
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const trade = [];
    const anon = [];
    for (let i = 0; i < SAMPLES; i++) {
      const [t, a] = await pair();
      trade.push(t);
      anon.push(a);
    }
    trade.sort((a, b) => a - b);
    anon.sort((a, b) => a - b);
    const t = { p50: percentile(trade, 50), p95: percentile(trade, 95) };
    const a = { p50: percentile(anon, 50), p95: percentile(anon, 95) };
    rounds.push({ trade: t, anon: a, ratioP50: t.p50 / a.p50, ratioP95: t.p95 / a.p95 });
  }
  // The median round by the p95 ratio: trade and anonymous of one round were measured side by side.
  const median = [...rounds].sort((a, b) => a.ratioP95 - b.ratioP95)[Math.floor(rounds.length / 2)];
  return { rounds, median };
}

const met = (ratio) => (ratio <= TARGET_RATIO ? "yes" : "NO");

/** A round's (or the median round's) figures, in the order of FIGURE_HEADERS. */
const figures = (x) => [
  x.trade.p50.toFixed(1),
  x.trade.p95.toFixed(1),
  x.anon.p50.toFixed(1),
  x.anon.p95.toFixed(1),
  x.ratioP50.toFixed(2),
  x.ratioP95.toFixed(2),
];
const FIGURE_HEADERS = [
  "trade p50",
  "trade p95",
  "anon p50",
  "anon p95",
  "ratio p50",
  "ratio p95",
  `≤ ${TARGET_RATIO.toFixed(2)} (p50 / p95)`,
];

async function benchDatabase(kind, env, open, { session, close }) {
  const db = (session.db = openSeeded(kind, env, open, PRODUCTS));
  const products = await countProducts(db);
  if (products < PRODUCTS) fail(`${kind}: ${products} products, not ${PRODUCTS}`);
  // Three live products spread over the catalog: at a sixth, a half and five sixths of it by id.
  const live = Number(
    (
      await db
        .selectFrom("products")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("archived_at", "is", null)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const productIds = [];
  for (const at of [1 / 6, 1 / 2, 5 / 6]) {
    const row = await db
      .selectFrom("products")
      .select("id")
      .where("archived_at", "is", null)
      .orderBy("id")
      .offset(Math.floor(live * at))
      .limit(1)
      .executeTakeFirstOrThrow();
    productIds.push(row.id);
  }
  session.server = await startBenchServer("trade-pages", kind, PORT, env);
  const userId = await ensureBuyer(db);
  const { priceListId, categoryId } = await ensureTradeBuyer(db, userId);
  const cookie = await signIn();
  log(
    `  ${products.toLocaleString("en-US")} products; trade buyer ${BUYER.email} on price list ${priceListId} (${ALL_OFF}% off all, ${CATEGORY_OFF}% off category ${categoryId} ${CATEGORY_SLUG}); products ${productIds.join(", ")}`,
  );
  const pages = [
    { name: "/shop", url: "/shop" },
    { name: "/shop?page=50", url: "/shop?page=50" },
    { name: `/shop?category=${CATEGORY_SLUG}`, url: `/shop?category=${CATEGORY_SLUG}` },
    ...productIds.map((id) => ({ name: `/shop/${id}`, url: `/shop/${id}`, product: true })),
  ];
  await checkPages(pages, cookie);
  log(
    `  checked: the buyer's pages show "Your price" / "Your trade price", the anonymous ones do not; /Shop renders /shop's page, uncached`,
  );
  const results = [];
  for (const page of pages) results.push({ ...page, ...(await measurePage(page.url, cookie)) });
  await close();

  log(`\n${kind}: ${ROUNDS} rounds × ${SAMPLES} pairs (trade buyer, anonymous uncached) per page, ms`);
  const rows = [];
  for (const r of results) {
    r.rounds.forEach((x, i) => rows.push([`${r.name} round ${i + 1}`, ...figures(x), ""]));
    const m = r.median;
    rows.push([`${r.name} median round`, ...figures(m), `${met(m.ratioP50)} / ${met(m.ratioP95)}`]);
  }
  printTable(["page", ...FIGURE_HEADERS], rows);
  return { kind, results };
}

await runTradeBench("trade-pages", "Trade buyers' pages benchmark", {
  benchDatabase,
  report(summary) {
    log("\nSummary (median round per page), ms; ratio = trade buyer / anonymous uncached");
    printTable(
      ["database", "page", ...FIGURE_HEADERS],
      summary.flatMap((s) =>
        s.results.map((r) => {
          const m = r.median;
          return [s.kind, r.name, ...figures(m), `${met(m.ratioP50)} / ${met(m.ratioP95)}`];
        }),
      ),
    );
  },
});
