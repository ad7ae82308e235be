/**
 * Every /admin route in app/routes.ts, found from the route config (not a hand-kept list): a guest
 * and a signed-in customer get no 2xx for GET and POST, nothing of the page's data, and change
 * nothing. New admin pages are covered as soon as they are added to app/routes.ts.
 */
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "../support/fixtures.ts";
import { accountWithRole, adminPaths, signInViaApi, userRow } from "./support.ts";

const paths = adminPaths();

test("the route table has back-office routes to check", () => {
  expect(paths).toContain("/admin");
});

async function expectNothing(request: APIRequestContext, baseURL: string, path: string) {
  const origin = { origin: baseURL };
  const get = await request.get(path, { maxRedirects: 0 });
  expect(get.status(), `GET ${path}`).not.toBeLessThan(300);
  expect(await get.text()).not.toContain("Back office");
  const post = await request.post(path, {
    form: { intent: "anything", id: "1", role: "admin" },
    headers: origin,
    maxRedirects: 0,
  });
  expect(post.status(), `POST ${path}`).not.toBeLessThan(300);
  expect(await post.text()).not.toContain("Back office");
  // React Router's data requests (client navigations) get no data either.
  const data = await request.get(`${path}.data`, { maxRedirects: 0 });
  const body = await data.text();
  expect(body, `GET ${path}.data`).not.toContain("counts");
  expect(body).not.toContain("ordersToday");
  const dataPost = await request.post(`${path}.data`, {
    form: { intent: "anything" },
    headers: origin,
    maxRedirects: 0,
  });
  expect(await dataPost.text()).not.toContain("ordersToday");
}

test("a guest gets no back-office page or action", async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  for (const path of paths) {
    await expectNothing(request, baseURL!, path);
    for (const target of [path, `${path}?index`]) {
      const post = await request.post(target, {
        form: { intent: "anything" },
        headers: { origin: baseURL! },
        maxRedirects: 0,
      });
      expect([302, 303], `POST ${target} as a guest`).toContain(post.status());
      expect(post.headers().location).toBe("/login");
    }
  }
  await request.dispose();
});

test("a signed-in customer gets no back-office page or action and changes nothing", async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  const email = await accountWithRole(request, baseURL!, "admin-routes-customer");
  await signInViaApi(request, baseURL!, email);
  const before = userRow(email);
  // What an unknown URL answers, so the back office's answers can be compared with it.
  const unknownPost = await request.post("/no-such-page-here", {
    form: { intent: "anything" },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect(unknownPost.status()).toBe(404);
  for (const path of paths) {
    await expectNothing(request, baseURL!, path);
    const get = await request.get(path, { maxRedirects: 0 });
    expect(get.status(), `GET ${path} as a customer`).toBe(404);
    for (const target of [path, `${path}?index`]) {
      const post = await request.post(target, {
        form: { intent: "anything" },
        headers: { origin: baseURL! },
        maxRedirects: 0,
      });
      expect(post.status(), `POST ${target} as a customer`).toBe(404);
    }
  }
  expect(userRow(email)).toEqual(before);
  await request.dispose();
});
