const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Plain text as HTML or XML (mail, SVG), safe in text and in a quoted attribute: it can never add
 * markup. `&#39;` rather than `&apos;`, which HTML 4 mail clients do not know.
 */
export function escapeHtml(s: string): string {
  return String(s).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}
