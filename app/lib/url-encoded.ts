/** A form's text fields as an `application/x-www-form-urlencoded` body (files are left out). */
export function urlEncoded(entries: Iterable<[string, FormDataEntryValue | string]>): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of entries) if (typeof value === "string") body.append(name, value);
  return body;
}
