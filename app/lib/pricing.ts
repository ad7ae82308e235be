/**
 * The spec's discounted price: price − price × percent / 100, in integer cents,
 * rounded half-up to the cent. Every screen and the server use this one function.
 */
export function discountedPriceCents(priceCents: number, discountPercent: number | null | undefined): number {
  if (!Number.isInteger(priceCents) || priceCents < 0) throw new RangeError(`Invalid price in cents: ${priceCents}`);
  if (discountPercent == null || discountPercent === 0) return priceCents;
  if (!Number.isFinite(discountPercent) || discountPercent < 0 || discountPercent > 100) {
    throw new RangeError(`Invalid discount percent: ${discountPercent}`);
  }
  // Work in hundredths of a cent to keep the half-up rounding exact for whole percents.
  const reductionTimes100 = priceCents * discountPercent;
  const saleTimes100 = priceCents * 100 - reductionTimes100;
  return Math.floor((saleTimes100 + 50) / 100);
}

export function isDiscounted(discountPercent: number | null | undefined): discountPercent is number {
  return discountPercent != null && discountPercent > 0;
}
