// Starts the built store for the end-to-end suite: a fresh SQLite database, plus a local SMTP
// sink (mail lands in .tmp/e2e-<port>/mail) and a local OIDC provider standing in for Google.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  startOidcProvider,
  startVatCheckStandIn,
} from "../tests/support/fake-services.mjs";
import { startMailSink } from "../tests/support/mail-sink.ts";
import { createFakeStripe } from "../tests/support/fake-stripe.mjs";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? "3100");
const dir = path.join(root, ".tmp", `e2e-${port}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const smtp = await startMailSink({ port: port + 1, dir: path.join(dir, "mail") });
const oidc = await startOidcProvider(port + 2, path.join(dir, "oidc-identity.json"));
// A local stand-in for Stripe (API, hosted payment page, signed webhooks) on port + 3.
const E2E_STRIPE_WEBHOOK_SECRET = "whsec_e2e_0123456789abcdef";
const stripe = createFakeStripe({
  webhookUrl: `http://127.0.0.1:${port}/api/payments/stripe/webhook`,
  webhookSecret: E2E_STRIPE_WEBHOOK_SECRET,
  retryDelaysMs: [500, 1000, 2000, 4000],
});
await stripe.listen(port + 3);
// A local stand-in for HMRC's VAT number check on port + 4.
const vatCheck = await startVatCheckStandIn(port + 4);

// `--defaults`: the store as `npm start` runs it for a newcomer — no SITE_URL, AUTH_SECRET or
// trusted origins — on SQLite, with only the mail sink and a generous IP limit added.
const defaults = process.argv.includes("--defaults");
// `--postgres`: the same store on a fresh PostgreSQL database on TEST_DATABASE_URL's server (for
// the specs where the data layer differs, tests/e2e/admin/postgres.spec.ts); its URL is written to
// .tmp/e2e-<port>/database-url, and the database is dropped when the store stops.
const postgres = process.argv.includes("--postgres");
let databaseUrl = null;
let dropDatabase = async () => {};
if (postgres) {
  const { default: pg } = await import("pg");
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("--postgres needs TEST_DATABASE_URL");
  const name = `${(new URL(base).pathname.slice(1) || "toolstore")
    .replace(/[^a-z0-9_]/gi, "_")
    .toLowerCase()
    .slice(0, 40)}_e2e_${port}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  databaseUrl = url.href;
  writeFileSync(path.join(dir, "database-url"), databaseUrl);
  dropDatabase = () => admin(`drop database if exists ${name} with (force)`).catch(() => {});
}
const { SITE_URL: _site, AUTH_SECRET: _secret, AUTH_TRUSTED_ORIGINS: _origins, ...inherited } = process.env;
const configured = {
  SITE_URL: `http://127.0.0.1:${port}`,
  DATABASE_URL: databaseUrl ?? process.env.E2E_DATABASE_URL ?? "",
  GOOGLE_CLIENT_ID: OIDC_CLIENT_ID,
  GOOGLE_CLIENT_SECRET: OIDC_CLIENT_SECRET,
  GOOGLE_DISCOVERY_URL: `${oidc.url}/.well-known/openid-configuration`,
  AUTH_SECRET: "e2e-secret-0123456789abcdef0123456789abcdef",
  STRIPE_SECRET_KEY: "sk_test_e2e",
  STRIPE_WEBHOOK_SECRET: E2E_STRIPE_WEBHOOK_SECRET,
  STRIPE_API_URL: `http://127.0.0.1:${port + 3}`,
  PAYMENT_RECONCILE_SECONDS: "2",
  VAT_CHECK_URL: vatCheck.url,
};
const child = spawn(process.execPath, [path.join(root, "server/http/main.ts")], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...inherited,
    NODE_ENV: "production",
    SQLITE_PATH: path.join(dir, "store.db"),
    SMTP_URL: `smtp://127.0.0.1:${port + 1}`,
    AUTH_IP_LIMIT: "1000",
    // Every e2e test checks out from 127.0.0.1: the per-network hourly cap would refuse the later ones.
    CHECKOUT_IP_LIMIT: "1000",
    // Rate limits in memory: a shared Redis would carry one run's counts (checkouts per IP per
    // hour) into the next. Sharing through Redis is covered by the integration and fleet tests.
    REDIS_URL: "",
    ...(defaults ? { DATABASE_URL: "" } : configured),
  },
});
async function stop(signal) {
  child.kill(signal);
  await Promise.allSettled([smtp.close(), oidc.close(), stripe.close(), vatCheck.close()]);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void stop(signal));
child.on("exit", async (code) => {
  await Promise.allSettled([smtp.close(), oidc.close(), stripe.close(), vatCheck.close(), dropDatabase()]);
  process.exit(code ?? 0);
});
