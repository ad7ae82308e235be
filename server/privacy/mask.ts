/** Masks an address to its domain: "ada@example.com" → "***@example.com"; no domain → "***". */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return "***";
  const domain = address
    .slice(at + 1)
    .replace(/[>\s].*$/, "")
    .toLowerCase();
  return domain ? `***@${domain}` : "***";
}

const EMAIL_IN_TEXT = /[^\s<>()"',;:@]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

/** Masks every email address inside free text (an SMTP error often quotes the recipient). */
export function maskAddressesIn(text: string): string {
  return text.replace(EMAIL_IN_TEXT, (_match, domain: string) => `***@${domain.toLowerCase()}`);
}

/**
 * The district part of a postcode, kept on anonymised orders for regional figures: a UK
 * outward code ("SW1A 1AA" → "SW1A"), the first three digits of a US ZIP ("10001-1234" → "100").
 */
export function postcodeDistrict(country: string, postcode: string): string {
  const compact = postcode.replace(/\s+/g, "").toUpperCase();
  if (country === "US") return /^\d{5}/.test(compact) ? compact.slice(0, 3) : "";
  if (country === "GB" || country === "UK") return compact.length > 3 ? compact.slice(0, -3) : "";
  return "";
}
