/**
 * /metrics with several worker processes: the worker that gets the scrape asks the primary, which
 * gathers every worker's registry. Until a worker constructed prom-client's AggregatorRegistry it
 * never answered the primary, so every scrape of a multi-process store answered 503 after 5 s.
 */
import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { startStore, type RunningStore } from "./support/store-server.ts";

let store: RunningStore | undefined;
afterAll(async () => {
  await store?.stop();
});

/** One GET on a connection of its own, so the cluster's round robin spreads them over the workers. */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: "close" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const counterSum = (text: string, name: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);

describe("metrics of a store with two worker processes", () => {
  it("one scrape answers 200 and counts the page views of both workers", async () => {
    store = await startStore({ name: "cluster-metrics", kind: "sqlite", env: { WEB_CONCURRENCY: "2" } });
    const views = 6;
    for (let i = 0; i < views; i++) expect((await getOnNewConnection(`${store.baseUrl}/shop/1`)).status).toBe(200);
    const scrape = await getOnNewConnection(`${store.baseUrl}/metrics`);
    expect(scrape.status, scrape.body.slice(0, 200)).toBe(200);
    // Every anonymous /shop/1 is a page cache lookup, in whichever worker took it.
    expect(counterSum(scrape.body, "page_cache_requests_total")).toBe(views);
    expect(scrape.body).toMatch(/^process_cpu_seconds_total /m);
  });
});
