import { withoutControl } from "./control-characters.ts";

/** A posted field as text: "" when it is missing or is a file. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** What was typed, to show again beside a refusal: control characters left out, each value capped. */
export function typedBack(form: FormData, names: readonly string[], maxLength: number): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, withoutControl(formText(form, name)).slice(0, maxLength)]));
}
