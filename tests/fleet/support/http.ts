/**
 * A browser-like HTTP client for the fleet tests: node:http (no redirects followed, so a test sees
 * each answer), a cookie jar, the Origin and Host a browser on the site would send, and an optional
 * local address, so a test can be "another client" (127.0.0.x) to nginx.
 */
import http from "node:http";
import { CookieJar } from "../../support/cookie-jar.ts";

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  location: string | null;
  setCookies: string[];
}

/** Keep-alive connections, as a browser keeps them; plenty of sockets for the concurrency tests. */
const sharedAgent = new http.Agent({ keepAlive: true, maxSockets: 512 });

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  agent?: http.Agent;
  /** Source address of the connection (127.0.0.x on Linux). */
  localAddress?: string;
  timeoutMs?: number;
}

function sendOnce(url: URL, o: SendOptions): Promise<Reply> {
  const headers: Record<string, string | number> = { ...o.headers };
  if (o.body !== undefined) headers["content-length"] = Buffer.byteLength(o.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: o.method ?? "GET",
        headers,
        // The agent pools sockets per source address too.
        agent: o.agent ?? sharedAgent,
        localAddress: o.localAddress,
        timeout: o.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const setCookie = res.headers["set-cookie"] ?? [];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            location: typeof res.headers.location === "string" ? res.headers.location : null,
            setCookies: Array.isArray(setCookie) ? setCookie : [setCookie],
          });
        });
      },
    );
    req.on("timeout", () =>
      req.destroy(Object.assign(new Error(`no answer within ${o.timeoutMs ?? 30_000} ms`), { code: "ETIMEDOUT" })),
    );
    req.on("error", (error: Error & { reusedSocket?: boolean }) => {
      error.reusedSocket = req.reusedSocket;
      reject(error);
    });
    req.end(o.body);
  });
}

/**
 * One request. A kept-alive connection that the server (nginx reloading, say) closed just as it was
 * reused never carried the request, so it is sent once more — what browsers and Node's docs do.
 */
export async function send(url: string, options: SendOptions = {}): Promise<Reply> {
  const target = new URL(url);
  try {
    return await sendOnce(target, options);
  } catch (error) {
    const e = error as Error & { reusedSocket?: boolean; code?: string };
    if (e.reusedSocket && (e.code === "ECONNRESET" || e.code === "EPIPE")) return sendOnce(target, options);
    throw error;
  }
}

export interface BrowserOptions {
  /** SITE_URL: the Origin and Host a browser on the site sends. */
  site: string;
  /** Where requests go by default (nginx). */
  baseUrl: string;
  localAddress?: string;
}

/** One visitor: its cookies, its address; requests go through nginx unless `to` names an instance. */
export class Browser {
  readonly jar = new CookieJar();
  readonly site: URL;
  readonly baseUrl: string;
  readonly localAddress: string | undefined;

  constructor(options: BrowserOptions) {
    this.site = new URL(options.site);
    this.baseUrl = options.baseUrl;
    this.localAddress = options.localAddress;
  }

  async send(
    method: string,
    path: string,
    options: { to?: string; body?: string; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { host: this.site.host, ...options.headers };
    if (method !== "GET" && method !== "HEAD") {
      headers.origin = this.site.origin;
      headers["sec-fetch-site"] = "same-origin";
    }
    if (options.contentType) headers["content-type"] = options.contentType;
    const cookie = this.jar.header();
    if (cookie) headers.cookie = cookie;
    const reply = await send(`${options.to ?? this.baseUrl}${path}`, {
      method,
      headers,
      body: options.body,
      localAddress: this.localAddress,
    });
    this.jar.update(reply.setCookies);
    return reply;
  }

  get(path: string, options: { to?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
    return this.send("GET", path, options);
  }

  postForm(
    path: string,
    fields: Record<string, string>,
    options: { to?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    return this.send("POST", path, {
      ...options,
      body: new URLSearchParams(fields).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
  }

  postJson(
    path: string,
    body: unknown,
    options: { to?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    return this.send("POST", path, { ...options, body: JSON.stringify(body), contentType: "application/json" });
  }
}

/** Runs `fn` over `items` with at most `limit` at a time; results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}
