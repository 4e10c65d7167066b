import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CALCULATION_VERSION,
  MAX_AMOUNT_MINOR,
  MAX_RATE_BPS,
  calculateVat,
  halfUpDivide,
  type VatInput,
} from './calculator';

const amountArb = fc.bigInt({ min: 0n, max: MAX_AMOUNT_MINOR });
/** Biased towards small amounts too, where rounding matters most. */
const anyAmountArb = fc.oneof(amountArb, fc.bigInt({ min: 0n, max: 100_000n }));
const bpsArb = fc.oneof(
  fc.integer({ min: 0, max: MAX_RATE_BPS }),
  fc.constantFrom(0, 1, 500, 550, 700, 1000, 1900, 2000, 2100, 2300, 2500, 2550, 2700, 9999, 10000),
);

/**
 * Independent check of the contract, by exact rational comparison instead of the
 * floor((2n + d) / 2d) formula: with exact q = n / d, the VAT v must satisfy
 * q - 1/2 < v <= q + 1/2 (nearest integer, exact halves go up), i.e.
 * -d < 2(v*d - n) <= d.
 */
function isHalfUpOf(v: bigint, n: bigint, d: bigint): boolean {
  const twice = 2n * (v * d - n);
  return -d < twice && twice <= d;
}

describe('calculateVat (vat-calculator-half-up/v1)', () => {
  it('exposes its version', () => {
    expect(CALCULATION_VERSION).toBe('vat-calculator-half-up/v1');
    expect(MAX_AMOUNT_MINOR).toBe(10n ** 15n);
  });

  it('computes the documented examples', () => {
    expect(calculateVat({ amountMinor: 10000n, rateBps: 1900, priceIncludesVat: false })).toEqual({
      netMinor: 10000n,
      vatMinor: 1900n,
      grossMinor: 11900n,
    });
    expect(calculateVat({ amountMinor: 11900n, rateBps: 1900, priceIncludesVat: true })).toEqual({
      netMinor: 10000n,
      vatMinor: 1900n,
      grossMinor: 11900n,
    });
  });

  it('rounds exact halves up', () => {
    // 5 * 10% = 0.5 -> 1
    expect(calculateVat({ amountMinor: 5n, rateBps: 1000, priceIncludesVat: false }).vatMinor).toBe(1n);
    // 100 * 25.5% = 25.5 -> 26
    expect(calculateVat({ amountMinor: 100n, rateBps: 2550, priceIncludesVat: false }).vatMinor).toBe(26n);
    // 3 * 2000/12000 = 0.5 -> 1
    expect(calculateVat({ amountMinor: 3n, rateBps: 2000, priceIncludesVat: true }).vatMinor).toBe(1n);
    // 1 * 10000/20000 = 0.5 -> 1
    expect(calculateVat({ amountMinor: 1n, rateBps: 10000, priceIncludesVat: true })).toEqual({
      netMinor: 0n,
      vatMinor: 1n,
      grossMinor: 1n,
    });
    // just below / at / above a half with 1 bps
    const v = (a: bigint) => calculateVat({ amountMinor: a, rateBps: 1, priceIncludesVat: false }).vatMinor;
    expect([v(4999n), v(5000n), v(5001n), v(14999n), v(15000n)]).toEqual([0n, 1n, 1n, 1n, 2n]);
  });

  it('handles the domain bounds', () => {
    expect(calculateVat({ amountMinor: 0n, rateBps: 2700, priceIncludesVat: false })).toEqual({
      netMinor: 0n,
      vatMinor: 0n,
      grossMinor: 0n,
    });
    const max = calculateVat({ amountMinor: MAX_AMOUNT_MINOR, rateBps: 10000, priceIncludesVat: false });
    expect(max).toEqual({ netMinor: 10n ** 15n, vatMinor: 10n ** 15n, grossMinor: 2n * 10n ** 15n });
    expect(max.grossMinor < 2n ** 53n).toBe(true);
  });

  it('rejects inputs outside the domain with RangeError', () => {
    const ok: VatInput = { amountMinor: 100n, rateBps: 2000, priceIncludesVat: false };
    const bad: unknown[] = [
      { ...ok, amountMinor: -1n },
      { ...ok, amountMinor: MAX_AMOUNT_MINOR + 1n },
      { ...ok, amountMinor: 100 },
      { ...ok, amountMinor: '100' },
      { ...ok, rateBps: -1 },
      { ...ok, rateBps: 10001 },
      { ...ok, rateBps: 19.5 },
      { ...ok, rateBps: Number.NaN },
      { ...ok, rateBps: Number.POSITIVE_INFINITY },
      { ...ok, rateBps: 2000n },
      { ...ok, rateBps: '2000' },
      { ...ok, priceIncludesVat: undefined },
      { ...ok, priceIncludesVat: null },
      { ...ok, priceIncludesVat: 'true' },
      { ...ok, priceIncludesVat: 1 },
      null,
      undefined,
    ];
    for (const input of bad) {
      expect(() => calculateVat(input as VatInput), JSON.stringify(input, (_k, v) => String(v))).toThrow(
        RangeError,
      );
    }
    expect(() => calculateVat(ok)).not.toThrow();
  });

  it('halfUpDivide matches floor((2n+d)/(2d)) and rejects bad operands', () => {
    expect(halfUpDivide(1n, 2n)).toBe(1n);
    expect(halfUpDivide(3n, 2n)).toBe(2n);
    expect(halfUpDivide(0n, 7n)).toBe(0n);
    expect(() => halfUpDivide(-1n, 2n)).toThrow(RangeError);
    expect(() => halfUpDivide(1n, 0n)).toThrow(RangeError);
  });

  describe('properties', () => {
    const inputArb = fc.record({ amountMinor: anyAmountArb, rateBps: bpsArb, priceIncludesVat: fc.boolean() });

    it('gross = net + vat, all non-negative, and within 2^53', () => {
      fc.assert(
        fc.property(inputArb, (input) => {
          const r = calculateVat(input);
          expect(r.grossMinor).toBe(r.netMinor + r.vatMinor);
          expect(r.netMinor >= 0n && r.vatMinor >= 0n && r.grossMinor >= 0n).toBe(true);
          expect(r.grossMinor <= Number.MAX_SAFE_INTEGER).toBe(true);
          expect(input.priceIncludesVat ? r.grossMinor : r.netMinor).toBe(input.amountMinor);
        }),
        { numRuns: 2000 },
      );
    });

    it('vat equals the contract formula (exact rational check, ties up)', () => {
      fc.assert(
        fc.property(inputArb, ({ amountMinor, rateBps, priceIncludesVat }) => {
          const { vatMinor } = calculateVat({ amountMinor, rateBps, priceIncludesVat });
          const bps = BigInt(rateBps);
          const d = priceIncludesVat ? 10000n + bps : 10000n;
          expect(isHalfUpOf(vatMinor, amountMinor * bps, d)).toBe(true);
        }),
        { numRuns: 3000 },
      );
    });

    it('is monotone (non-decreasing) in amount for net, vat and gross', () => {
      fc.assert(
        fc.property(anyAmountArb, anyAmountArb, bpsArb, fc.boolean(), (a, b, rateBps, priceIncludesVat) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const x = calculateVat({ amountMinor: lo, rateBps, priceIncludesVat });
          const y = calculateVat({ amountMinor: hi, rateBps, priceIncludesVat });
          expect(x.vatMinor <= y.vatMinor).toBe(true);
          expect(x.netMinor <= y.netMinor).toBe(true);
          expect(x.grossMinor <= y.grossMinor).toBe(true);
        }),
        { numRuns: 2000 },
      );
    });

    it('a step of one minor unit moves vat by 0 or 1', () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: MAX_AMOUNT_MINOR - 1n }), bpsArb, fc.boolean(), (a, rateBps, inc) => {
          const x = calculateVat({ amountMinor: a, rateBps, priceIncludesVat: inc });
          const y = calculateVat({ amountMinor: a + 1n, rateBps, priceIncludesVat: inc });
          const step = y.vatMinor - x.vatMinor;
          expect(step === 0n || step === 1n).toBe(true);
        }),
        { numRuns: 1000 },
      );
    });

    it('0 bps gives vat 0 and net = gross = amount', () => {
      fc.assert(
        fc.property(anyAmountArb, fc.boolean(), (amountMinor, priceIncludesVat) => {
          expect(calculateVat({ amountMinor, rateBps: 0, priceIncludesVat })).toEqual({
            netMinor: amountMinor,
            vatMinor: 0n,
            grossMinor: amountMinor,
          });
        }),
      );
    });

    it('vat never exceeds the amount (and is at most half the amount when extracting)', () => {
      fc.assert(
        fc.property(inputArb, (input) => {
          const { vatMinor } = calculateVat(input);
          expect(vatMinor <= input.amountMinor).toBe(true);
          if (input.priceIncludesVat) expect(2n * vatMinor <= input.amountMinor + 1n).toBe(true);
        }),
      );
    });

    /*
     * Excluding-then-including round trip ALWAYS holds (whenever the gross is itself inside
     * the input domain, i.e. gross <= MAX_AMOUNT_MINOR; above that the second call throws).
     * Proof: q = A*r/10000, vat1 = q + e with |e| <= 1/2, G = A + vat1. Exact extraction from G:
     * G*r/(10000+r) = q + e*r/(10000+r), which lies at distance |e|*10000/(10000+r) < 1/2 from
     * vat1 when r > 0, so half_up returns vat1 without a tie; r = 0 is trivial. Hence
     * vat2 = vat1 and net2 = G - vat2 = A.
     */
    it('exclude-then-include round trip returns the same vat and net', () => {
      fc.assert(
        fc.property(anyAmountArb, bpsArb, (amountMinor, rateBps) => {
          const ex = calculateVat({ amountMinor, rateBps, priceIncludesVat: false });
          fc.pre(ex.grossMinor <= MAX_AMOUNT_MINOR);
          const inc = calculateVat({ amountMinor: ex.grossMinor, rateBps, priceIncludesVat: true });
          expect(inc).toEqual(ex);
        }),
        { numRuns: 3000 },
      );
    });

    it('exclude-then-include round trip holds exhaustively for small amounts and common rates', () => {
      for (const rateBps of [0, 1, 550, 700, 1000, 1900, 2000, 2100, 2550, 2700, 5000, 9999, 10000]) {
        for (let a = 0n; a <= 3000n; a++) {
          const ex = calculateVat({ amountMinor: a, rateBps, priceIncludesVat: false });
          const inc = calculateVat({ amountMinor: ex.grossMinor, rateBps, priceIncludesVat: true });
          if (inc.vatMinor !== ex.vatMinor || inc.netMinor !== a) {
            throw new Error(`round trip failed for amount ${a} at ${rateBps} bps`);
          }
        }
      }
    });

    it('exclude-then-include: a gross above MAX_AMOUNT_MINOR is rejected on the way back', () => {
      const ex = calculateVat({ amountMinor: MAX_AMOUNT_MINOR, rateBps: 2000, priceIncludesVat: false });
      expect(ex.grossMinor).toBe(1_200_000_000_000_000n);
      expect(() => calculateVat({ amountMinor: ex.grossMinor, rateBps: 2000, priceIncludesVat: true })).toThrow(
        RangeError,
      );
    });

    /*
     * The reverse direction (include, then add VAT back onto the extracted net) does NOT
     * always reproduce the VAT: the re-added VAT can differ by exactly one minor unit.
     * Exact re-added VAT = w - e*r/10000 where w is the exact extracted VAT and vat = w + e,
     * so its distance to vat is |e|*(1 + r/10000), which can exceed 1/2 (but never 1).
     */
    it('include-then-exclude: vat may differ, but by at most one minor unit', () => {
      const inc = calculateVat({ amountMinor: 1n, rateBps: 10000, priceIncludesVat: true });
      const back = calculateVat({ amountMinor: inc.netMinor, rateBps: 10000, priceIncludesVat: false });
      expect([inc.vatMinor, back.vatMinor]).toEqual([1n, 0n]);
      const inc2 = calculateVat({ amountMinor: 3n, rateBps: 2000, priceIncludesVat: true });
      const back2 = calculateVat({ amountMinor: inc2.netMinor, rateBps: 2000, priceIncludesVat: false });
      expect([inc2.vatMinor, back2.vatMinor]).toEqual([1n, 0n]);

      fc.assert(
        fc.property(anyAmountArb, bpsArb, (amountMinor, rateBps) => {
          const i = calculateVat({ amountMinor, rateBps, priceIncludesVat: true });
          const e = calculateVat({ amountMinor: i.netMinor, rateBps, priceIncludesVat: false });
          const diff = e.vatMinor - i.vatMinor;
          expect(diff >= -1n && diff <= 1n).toBe(true);
          expect(e.netMinor).toBe(i.netMinor);
        }),
        { numRuns: 2000 },
      );
    });
  });
});
