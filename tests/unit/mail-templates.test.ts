import { describe, expect, it } from "vitest";
import { MailValidationError, validateMail } from "../../server/mail/queue.ts";
import { retryDelayMs } from "../../server/mail/sender.ts";
import { escapeHtml } from "../../app/lib/html-escape.ts";
import { renderMail } from "../../server/mail/templates.ts";

describe("escapeHtml", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<script>alert("x") & 'y'</script>`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;",
    );
  });
  it("leaves ordinary text alone", () => {
    expect(escapeHtml("Drill 18V — £120")).toBe("Drill 18V — £120");
  });
});

describe("renderMail", () => {
  const parts = {
    heading: "Hi <b>there</b>",
    paragraphs: ["<img src=x onerror=alert(1)>", "line one\nline two"],
    action: { label: "Open", url: "https://shop.example/a?x=1&y=<2>" },
    footer: "Footer & co",
  };

  it("puts user text into the HTML part only escaped", () => {
    const { html } = renderMail(parts);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>there");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("line one<br>line two");
    expect(html).toContain('href="https://shop.example/a?x=1&amp;y=&lt;2&gt;"');
    expect(html).toContain("Footer &amp; co");
  });

  it("keeps the text part readable, with the link spelled out", () => {
    const { text } = renderMail(parts);
    expect(text).toContain("Hi <b>there</b>");
    expect(text).toContain("Open: https://shop.example/a?x=1&y=<2>");
    expect(text).toContain("Footer & co");
  });

  it("refuses links that are not absolute http(s) URLs", () => {
    expect(() =>
      renderMail({ heading: "x", paragraphs: [], action: { label: "x", url: "javascript:alert(1)" } }),
    ).toThrow();
  });
});

describe("validateMail (header injection)", () => {
  const base = { to: "a@example.com", subject: "Hello", text: "t", html: "<p>t</p>" };

  it.each([
    ["to", { ...base, to: "a@example.com\r\nBcc: victim@example.com" }],
    ["subject", { ...base, subject: "Hi\r\nBcc: victim@example.com" }],
    ["subject", { ...base, subject: "Hi\nthere" }],
    ["replyTo", { ...base, replyTo: "x@example.com\nBcc: y@example.com" }],
    ["header List-Unsubscribe", { ...base, headers: { "List-Unsubscribe": "<https://x>\r\nBcc: y@example.com" } }],
  ])("rejects CR/LF in %s", (field, mail) => {
    try {
      validateMail(mail);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MailValidationError);
      expect((error as MailValidationError).code).toBe("MAIL_INVALID");
      expect((error as MailValidationError).field).toBe(field);
    }
  });

  it("rejects more than one recipient, reserved headers and bad header names", () => {
    expect(() => validateMail({ ...base, to: "a@example.com, b@example.com" })).toThrow(MailValidationError);
    expect(() => validateMail({ ...base, headers: { Bcc: "x@example.com" } })).toThrow(MailValidationError);
    expect(() => validateMail({ ...base, headers: { "X Bad: y": "1" } })).toThrow(MailValidationError);
  });

  it("accepts a quoted display name with commas", () => {
    expect(validateMail({ ...base, replyTo: '"Doe, Jane" <jane@example.com>' }).replyTo).toBe(
      '"Doe, Jane" <jane@example.com>',
    );
  });
});

describe("retryDelayMs", () => {
  it("doubles per attempt from the base, capped, with ±20% jitter", () => {
    const mid = () => 0.5;
    expect(retryDelayMs(1, 30_000, 3_600_000, mid)).toBe(30_000);
    expect(retryDelayMs(2, 30_000, 3_600_000, mid)).toBe(60_000);
    expect(retryDelayMs(5, 30_000, 3_600_000, mid)).toBe(480_000);
    expect(retryDelayMs(50, 30_000, 3_600_000, mid)).toBe(3_600_000);
    expect(retryDelayMs(1, 30_000, 3_600_000, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, 30_000, 3_600_000, () => 1)).toBe(36_000);
  });
});
