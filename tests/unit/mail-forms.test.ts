import { describe, expect, it } from "vitest";
import { contactSchema, FORM_LIMITS, newsletterSchema, readFormData, validate } from "../../app/lib/forms.ts";

const good = {
  name: "Jane Doe",
  email: "jane@example.com",
  subject: "Bulk order",
  message: "Hello!\nCan you quote 40 drills?",
};

describe("the contact schema (shared by browser and server)", () => {
  it("accepts a complete message and trims it", () => {
    const r = validate(contactSchema, { ...good, name: "  Jane Doe  " });
    expect(r).toEqual({ ok: true, data: good });
  });

  it("requires every field, with one message per field", () => {
    const r = validate(contactSchema, { name: " ", email: "", subject: "", message: "" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(["email", "message", "name", "subject"]);
  });

  it("rejects line breaks in the name and the subject (header injection)", () => {
    for (const field of ["name", "subject"] as const) {
      for (const evil of ["x\r\nBcc: a@b.c", "x\nBcc: a@b.c", "x\rBcc: a@b.c", "x\u2028y"]) {
        const r = validate(contactSchema, { ...good, [field]: evil });
        expect(r.ok, `${field}: ${JSON.stringify(evil)}`).toBe(false);
        if (!r.ok) expect(r.errors[field]).toMatch(/one line/);
      }
    }
  });

  it("allows line breaks in the message", () => {
    expect(validate(contactSchema, { ...good, message: "a\r\nb" }).ok).toBe(true);
  });

  it("rejects oversized fields with a readable message", () => {
    const r = validate(contactSchema, {
      name: "n".repeat(FORM_LIMITS.name + 1),
      email: `${"e".repeat(250)}@example.com`,
      subject: "s".repeat(FORM_LIMITS.subject + 1),
      message: "m".repeat(FORM_LIMITS.message + 1),
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.name).toBe("Name must be 100 characters or fewer.");
      expect(r.errors.subject).toBe("Subject must be 150 characters or fewer.");
      expect(r.errors.message).toBe("Message must be 5,000 characters or fewer.");
      expect(r.errors.email).toMatch(/254 characters/);
    }
  });

  it("rejects addresses that are not one plain address", () => {
    for (const email of ["jane", "jane@", "a@b.c, d@e.f", "a@example.com\r\nBcc: x@y.z", "<a@example.com>"]) {
      expect(validate(contactSchema, { ...good, email }).ok, email).toBe(false);
    }
  });
});

describe("the newsletter schema", () => {
  it("takes userEmail, trimmed", () => {
    expect(validate(newsletterSchema, { userEmail: " a@example.com " })).toEqual({
      ok: true,
      data: { userEmail: "a@example.com" },
    });
  });
  it("explains what is wrong", () => {
    const empty = validate(newsletterSchema, { userEmail: "" });
    const bad = validate(newsletterSchema, { userEmail: "not-an-email" });
    expect(!empty.ok && empty.errors.userEmail).toBe("Enter your email address.");
    expect(!bad.ok && bad.errors.userEmail).toBe("Enter a valid email address, like name@example.com.");
  });
});

describe("readFormData", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    new Request("http://x.test/contact", {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });

  it("reads a normal form post", async () => {
    const form = await readFormData(post("name=Jane&email=a%40b.co"));
    expect(form.get("name")).toBe("Jane");
    expect(form.get("email")).toBe("a@b.co");
  });

  it("refuses a body over the limit, declared or not", async () => {
    await expect(readFormData(post(`message=${"x".repeat(2000)}`), 1000)).rejects.toThrow(
      /more text than this form accepts/,
    );
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(500)));
        c.close();
      },
    });
    const chunked = new Request("http://x.test/contact", {
      method: "POST",
      body: stream,
      duplex: "half",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    } as RequestInit);
    await expect(readFormData(chunked, 1000)).rejects.toThrow(/more text/);
  });
});
