/**
 * Checking what a back-office form (or any other caller) asks of an order: the zod schemas in
 * app/lib/order-admin-schema.ts, turned into a DomainError that carries one message per field.
 */
import type { z } from "zod";
import { InvalidError } from "../errors.ts";

export type FieldErrors = Record<string, string>;

/** Bad input: a 400 with a message per field (the form shows each beside its field). */
export class OrderInputError extends InvalidError {
  readonly fields: FieldErrors;
  constructor(fields: FieldErrors) {
    const first = Object.values(fields)[0] ?? "Check the form and try again.";
    super("INVALID_INPUT", first);
    this.fields = fields;
  }
}

/** The parsed input, or an OrderInputError naming each field's first problem. `fieldName` maps an issue's path to the form's field name. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  fieldName: (path: PropertyKey[]) => string = (p) => String(p[0] ?? "form"),
): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) fields[fieldName(issue.path)] ??= issue.message;
  throw new OrderInputError(fields);
}
