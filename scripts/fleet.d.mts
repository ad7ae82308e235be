// Types for fleet.mjs, so the TypeScript fleet tests (tests/fleet/) can drive a fleet.
import type { ChildProcess } from "node:child_process";

export interface FleetInstance {
  /** 0-based. */
  index: number;
  port: number;
  /** http://127.0.0.1:PORT — the instance itself, not through nginx. */
  url: string;
  /** stdout and stderr of every run of this instance (appended across restarts). */
  logPath: string;
  child: ChildProcess | null;
  pid: number | null;
  /** Every pid this instance has had, oldest first. */
  pids: number[];
  /** Marked `down` in nginx's upstream (out of rotation). */
  down: boolean;
  stopping: boolean;
}

export interface Fleet {
  dir: string;
  logsDir: string;
  nginxDir: string;
  nginxConf: string;
  nginxBin: string;
  nginxArgs: string[];
  port: number;
  /** nginx: http://127.0.0.1:PORT. */
  url: string;
  /** SITE_URL of the instances: http://localhost:PORT unless given. */
  siteUrl: string;
  trustedOrigins: string[];
  /** The address nginx connects to the instances from (proxy_bind), or null. */
  proxyAddress: string | null;
  /** TRUST_PROXY of the instances. */
  trustProxy: string;
  buildDir: string;
  databaseUrl: string;
  redisUrl: string;
  redis: ChildProcess | null;
  authSecret: string;
  env: Record<string, string>;
  outboxDir: string;
  /** nginx caches the pages the app marks as shared (option pageCache, default true). */
  pageCache: boolean;
  /** Option staticFiles: the folder nginx serves under STATIC_PREFIX; else null. */
  staticDir: string | null;
  nginx: ChildProcess | null;
  instances: FleetInstance[];
  stopping: boolean;
  stopped: boolean;
}

export interface FleetOptions {
  size?: number;
  port?: number;
  basePort?: number;
  dir?: string;
  buildDir?: string;
  databaseUrl?: string;
  databaseName?: string;
  pgAdminUrl?: string;
  redisUrl?: string;
  /** "private": always start a redis-server of the fleet's own on redisPort. */
  redis?: "private";
  redisPort?: number;
  authSecret?: string;
  proxyAddress?: string;
  siteUrl?: string;
  outboxDir?: string;
  /** Extra or overriding variables for every instance. */
  env?: Record<string, string>;
  /** false: no page cache in nginx (FLEET_PAGE_CACHE=off). */
  pageCache?: boolean;
  /** true: nginx serves fleet.staticDir under STATIC_PREFIX (benchmarks). */
  staticFiles?: boolean;
  /** false: refuse to build when the build is missing. */
  build?: boolean;
  quiet?: boolean;
  startTimeoutMs?: number;
  onCreated?: (fleet: Fleet) => void;
  onUnexpectedExit?: (instance: FleetInstance, how: number | string | null) => void;
}

export const root: string;
export const MAX_FAILS: number;
export const FAIL_TIMEOUT_S: number;
export const PAGE_CACHE_MAX_SIZE: string;
export const STATIC_PREFIX: string;
export function fleetOptionsFromEnv(
  env?: NodeJS.ProcessEnv,
): Required<
  Pick<FleetOptions, "size" | "port" | "basePort" | "dir" | "buildDir" | "databaseName" | "pgAdminUrl" | "proxyAddress">
> &
  FleetOptions;
export function nginxBinary(): string | null;
export function redisServerBinary(): string | null;
export function ensureDatabase(adminUrl: string, name: string): Promise<string>;
export function nginxConfig(fleet: Fleet): string;
export function startFleet(options?: FleetOptions): Promise<Fleet>;
export function stopFleet(fleet: Fleet | null | undefined): Promise<void>;
export function killFleetNow(fleet: Fleet | null | undefined): void;
export function startInstance(fleet: Fleet, index: number): Promise<FleetInstance>;
export function stopInstance(
  fleet: Fleet,
  index: number,
  options?: { signal?: NodeJS.Signals; timeoutMs?: number },
): Promise<void>;
export function killInstance(fleet: Fleet, index: number): Promise<void>;
export function restartInstance(fleet: Fleet, index: number, options?: { drain?: boolean }): Promise<void>;
export function setInstanceInRotation(fleet: Fleet, index: number, inRotation: boolean): Promise<void>;
export function reloadNginx(fleet: Fleet): Promise<void>;
