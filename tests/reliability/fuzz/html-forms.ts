/**
 * Just enough HTML reading for the fuzzer: the post forms of a server-rendered page (where they
 * post, and their fields with the values the page put in them) and the site-relative links.
 */

export interface FormField {
  name: string;
  /** input type, or "select", "textarea", "button". */
  type: string;
  /** Values the page offers (an input's value, a select's options, a button's value). */
  values: string[];
}

export interface ScrapedForm {
  /** Site-relative path (with query) the form posts to. */
  action: string;
  method: string;
  enctype: string;
  fields: FormField[];
  /** The page it was found on. */
  page: string;
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([^\s=<>"'/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    out[m[1].toLowerCase()] = decode(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return out;
}

function sitePath(href: string, page: string, origin: string): string | null {
  try {
    const url = new URL(href, new URL(page, origin));
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

export function scrapeForms(html: string, page: string, origin: string): ScrapedForm[] {
  const forms: ScrapedForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attrs = attributes(m[1]);
    const method = (attrs.method ?? "get").toLowerCase();
    if (method !== "post") continue;
    const action = sitePath(attrs.action || page, page, origin);
    if (!action) continue;
    const fields = new Map<string, FormField>();
    const add = (name: string | undefined, type: string, value: string | undefined) => {
      if (!name) return;
      const field = fields.get(name) ?? { name, type, values: [] };
      if (value !== undefined && !field.values.includes(value)) field.values.push(value);
      fields.set(name, field);
    };
    const inner = m[2];
    for (const tag of inner.matchAll(/<(input|button)\b([^>]*)>/gi)) {
      const a = attributes(tag[2]);
      add(a.name, tag[1].toLowerCase() === "button" ? "button" : (a.type ?? "text"), a.value);
    }
    for (const sel of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
      const name = attributes(sel[1]).name;
      for (const opt of sel[2].matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/gi))
        add(name, "select", attributes(opt[1]).value ?? decode(opt[2]).trim());
      add(name, "select", undefined);
    }
    for (const ta of inner.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/gi))
      add(attributes(ta[1]).name, "textarea", decode(ta[2]));
    forms.push({
      action,
      method,
      enctype: attrs.enctype ?? "application/x-www-form-urlencoded",
      fields: [...fields.values()],
      page,
    });
  }
  return forms;
}

/** Site-relative paths of the page's links, images and form actions. */
export function scrapeLinks(html: string, page: string, origin: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/\s(?:href|src|action)\s*=\s*"([^"]*)"/gi)) {
    const path = sitePath(decode(m[1]), page, origin);
    if (path) out.add(path);
  }
  return [...out];
}
