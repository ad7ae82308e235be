/** A path of a page of app/routes.ts, each dynamic segment filled in several ways. */
export function samplePaths(pattern: string): string[] {
  return ["123", "TH-0123456789", "abc.data", "x%20y"].map((value) => pattern.replace(/:[A-Za-z]+/g, value));
}
