/**
 * A signed-in page asks who is signed in from the root loader (`resolveShopper`) and from the
 * page's loader (`getSessionInfo`): Better Auth's `getSession` must run once per request, and a
 * request must never get another request's answer. Real Better Auth sessions on a real database,
 * and React Router's own static handler (what the server runtime answers a page with), so the
 * claim "the root and the page loader get the same Request" is tested, not assumed.
 */
import { createStaticHandler } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth, useAuthForTests, type Auth } from "../../server/auth/auth.ts";
import { getSessionInfo } from "../../server/auth/session.ts";
import { loadConfig } from "../../server/config.ts";
import { resolveShopper } from "../../server/shopper/identity.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { signUpAndIn as signUpAndInWith } from "./sign-in-support.ts";

const SITE = "http://127.0.0.1:3996";
const cfg = loadConfig({ SITE_URL: SITE, NODE_ENV: "test", AUTH_SECRET: "integration-secret-0123456789abcdef0123" });

describe.each(dialects)("the session is looked up once per request on %s", (kind) => {
  let t: TestDb;
  let auth: Auth;
  const users: Record<"ada" | "bob", { id: string; cookie: string }> = {} as never;

  async function signUpAndIn(name: string): Promise<{ id: string; cookie: string }> {
    const user = await signUpAndInWith(auth, name);
    expect(user.cookie).toContain("session_token=");
    return user;
  }

  beforeAll(async () => {
    t = await freshDb(kind);
    auth = createAuth(t.db, cfg);
    useAuthForTests(auth); // getAuth() answers with this instance
    users.ada = await signUpAndIn("Ada");
    users.bob = await signUpAndIn("Bob");
  });
  afterAll(async () => {
    useAuthForTests(undefined);
    await t?.drop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const page = (cookie?: string, path = "/shop") =>
    new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} });
  // Nothing else in these loaders reads the database: one query per lookup of a live session.
  const countLookups = async () => vi.spyOn(t.db, "selectFrom");

  /** The store's shape: a root loader (header: who, cart owner) and a page loader (trade prices: who). */
  const handler = createStaticHandler([
    {
      id: "root",
      path: "/",
      loader: async ({ request }) => {
        const shopper = await resolveShopper(request);
        return { owner: shopper.owner, email: shopper.session?.user.email ?? null };
      },
      children: [
        {
          id: "shop",
          path: "shop",
          loader: async ({ request }) => {
            const [first, second] = await Promise.all([getSessionInfo(request), getSessionInfo(request)]);
            return { userId: first?.userId ?? null, same: first === second };
          },
        },
      ],
    },
  ]);

  async function render(request: Request) {
    const context = await handler.query(request);
    if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
    return context.loaderData as {
      root: { owner: string; email: string | null };
      shop: { userId: string | null; same: boolean };
    };
  }

  it("looks the session up once for the root and the page loader of one signed-in page", async () => {
    const spy = await countLookups();
    const data = await render(page(users.ada.cookie));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(data.root.owner).toBe(`u:${users.ada.id}`);
    expect(data.shop).toEqual({ userId: users.ada.id, same: true });
  });

  it("looks the session up again for another request, even with the same cookie", async () => {
    const spy = await countLookups();
    const first = await render(page(users.ada.cookie));
    const second = await render(page(users.ada.cookie, "/shop?page=2"));
    expect(spy).toHaveBeenCalledTimes(2);
    expect(first.shop.userId).toBe(users.ada.id);
    expect(second.shop.userId).toBe(users.ada.id);
  });

  it("never gives one request another's session, even when they run at the same time", async () => {
    const spy = await countLookups();
    const requests = [users.ada, users.bob, users.ada, users.bob].map((u) => ({ u, request: page(u.cookie) }));
    const answers = await Promise.all(requests.map(({ request }) => render(request)));
    expect(spy).toHaveBeenCalledTimes(4);
    answers.forEach((data, i) => {
      expect(data.shop.userId).toBe(requests[i].u.id);
      expect(data.root.owner).toBe(`u:${requests[i].u.id}`);
    });
    // Directly, too: the same object for the same Request, separate answers for separate ones.
    const a = page(users.ada.cookie);
    const b = page(users.bob.cookie);
    const [a1, b1, a2] = await Promise.all([getSessionInfo(a), getSessionInfo(b), getSessionInfo(a)]);
    expect(a1).toBe(a2);
    expect(a1?.userId).toBe(users.ada.id);
    expect(b1?.userId).toBe(users.bob.id);
  });

  it("does not look anything up without a session cookie", async () => {
    const spy = await countLookups();
    const data = await render(page());
    expect(spy).not.toHaveBeenCalled();
    expect(data.shop.userId).toBeNull();
    expect(data.root).toEqual({ owner: "", email: null });
  });

  it("sees a sign-out on the next request (nothing kept across requests)", async () => {
    const carol = await signUpAndIn("Carol");
    expect((await getSessionInfo(page(carol.cookie)))?.userId).toBe(carol.id);
    await auth.api.signOut({ headers: new Headers({ cookie: carol.cookie }) });
    const spy = await countLookups();
    expect(await getSessionInfo(page(carol.cookie))).toBeNull();
    expect((await render(page(carol.cookie))).shop.userId).toBeNull();
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("does not keep a failed lookup: a later call for the same request tries again", async () => {
    const request = page(users.bob.cookie);
    const spy = vi.spyOn(t.db, "selectFrom").mockImplementationOnce(() => {
      throw new Error("database hiccup");
    });
    await expect(getSessionInfo(request)).rejects.toThrow("database hiccup");
    expect((await getSessionInfo(request))?.userId).toBe(users.bob.id);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("reads like getSession: a forged signature or a revoked session is nobody; an expired one is deleted; one due for its daily refresh is refreshed", async () => {
    const dave = await signUpAndIn("Dave");
    const [name, value] = dave.cookie
      .split("; ")
      .find((c) => c.includes("session_token="))!
      .split(/=(.*)/s);
    const token = decodeURIComponent(value).split(".")[0];
    const forged = `${name}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
    expect(await getSessionInfo(page(forged))).toBeNull();
    expect(await getSessionInfo(page(`${name}=${token}`))).toBeNull();
    // The same cookie twice: left to getSession, which answers as always.
    expect((await getSessionInfo(page(`${dave.cookie}; ${dave.cookie}`)))?.userId).toBe(dave.id);

    const day = 86_400_000;
    const at = (ms: number) => (kind === "postgres" ? new Date(ms) : new Date(ms).toISOString());
    // Due for refresh (older than updateAge, one day): getSession extends it by expiresIn (30 days).
    await t.db
      .updateTable("session")
      .set({ expiresAt: at(Date.now() + 29 * day - 60_000) } as never)
      .where("token", "=", token)
      .execute();
    expect((await getSessionInfo(page(dave.cookie)))?.userId).toBe(dave.id);
    const refreshed = await t.db
      .selectFrom("session")
      .select("expiresAt")
      .where("token", "=", token)
      .executeTakeFirstOrThrow();
    expect(new Date(refreshed.expiresAt as unknown as string).getTime()).toBeGreaterThan(Date.now() + 29.9 * day);

    // Expired: nobody, and the row is gone.
    await t.db
      .updateTable("session")
      .set({ expiresAt: at(Date.now() - 1_000) } as never)
      .where("token", "=", token)
      .execute();
    expect(await getSessionInfo(page(dave.cookie))).toBeNull();
    expect(await t.db.selectFrom("session").select("id").where("token", "=", token).executeTakeFirst()).toBeUndefined();

    // Revoked (deleted by "sign out everywhere", a ban, a password reset): nobody.
    const erin = await signUpAndIn("Erin");
    expect((await getSessionInfo(page(erin.cookie)))?.userId).toBe(erin.id);
    await t.db.deleteFrom("session").where("userId", "=", erin.id).execute();
    expect(await getSessionInfo(page(erin.cookie))).toBeNull();
  });
});
