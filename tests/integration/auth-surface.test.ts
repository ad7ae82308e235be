import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authEndpointOpenTo, OPEN_AUTH_ENDPOINTS } from "../../server/auth/http-surface.ts";
import { CLIENT_IP_HEADER } from "../../server/security/rate-limit.ts";
import { startAuthApp, type AuthApp } from "./auth-harness.ts";
import { freshDb, type TestDb } from "./databases.ts";

/**
 * Better Auth's HTTP surface, walked from the library itself: every endpoint its mounted plugins
 * expose (auth.api, each with its path and methods), as every kind of caller. Anything not on the
 * allow-list (server/auth/http-surface.ts) must answer 404 — never a 2xx — over /api/auth/* and
 * through the handler the store's own actions use.
 */
const PASSWORD = "Sturdy-Hammer-42";
const email = (tag: string) => `${tag}.${randomBytes(4).toString("hex")}@example.com`;

type Endpoint = { name: string; path: string; methods: string[] };

function endpointsOf(app: AuthApp): Endpoint[] {
  const out: Endpoint[] = [];
  for (const [name, endpoint] of Object.entries(
    app.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>,
  )) {
    if (!endpoint?.path) continue;
    const method = endpoint.options?.method ?? "GET";
    const methods = (Array.isArray(method) ? method : [method]).filter((m) => m !== "*");
    out.push({ name, path: endpoint.path, methods: methods.length ? methods : ["GET", "POST"] });
  }
  return out;
}

const filled = (path: string) => path.replace(/:[A-Za-z]+/g, "x1");

describe("Better Auth's HTTP surface (sqlite)", () => {
  let t: TestDb;
  let app: AuthApp;
  const cookies: Record<string, string> = {};

  async function account(tag: string, role?: "staff" | "admin"): Promise<{ id: string; email: string }> {
    const who = email(tag);
    expect((await app.post("/sign-up/email", { email: who, password: PASSWORD, name: `Ada ${tag}` })).status).toBe(200);
    const row = await t.db
      .updateTable("user")
      .set({ emailVerified: true, ...(role ? { role } : {}) })
      .where("email", "=", who)
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, email: who };
  }

  async function signIn(who: string): Promise<string> {
    const response = await app.post("/sign-in/email", { email: who, password: PASSWORD });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  beforeAll(async () => {
    t = await freshDb("sqlite");
    app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "100000", AUTH_ACCOUNT_LIMIT: "1000" });
    const customer = await account("customer");
    const owner = await account("owner");
    const buyer = await account("buyer");
    const staff = await account("staff", "staff");
    const admin = await account("admin", "admin");
    const company = await app.auth.api.createOrganization({
      body: { name: "Acme Tools", slug: `acme-${randomBytes(3).toString("hex")}`, userId: owner.id },
    });
    await app.auth.api.addMember({ body: { userId: buyer.id, organizationId: company.id, role: "buyer" } });
    cookies.guest = "";
    cookies.customer = await signIn(customer.email);
    cookies.owner = await signIn(owner.email);
    cookies.buyer = await signIn(buyer.email);
    // Staff who haven't passed a code: a password sign-in before enrolment is the only way such a session is made.
    cookies["staff without a code"] = await signIn(staff.email);
    cookies["admin without a code"] = await signIn(admin.email);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it("reads the endpoints from the library, and every allow-list entry names one of them with a reason", () => {
    const endpoints = endpointsOf(app);
    expect(endpoints.length).toBeGreaterThan(60);
    expect(endpoints.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        "/admin/set-role",
        "/admin/set-user-password",
        "/two-factor/disable",
        "/organization/update",
      ]),
    );
    for (const entry of OPEN_AUTH_ENDPOINTS) {
      expect(
        endpoints.some((e) => e.path === entry.path),
        entry.path,
      ).toBe(true);
      expect(entry.reason.length).toBeGreaterThan(10);
    }
  });

  it("answers 404 over /api/auth/* to every endpoint not on the browser's list, whoever asks", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const endpoint of endpointsOf(app)) {
      for (const method of endpoint.methods) {
        if (authEndpointOpenTo("browser", method, endpoint.path)) continue;
        for (const [who, cookie] of Object.entries(cookies)) {
          const url = `${app.origin}/api/auth${filled(endpoint.path)}`;
          const body =
            method === "GET"
              ? undefined
              : JSON.stringify({
                  userId: "x",
                  role: "admin",
                  newPassword: "Sturdy-Hammer-99",
                  password: PASSWORD,
                  name: "Phish",
                  data: { name: "Phish" },
                });
          const response = await fetch(url, {
            method,
            headers: { origin: app.origin, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
            body,
          });
          checked++;
          if (response.status !== 404) failures.push(`${method} ${endpoint.path} as ${who}: ${response.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  });

  it("answers 404 through the store's own handler to every endpoint on neither list", async () => {
    const failures: string[] = [];
    let n = 0;
    for (const endpoint of endpointsOf(app)) {
      for (const method of endpoint.methods) {
        if (authEndpointOpenTo("store", method, endpoint.path)) continue;
        for (const [who, cookie] of Object.entries(cookies)) {
          const request = new Request(`${app.origin}/api/auth${filled(endpoint.path)}`, {
            method,
            // Each from its own address, so Better Auth's per-IP limit (checked before the list) stays out of the way.
            headers: {
              origin: app.origin,
              "content-type": "application/json",
              [CLIENT_IP_HEADER]: `10.9.${++n % 250}.${n >> 8}`,
              ...(cookie ? { cookie } : {}),
            },
            body: method === "GET" ? undefined : JSON.stringify({ userId: "x", role: "admin", password: PASSWORD }),
          });
          const response = await app.auth.handler(request);
          if (response.status !== 404) failures.push(`${method} ${endpoint.path} as ${who}: ${response.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("keeps the allow-list's own endpoints reachable (a bad body gets a 4xx with a reason, not a 404)", async () => {
    for (const path of ["/sign-in/email", "/sign-up/email", "/request-password-reset", "/sign-in/magic-link"]) {
      const response = await app.post(path, { email: 42 });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(response.status, path).not.toBe(404);
    }
    // The store's actions call the rest; over HTTP they are closed.
    expect(
      (
        await app.post(
          "/change-password",
          { currentPassword: PASSWORD, newPassword: "Sturdy-Hammer-43" },
          { cookie: cookies.customer },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await app.store(
          "/change-password",
          { currentPassword: "wrong-wrong", newPassword: "Sturdy-Hammer-43" },
          { cookie: cookies.customer },
        )
      ).status,
    ).toBe(400);
  });

  it("closes the findings' paths: set-role, set-user-password, list-users, two-factor disable and backup codes, organization update", async () => {
    const admin = cookies["admin without a code"];
    const owner = cookies.owner;
    const attempts: [string, string, unknown][] = [
      ["/admin/set-role", admin, { userId: "someone", role: "admin" }],
      ["/admin/set-user-password", admin, { userId: "someone", newPassword: "Sturdy-Hammer-99" }],
      ["/two-factor/disable", admin, { password: PASSWORD }],
      ["/two-factor/generate-backup-codes", admin, { password: PASSWORD }],
      ["/organization/update", owner, { data: { name: "Click here to claim your refund" } }],
    ];
    for (const [path, cookie, body] of attempts) {
      expect((await app.post(path, body, { cookie })).status, path).toBe(404);
      expect((await app.store(path, body, { cookie, "x-test-ip": "10.8.0.1" })).status, path).toBe(404);
    }
    expect((await fetch(`${app.origin}/api/auth/admin/list-users`, { headers: { cookie: admin } })).status).toBe(404);
    const names = await t.db.selectFrom("organization").select("name").execute();
    expect(names.map((n) => n.name)).toEqual(["Acme Tools"]);
  });
});
