/* eslint-disable no-control-regex -- these patterns exist to find control characters */

/** Control characters that never belong in text a person types (tab and line breaks are allowed). */
export const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Any control character, line breaks included: for one-line values such as names, SKUs and addresses. */
export const CONTROL_IN_LINE = /[\u0000-\u001f\u007f]/;

/** What a mail header may not hold: control characters other than tab. */
export const CONTROL_IN_HEADER = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** The NUL character, which no database column or mail can carry. */
export const NUL = /\u0000/;

/** The text without any control character: for echoing a one-line value back in a message. */
export function withoutControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, "");
}

/** Control, format and invisible characters (soft hyphen, zero-width, bidi marks, BOM), all of them. */
export const CONTROL_OR_INVISIBLE_ALL =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
