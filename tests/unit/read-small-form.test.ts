import { describe, expect, it } from "vitest";
import { PAGE_BODY_LIMITS, storeBodyLimit } from "../../server/http/body-limit.ts";
import { pagePatterns } from "../../server/http/page-routes.ts";
import { samplePaths } from "../support/page-paths.ts";
import { MAX_FORM_BYTES, readSmallForm } from "../../server/http/form-action.ts";

/** A form post whose body streams in 1 KiB pieces with no Content-Length, like a chunked upload. */
function streamed(bytes: number, contentType = "application/x-www-form-urlencoded") {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) {
        controller.enqueue(new TextEncoder().encode("name="));
        sent = 5;
        return;
      }
      if (sent >= bytes) return controller.close();
      const n = Math.min(1024, bytes - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(97));
    },
  });
  return {
    request: new Request("http://store.test/login", {
      method: "POST",
      body,
      duplex: "half",
      headers: { "content-type": contentType },
    } as RequestInit),
    sent: () => sent,
  };
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    const status = (error as { init?: { status?: number } }).init?.status;
    if (typeof status === "number") return status;
    throw error;
  }
}

describe("readSmallForm", () => {
  it("reads a form streamed up to the cap", async () => {
    const { request } = streamed(MAX_FORM_BYTES);
    const form = await readSmallForm(request);
    expect(String(form.get("name")).length).toBe(MAX_FORM_BYTES - 5);
  });

  it("stops reading a streamed form one piece past the cap, with 413", async () => {
    const { request, sent } = streamed(20 * 1024 * 1024);
    expect(await statusOf(readSmallForm(request))).toBe(413);
    expect(sent()).toBeLessThan(MAX_FORM_BYTES + 4096);
  });

  it("answers a declared length over the cap with 413 without reading", async () => {
    const request = new Request("http://store.test/login", {
      method: "POST",
      body: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(MAX_FORM_BYTES + 1) },
    });
    expect(await statusOf(readSmallForm(request))).toBe(413);
    expect(request.bodyUsed).toBe(false);
  });

  it("answers a body that is not a form with 400", async () => {
    const request = new Request("http://store.test/login", {
      method: "POST",
      body: '{"name":"x"}',
      headers: { "content-type": "application/json" },
    });
    expect(await statusOf(readSmallForm(request))).toBe(400);
  });
});

describe("storeBodyLimit", () => {
  it("gives forms 16 KiB, the auth API 64 KiB and the contact form 128 KiB, for pages and their .data requests", () => {
    expect(storeBodyLimit("/login")).toBe(16 * 1024);
    expect(storeBodyLimit("/login.data")).toBe(16 * 1024);
    expect(storeBodyLimit("/cart")).toBe(16 * 1024);
    expect(storeBodyLimit("/api/auth/sign-in/email")).toBe(64 * 1024);
    expect(storeBodyLimit("/contact")).toBe(128 * 1024);
    expect(storeBodyLimit("/contact.data")).toBe(128 * 1024);
    expect(storeBodyLimit("/contactUs")).toBe(16 * 1024);
  });

  it("gives every page of app/routes.ts 16 KiB but the contact form, quick order, the back office's product forms and the tax uploads", () => {
    const larger: Record<string, number> = {
      "/contact": 128 * 1024,
      "/quick-order": 256 * 1024,
      "/admin/products/new": 128 * 1024,
      "/admin/products/import": 10 * 1024 * 1024 + 64 * 1024,
      "/admin/products/:id": 10 * 1024 * 1024 + 64 * 1024,
      "/admin/tax": 10 * 1024 * 1024 + 64 * 1024,
      "/account/company/tax-exemptions": 10 * 1024 * 1024 + 64 * 1024,
    };
    expect(PAGE_BODY_LIMITS).toEqual(larger);
    const patterns = pagePatterns();
    for (const pattern of Object.keys(larger)) expect(patterns).toContain(pattern);
    for (const pattern of patterns) {
      for (const path of samplePaths(pattern)) {
        expect(storeBodyLimit(path), path).toBe(larger[pattern] ?? 16 * 1024);
        expect(storeBodyLimit(`${path}.data`), `${path}.data`).toBe(larger[pattern] ?? 16 * 1024);
      }
    }
    expect(storeBodyLimit("/admin/products/12")).toBe(10 * 1024 * 1024 + 64 * 1024);
    expect(storeBodyLimit("/admin/products/import.data")).toBe(10 * 1024 * 1024 + 64 * 1024);
    expect(storeBodyLimit("/nope")).toBe(16 * 1024);
  });
});
