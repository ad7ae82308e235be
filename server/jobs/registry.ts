import { config } from "../config.ts";
import { expireHoldsJob } from "../orders/holds.ts";
import { reconcilePaymentsJob } from "../payments/reconcile.ts";
import { paymentsFromConfig } from "../payments/stripe.ts";
import { retentionJob, retentionPolicyFromConfig } from "../privacy/retention.ts";
import { certificateRemindersJob } from "../tax/certificate-reminders.ts";
import type { PeriodicJob } from "./runner.ts";

/** Every periodic job the app processes run (each claimed through its lease, see runner.ts). */
export function backgroundJobs(): PeriodicJob[] {
  const cfg = config();
  const payments = paymentsFromConfig(cfg);
  return [
    retentionJob(retentionPolicyFromConfig(cfg)),
    expireHoldsJob(),
    certificateRemindersJob(cfg.siteUrl),
    ...(payments
      ? [reconcilePaymentsJob(payments, { everyMs: cfg.PAYMENT_RECONCILE_SECONDS * 1000, siteUrl: cfg.siteUrl })]
      : []),
  ];
}
