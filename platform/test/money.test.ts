import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { minorToMajor } from '../src/money';

describe('minor units to major-unit decimal strings', () => {
  it('uses the currency scale', () => {
    expect(minorToMajor(11900n, 2)).toBe('119.00');
    expect(minorToMajor('5', 2)).toBe('0.05');
    expect(minorToMajor(0n, 2)).toBe('0.00');
    expect(minorToMajor(1234n, 0)).toBe('1234');
    expect(minorToMajor(-1n, 3)).toBe('-0.001');
  });

  it('is exact: parsing the decimal back gives the same minor amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.integer({ min: 0, max: 4 }), (v, u) => {
        const s = minorToMajor(v, u);
        expect(s).toMatch(u === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${u}}$`));
        expect(BigInt(s.replace('.', ''))).toBe(v);
      }),
    );
  });
});
