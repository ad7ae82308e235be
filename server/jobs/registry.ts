import { config } from "../config.ts";
import { expireHoldsJob } from "../orders/holds.ts";
import { retentionJob, retentionPolicyFromConfig } from "../privacy/retention.ts";
import type { PeriodicJob } from "./runner.ts";

/** Every periodic job the app processes run (each claimed through its lease, see runner.ts). */
export function backgroundJobs(): PeriodicJob[] {
  return [retentionJob(retentionPolicyFromConfig(config())), expireHoldsJob()];
}
