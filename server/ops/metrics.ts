import cluster from "node:cluster";
import { BlockList, isIPv6 } from "node:net";
import client, { AggregatorRegistry, type Counter, type Histogram, type Registry } from "prom-client";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

export interface StoreMetrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  pageCache: Counter<"result">;
  ordersPlaced: Counter<"payment">;
}

function createMetrics(): StoreMetrics {
  const registry = new client.Registry();
  if (cluster.isWorker) AggregatorRegistry.setRegistries([registry]);
  // Process CPU, memory, GC, handles and event-loop lag (nodejs_eventloop_lag_*).
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  return {
    registry,
    httpDuration: new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route pattern and status",
      labelNames: ["method", "route", "status"],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    pageCache: new client.Counter({
      name: "page_cache_requests_total",
      help: "Anonymous page cache lookups by result (hit, miss)",
      labelNames: ["result"],
      registers: [registry],
    }),
    ordersPlaced: new client.Counter({
      name: "orders_placed_total",
      help: "Orders placed by this process",
      labelNames: ["payment"],
      registers: [registry],
    }),
  };
}

let processMetrics: StoreMetrics | undefined;

/** The process's metrics (one instance: the server build imports server/ from source). */
export function metrics(): StoreMetrics {
  processMetrics ??= createMetrics();
  return processMetrics;
}

/** Counts an order that became `placed` (a member's at checkout, a guest's once confirmed). */
export function countPlacedOrder(payment: string) {
  metrics().ordersPlaced.inc({ payment });
}

/** Gauges read from the database and the pool when /metrics is scraped. */
export function registerDatabaseGauges(db: Db, pool?: { totalCount: number; idleCount: number; waitingCount: number }) {
  const { registry } = metrics();
  if (registry.getSingleMetric("mail_queue_depth")) return;
  new client.Gauge({
    name: "mail_queue_depth",
    help: "Mails in the durable queue by status",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const rows = await sql<{
        status: string;
        n: number;
      }>`select status, count(*) as n from mail_queue where status <> 'sent' group by status`
        .execute(db)
        .catch(() => ({ rows: [] }));
      this.reset();
      for (const status of ["queued", "sending", "transmitting", "failed", "unknown"])
        this.set({ status }, Number(rows.rows.find((r) => r.status === status)?.n ?? 0));
    },
  });
  new client.Gauge({
    name: "db_pool_connections",
    help: "Database pool connections by state (PostgreSQL; SQLite has one connection)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      if (!pool) return this.set({ state: "total" }, 1);
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
}

/** Whether an address may read /metrics: METRICS_ALLOW ("loopback", IPs and CIDRs). */
export function metricsAllowList(spec: string): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const raw of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (raw === "loopback") {
      list.addSubnet("127.0.0.0", 8, "ipv4");
      list.addAddress("::1", "ipv6");
      continue;
    }
    const [address, bits] = raw.split("/");
    const type = isIPv6(address) ? "ipv6" : "ipv4";
    if (bits) list.addSubnet(address, Number(bits), type);
    else list.addAddress(address, type);
  }
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
    return list.check(plain, isIPv6(plain) ? "ipv6" : "ipv4");
  };
}

// Constructed in every process: prom-client adds its listeners then, the primary's that gather and a
// worker's that answer (without it a worker never answers, and every scrape timed out).
const aggregator = new AggregatorRegistry();

/**
 * With several worker processes, the worker that gets the scrape asks the primary, which gathers
 * every worker's metrics; a single process answers from its own registry.
 */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  if (!cluster.isWorker || !process.send) return { contentType: registry.contentType, body: await registry.metrics() };
  const id = Math.random().toString(36).slice(2);
  const body = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("metrics: the primary did not answer"));
    }, 5000);
    const onMessage = (message: { type?: string; id?: string; body?: string }) => {
      if (message?.type !== "toolstore:metrics" || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      resolve(message.body ?? "");
    };
    process.on("message", onMessage);
    process.send!({ type: "toolstore:metrics-request", id });
  });
  return { contentType: registry.contentType, body };
}

/** In the primary: answers workers' metrics requests with every worker's metrics combined. */
export function serveClusterMetrics() {
  cluster.on("message", (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== "toolstore:metrics-request") return;
    void aggregator
      .clusterMetrics()
      .catch((error: Error) => `# metrics unavailable: ${error.message}\n`)
      .then((body) => worker.send({ type: "toolstore:metrics", id: message.id, body }));
  });
}
