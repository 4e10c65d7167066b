import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../src/exact-json';

describe('parseExactJson: integers beyond 2^53 stay exact', () => {
  it('a sum beyond 2^53 is a bigint with its digits; safe integers, decimals and strings are as JSON.parse gives them', () => {
    // 9,999,999,999,999,965 > 2^53 = 9,007,199,254,740,992 and odd: JSON.parse would give 9,999,999,999,999,964.
    const text = '{"cumulative_minor":9999999999999965,"day_minor":-9007199254740993,"max":9007199254740991,"rate":1.5e3,"id":"12345678901234567890","n":[1,-2,0]}';
    expect(JSON.parse(text).cumulative_minor).not.toBe(9999999999999965n);
    expect(parseExactJson(text)).toEqual({ cumulative_minor: 9999999999999965n, day_minor: -9007199254740993n, max: 9007199254740991, rate: 1500, id: '12345678901234567890', n: [1, -2, 0] });
    expect(parseExactJson('"a \\" 99999999999999999999 b"')).toBe('a " 99999999999999999999 b');
  });

  it('round-trips any integer and any string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.string(), (n, s) => {
        const parsed = parseExactJson<{ n: number | bigint; s: string }>(JSON.stringify({ s, n: 0 }).replace('"n":0', `"n":${n}`));
        expect(BigInt(parsed.n)).toBe(n);
        expect(typeof parsed.n).toBe(n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER) ? 'bigint' : 'number');
        expect(parsed.s).toBe(s);
      }),
    );
  });
});
