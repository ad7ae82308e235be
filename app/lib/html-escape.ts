const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Plain text as HTML, safe in text and in a quoted attribute: it can never add markup. */
export function escapeHtml(s: string): string {
  return String(s).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}
