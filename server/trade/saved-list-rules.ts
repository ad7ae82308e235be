/**
 * The saved lists' limits and the checks of what a buyer types (a list's name, a quantity): pure
 * functions, so the same rules hold whichever page or test calls them.
 */
import { formatCount } from "../../app/lib/numbers.ts";
import { InvalidError } from "../errors.ts";
import { CONTROL_IN_LINE } from "../../app/lib/control-characters.ts";

export const SAVED_LIST_NAME_MAX = 80;
export const SAVED_LISTS_PER_USER = 50;
export const SAVED_LIST_MAX_LINES = 500;
export const SAVED_LIST_MAX_QUANTITY = 9999;

export const QUANTITY_MESSAGE = `Give the quantity as a whole number from 1 to ${formatCount(SAVED_LIST_MAX_QUANTITY)}.`;

/** A list's name: trimmed, inner runs of spaces made one, 1–80 characters, no control characters. */
export function parseListName(value: unknown): string {
  const text = typeof value === "string" ? value.trim().replace(/\s+/g, " ") : "";
  if (CONTROL_IN_LINE.test(text))
    throw new InvalidError("LIST_NAME_INVALID", "A list name can hold letters, digits, spaces and punctuation only.");
  if (!text) throw new InvalidError("LIST_NAME_REQUIRED", "Give the list a name, like “Van restock”.");
  if ([...text].length > SAVED_LIST_NAME_MAX)
    throw new InvalidError("LIST_NAME_TOO_LONG", `A list name can be at most ${SAVED_LIST_NAME_MAX} characters.`);
  return text;
}

/** A list line's quantity: a whole number from 1 to 9,999; anything else is null. */
export function parseListQuantity(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,4}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= SAVED_LIST_MAX_QUANTITY ? n : null;
}

/** As parseListQuantity, but a bad quantity is a readable refusal. */
export function listQuantity(value: unknown): number {
  const n = parseListQuantity(value);
  if (n == null) throw new InvalidError("LIST_QUANTITY_INVALID", QUANTITY_MESSAGE);
  return n;
}

/** A line's color from a form: up to 64 characters, no control characters; anything else is null. */
export function parseLineColor(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 64 || CONTROL_IN_LINE.test(value)) return null;
  return value;
}
