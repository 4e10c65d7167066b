/**
 * VAT calculator, contract `vat-calculator-half-up/v1`.
 *
 * Exact integer (bigint) arithmetic on minor units; no floating point anywhere.
 *
 * - price excludes VAT: vat = half_up(amount * bps / 10000),          net = amount,       gross = amount + vat
 * - price includes VAT: vat = half_up(amount * bps / (10000 + bps)),  gross = amount,     net = amount - vat
 * - half_up(n / d) for n >= 0, d > 0 is floor((2n + d) / (2d)): the nearest integer, exact halves round up.
 *
 * Input domain: 0 <= amountMinor <= MAX_AMOUNT_MINOR (10^15), rateBps an integer 0..10000,
 * priceIncludesVat a boolean. With that domain every output is at most 2 * 10^15 < 2^53, so
 * it is exact as a JSON number / `Number`. Anything outside the domain (including a wrong
 * runtime type) throws `RangeError`.
 *
 * The calculator is currency-scale-free: amounts are integers in ISO 4217 minor units of the
 * request currency, and the VAT is rounded to one minor unit of that currency.
 */

export const CALCULATION_VERSION = 'vat-calculator-half-up/v1';

/** Largest accepted amount in minor units: 10^15. */
export const MAX_AMOUNT_MINOR = 1_000_000_000_000_000n;

/** Largest accepted rate in basis points (100 %). */
export const MAX_RATE_BPS = 10_000;

export interface VatInput {
  /** Integer amount in minor units: the gross when `priceIncludesVat`, else the net. */
  readonly amountMinor: bigint;
  /** Rate in basis points (1 bps = 0.01 %), integer 0..10000. */
  readonly rateBps: number;
  readonly priceIncludesVat: boolean;
}

export interface VatResult {
  readonly netMinor: bigint;
  readonly vatMinor: bigint;
  readonly grossMinor: bigint;
}

const BPS_DENOMINATOR = 10_000n;

/** half_up(n / d) = floor((2n + d) / (2d)) for n >= 0, d > 0 (bigint division truncates, = floor here). */
export function halfUpDivide(n: bigint, d: bigint): bigint {
  if (n < 0n || d <= 0n) throw new RangeError('halfUpDivide requires n >= 0 and d > 0');
  return (2n * n + d) / (2n * d);
}

export function calculateVat(input: VatInput): VatResult {
  const { amountMinor, rateBps, priceIncludesVat } = input ?? ({} as VatInput);
  if (typeof amountMinor !== 'bigint') {
    throw new RangeError('amountMinor must be a bigint');
  }
  if (amountMinor < 0n || amountMinor > MAX_AMOUNT_MINOR) {
    throw new RangeError(`amountMinor must be between 0 and ${MAX_AMOUNT_MINOR}`);
  }
  if (typeof rateBps !== 'number' || !Number.isInteger(rateBps) || rateBps < 0 || rateBps > MAX_RATE_BPS) {
    throw new RangeError(`rateBps must be an integer between 0 and ${MAX_RATE_BPS}`);
  }
  if (typeof priceIncludesVat !== 'boolean') {
    throw new RangeError('priceIncludesVat must be a boolean');
  }
  // Number.isInteger(-0) is true; BigInt(-0) is 0n, so -0 is harmless.
  const bps = BigInt(rateBps);
  if (priceIncludesVat) {
    const vatMinor = halfUpDivide(amountMinor * bps, BPS_DENOMINATOR + bps);
    return { netMinor: amountMinor - vatMinor, vatMinor, grossMinor: amountMinor };
  }
  const vatMinor = halfUpDivide(amountMinor * bps, BPS_DENOMINATOR);
  return { netMinor: amountMinor, vatMinor, grossMinor: amountMinor + vatMinor };
}
