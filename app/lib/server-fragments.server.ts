import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { ServerFragmentHtml } from "./server-fragments.ts";

/** Keys are few (nav states, icons, the footer's year); the cap only bounds a key with a count in it. */
const MAX_FRAGMENTS = 500;
/** Markup React lifts into the document's <head>, or preloads there: lost when rendered alone. */
const HOISTED = /<(?:link|meta|title|script|style)\b/;
/** A character past Latin-1: one of them makes V8 hold the whole document as two bytes a character. */
const WIDE_CHARACTER = /[^\u0000-\u00ff]/gu;

const rendered = new Map<string, string>();
const seen = new Set<string>();
/** Fragments to take from the document being rendered: key → the id of their host element. */
const fromDocument = new Map<string, string>();

/**
 * The ServerFragments of this process (see useServerFragment). A key's first use renders its
 * fragment with the page as usual; the fragment is rendered alone just after that page's render
 * (a render cannot start another), and each later page writes that HTML as it is.
 */
export const serverFragmentHtml: ServerFragmentHtml = (key, fragment, hostId) => {
  const html = rendered.get(key);
  if (html !== undefined || seen.has(key) || seen.size >= MAX_FRAGMENTS) return html;
  seen.add(key);
  if (hostId !== undefined) {
    fromDocument.set(key, hostId);
    return undefined;
  }
  queueMicrotask(() => {
    try {
      keep(key, renderToString(fragment));
    } catch {
      // Not a fragment that renders alone: every page keeps rendering it in place.
    }
  });
  return undefined;
};

function keep(key: string, html: string) {
  // Written as character references, which the browser reads back as the same text (a fragment
  // holds no <script> or <style>, where it would not), so the document stays one byte a character.
  if (!HOISTED.test(html)) rendered.set(key, html.replace(WIDE_CHARACTER, (c) => `&#${c.codePointAt(0)};`));
}

/**
 * Around one synchronous render of a whole document (server/http/document.ts): `begin` forgets
 * what a render that did not finish that way asked for, and `capture` keeps, from the document's
 * HTML, the fragments with a host element that its render met for the first time.
 */
export const documentFragments = {
  begin() {
    fromDocument.clear();
  },
  capture(documentHtml: string) {
    for (const [key, hostId] of fromDocument) {
      const inner = innerHtmlOf(documentHtml, hostId);
      if (inner !== null) keep(key, inner);
    }
    fromDocument.clear();
  },
};

/** The inner HTML of the one element with this id in the document, or null if there is not exactly one. */
export function innerHtmlOf(html: string, id: string): string | null {
  const marker = ` id="${id}"`;
  const at = html.indexOf(marker);
  if (at < 0 || html.includes(marker, at + marker.length)) return null;
  const tag = /<([a-z][a-z0-9-]*)[^<>]*$/.exec(html.slice(html.lastIndexOf("<", at), at))?.[1];
  const start = html.indexOf(">", at) + 1;
  if (!tag || start === 0) return null;
  const tags = new RegExp(`<${tag}[\\s>/]|</${tag}>`, "g");
  tags.lastIndex = start;
  let depth = 1;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[0].startsWith("</") ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index);
  }
  return null;
}
