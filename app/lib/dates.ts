/** "5 March 2025": a day as the store writes it, in UTC so the server and the browser agree. */
export function longDate(when: string | Date): string {
  return new Date(when).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}
