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

/**
 * The ServerFragments of this process (see useServerFragment). A key's first use renders its
 * fragment with the page as usual; the fragment is rendered alone just after that page's render
 * (a render cannot start another), and each later page writes that HTML as it is.
 */
export const serverFragmentHtml: ServerFragmentHtml = (key, fragment) => {
  const html = rendered.get(key);
  if (html !== undefined || seen.has(key) || seen.size >= MAX_FRAGMENTS) return html;
  seen.add(key);
  queueMicrotask(() => {
    try {
      const alone = renderToString(fragment);
      // Written as character references, which the browser reads back as the same text (a fragment
      // holds no <script> or <style>, where it would not), so the document stays one byte a character.
      if (!HOISTED.test(alone)) rendered.set(key, alone.replace(WIDE_CHARACTER, (c) => `&#${c.codePointAt(0)};`));
    } catch {
      // Not a fragment that renders alone: every page keeps rendering it in place.
    }
  });
  return undefined;
};
