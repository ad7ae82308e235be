/**
 * Builds the text and HTML parts of a mail. Every string passed in is treated as plain text:
 * the HTML part escapes it, so user content (a contact message, a name) can never add markup.
 */

import { escapeHtml } from "../../app/lib/html-escape.ts";

export interface MailParts {
  heading: string;
  /** Plain-text paragraphs; line breaks inside one are kept (as <br> in HTML). */
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}

const STORE_NAME = "ToolHub Wholesale";

function safeUrl(url: string): string {
  // Links in our mails are always absolute http(s) URLs that we built; anything else is a bug.
  if (!/^https?:\/\//i.test(url)) throw new Error(`Mail links must be absolute http(s) URLs, got: ${url}`);
  return url;
}

function htmlParagraph(text: string, style: string): string {
  return `<p style="${style}">${escapeHtml(text).replace(/\r?\n/g, "<br>")}</p>`;
}

export function renderMail(parts: MailParts): { text: string; html: string } {
  const action = parts.action ? { label: parts.action.label, url: safeUrl(parts.action.url) } : undefined;

  const textLines = [parts.heading, "", ...parts.paragraphs.flatMap((p) => [p, ""])];
  if (action) textLines.push(`${action.label}: ${action.url}`, "");
  if (parts.footer) textLines.push("--", parts.footer, "");
  textLines.push(STORE_NAME);
  const text = textLines.join("\n");

  const p = "margin:0 0 16px;font-size:16px;line-height:1.5;color:#0f172a";
  const html = [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(parts.heading)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:24px">',
    `<p style="margin:0 0 16px;font-weight:bold;color:#92400e">${STORE_NAME}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;color:#0f172a">${escapeHtml(parts.heading)}</h1>`,
    ...parts.paragraphs.map((text) => htmlParagraph(text, p)),
    action
      ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0f172a;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a></p>` +
        htmlParagraph(
          `If the button doesn't work, copy this address into your browser: ${action.url}`,
          "margin:0 0 16px;font-size:13px;color:#475569;word-break:break-all",
        )
      : "",
    parts.footer
      ? htmlParagraph(
          parts.footer,
          "margin:24px 0 0;font-size:13px;color:#475569;border-top:1px solid #e2e8f0;padding-top:16px",
        )
      : "",
    "</div></body></html>",
  ].join("\n");

  return { text, html };
}
