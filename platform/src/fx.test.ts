import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EUR,
  EcbRateTable,
  canonicalRateDecimal,
  convertMinor,
  currencyToEurMinor,
  divRoundHalfAwayFromZero,
  ecbRate,
  eurRate,
  isIsoDate,
  parseRateDecimal,
  type EcbRate,
} from './fx.ts';

/** EUR cents -> minor units of the target currency, through the one conversion (`convertMinor`). */
const eurToCurrencyMinor = (eurMinor: bigint, rate: EcbRate, targetMinorUnits: number) => convertMinor(eurMinor, EUR, rate, 2, targetMinorUnits);

// ---------------------------------------------------------------------------------------------------------------
// helpers independent of the module under test

const DAY_MS = 86_400_000;
const BASE = Date.UTC(2020, 0, 1);
function dayString(offset: number): string {
  return new Date(BASE + offset * DAY_MS).toISOString().slice(0, 10);
}

/** Independent rounding: for d > 0, round-half-up of |n|/d is floor((2|n| + d) / (2d)). */
function refRound(n: bigint, d: bigint): bigint {
  const sign = n < 0n ? -1n : 1n;
  const a = n < 0n ? -n : n;
  return sign * ((2n * a + d) / (2n * d));
}

/** Independent decimal -> fraction. */
function refFraction(decimal: string): { num: bigint; den: bigint } {
  const [i, f = ''] = decimal.split('.');
  return { num: BigInt(`${i}${f}`), den: 10n ** BigInt(f.length) };
}

// arbitrary for realistic ECB rates: 0.01 .. 50,000 with 0..6 decimals as published
const rateArb = fc
  .tuple(fc.integer({ min: 0, max: 6 }), fc.bigInt({ min: 1n, max: 50_000_000_000n }))
  .map(([scale, m]) => {
    const s = m.toString().padStart(scale + 1, '0');
    return scale === 0 ? s : `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
  })
  .filter((d) => {
    const { num, den } = refFraction(d);
    return num * 100n >= den && num <= 50_000n * den; // 0.01 <= rate <= 50000
  })
  .map((d) => ecbRate('XTS', '2024-01-02', d));
const minorArb = fc.constantFrom(0, 2, 3);
const amountArb = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });

// ---------------------------------------------------------------------------------------------------------------

describe('decimal parsing', () => {
  it('keeps the published decimal exactly', () => {
    expect(parseRateDecimal('1.0749')).toEqual({ decimal: '1.0749', mantissa: 10749n, scale: 4 });
    expect(parseRateDecimal('163.01')).toEqual({ decimal: '163.01', mantissa: 16301n, scale: 2 });
    expect(parseRateDecimal('13168')).toEqual({ decimal: '13168', mantissa: 13168n, scale: 0 });
    expect(parseRateDecimal('0.58231')).toEqual({ decimal: '0.58231', mantissa: 58231n, scale: 5 });
  });
  it('canonicalises superfluous zeros (one spelling is stored and compared)', () => {
    expect(canonicalRateDecimal('001.178900')).toBe('1.1789');
    expect(parseRateDecimal('1.178900')).toEqual(parseRateDecimal('1.1789'));
    expect(parseRateDecimal('13168.000000').decimal).toBe('13168');
    expect(parseRateDecimal('0.500000').decimal).toBe('0.5');
  });
  it.each(['', '0', '0.000', '-1.2', '+1.2', '1e3', '1.2e-3', ' 1.2', '1.2 ', '1,2', '.5', '5.', 'N/A', 'NaN'])(
    'rejects %j',
    (s) => {
      expect(() => parseRateDecimal(s)).toThrow(RangeError);
    },
  );
  it('validates calendar dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2000-02-29')).toBe(true);
    expect(isIsoDate('2024-13-01')).toBe(false);
    expect(isIsoDate('2024-1-01')).toBe(false);
  });
  it('refuses an EUR rate from data: EUR is 1 by definition only', () => {
    expect(() => ecbRate('EUR', '2024-01-02', '1')).toThrow(/EUR/);
    expect(() => new EcbRateTable([{ currency: 'EUR', date: '2024-01-02', rate: '1' }])).toThrow(/EUR/);
    expect(eurRate('2024-01-02')).toEqual({ currency: 'EUR', date: '2024-01-02', decimal: '1', mantissa: 1n, scale: 0 });
  });
});

describe('EcbRateTable basics', () => {
  const t = new EcbRateTable([
    { currency: 'USD', date: '2024-01-02', rate: '1.0956' },
    { currency: 'USD', date: '2024-01-03', rate: '1.0919' },
    { currency: 'JPY', date: '2024-01-03', rate: '155.52' },
    { currency: 'USD', date: '2024-01-03', rate: '1.091900' }, // same value, DB-style: accepted
  ]);
  it('exact-day lookup', () => {
    expect(t.rateOn('USD', '2024-01-02')?.decimal).toBe('1.0956');
    expect(t.rateOn('JPY', '2024-01-02')).toBeUndefined(); // publication day, but no JPY row: missing
    expect(t.rateOn('USD', '2024-01-01')).toBeUndefined();
    expect(t.rateOn('GBP', '2024-01-02')).toBeUndefined();
    expect(t.rateOn('EUR', '2024-01-01')?.decimal).toBe('1');
  });
  it('metadata', () => {
    expect(t.currencies()).toEqual(['JPY', 'USD']);
    expect(t.lastPublicationDate()).toBe('2024-01-03');
    expect(t.firstPublicationDate()).toBe('2024-01-02');
    expect(t.size).toBe(3);
    expect(new EcbRateTable([]).lastPublicationDate()).toBeUndefined();
  });
  it('rejects conflicting duplicates and malformed input', () => {
    expect(
      () =>
        new EcbRateTable([
          { currency: 'USD', date: '2024-01-02', rate: '1.0956' },
          { currency: 'USD', date: '2024-01-02', rate: '1.0957' },
        ]),
    ).toThrow(/conflicting/);
    expect(() => new EcbRateTable([{ currency: 'usd', date: '2024-01-02', rate: '1' }])).toThrow(/currency/);
    expect(() => new EcbRateTable([{ currency: 'USD', date: '2024-02-30', rate: '1' }])).toThrow(/date/);
    expect(() => new EcbRateTable([{ currency: 'USD', date: '2024-01-02', rate: '0' }])).toThrow(/rate/);
    expect(() => t.rateOn('USD', '2024/01/02')).toThrow(RangeError);
  });
  it('builds from publication days (the stored form) with the same rules and answers', () => {
    const days = EcbRateTable.fromDays([
      { date: '2024-01-02', rates: { USD: '1.095600' } },
      { date: '2024-01-03', rates: { USD: '1.0919', JPY: '155.52' } },
      { date: '2024-01-04', rates: {} }, // a day without any rate is no publication day
    ]);
    expect(days.rateOn('USD', '2024-01-02')).toEqual(t.rateOn('USD', '2024-01-02'));
    expect(days.rateOn('JPY', '2024-01-03')?.decimal).toBe('155.52');
    expect(days.publicationDates()).toEqual(t.publicationDates());
    expect(days.size).toBe(3);
    expect(days.currencies()).toEqual(['JPY', 'USD']);
    // a day given twice merges when the rates agree
    const twice = EcbRateTable.fromDays([
      { date: '2024-01-03', rates: { USD: '1.0919' } },
      { date: '2024-01-03', rates: { USD: '1.091900', JPY: '155.52' } },
    ]);
    expect(twice.size).toBe(2);
    expect(() => EcbRateTable.fromDays([{ date: '2024-01-03', rates: { USD: '1.0919' } }, { date: '2024-01-03', rates: { USD: '1.092' } }])).toThrow(/conflicting/);
    expect(() => EcbRateTable.fromDays([{ date: '2024-01-03', rates: { EUR: '1' } }])).toThrow(/EUR/);
    expect(() => EcbRateTable.fromDays([{ date: '2024-01-03', rates: { usd: '1' } }])).toThrow(/currency/);
    expect(() => EcbRateTable.fromDays([{ date: '2024-02-30', rates: { USD: '1' } }])).toThrow(/date/);
    expect(() => EcbRateTable.fromDays([{ date: '2024-01-03', rates: { USD: '1e3' } }])).toThrow(/rate/);
    expect(() => EcbRateTable.fromDays([JSON.parse('{"date":"2024-01-03","rates":{"__proto__":"1"}}')])).toThrow(/currency/);
  });
  it('a snapshot loads back to the same table, and anything else is refused', () => {
    const days = EcbRateTable.fromDays([
      { date: '2024-01-02', rates: { USD: '1.095600' } },
      { date: '2024-01-03', rates: { USD: '1.0919', JPY: '155.52' } },
    ]);
    const text = days.snapshot();
    // sorted currencies; the rates as stored; empty where not quoted
    expect(text).toBe('ecb-days-v1,JPY,USD\n2024-01-02,,1.095600\n2024-01-03,155.52,1.0919');
    const back = EcbRateTable.fromSnapshot(text);
    expect(back.size).toBe(3);
    expect(back.currencies()).toEqual(['JPY', 'USD']);
    expect(back.publicationDates()).toEqual(['2024-01-02', '2024-01-03']);
    expect(back.rateOn('USD', '2024-01-02')).toEqual(days.rateOn('USD', '2024-01-02'));
    expect(back.rateOn('JPY', '2024-01-02')).toBeUndefined();
    // the next publication day did not quote JPY: missing, not a later day's rate
    expect(back.rateOnOrNextPublication('JPY', '2024-01-01')).toBeUndefined();
    expect(back.rateOnOrNextPublication('USD', '2024-01-01')).toEqual({ rate: days.rateOn('USD', '2024-01-02'), rateDate: '2024-01-02' });
    expect(back.snapshot()).toBe(text);
    expect(EcbRateTable.fromSnapshot(new EcbRateTable([]).snapshot()).size).toBe(0);
    // every positive plain decimal reads back as written (leading and trailing zeros included)
    const spellings = EcbRateTable.fromSnapshot('ecb-days-v1,ISK,JPY,USD\n2024-01-02,0.5,013168.0,1.178900');
    expect(['ISK', 'JPY', 'USD'].map((c) => spellings.rateOn(c, '2024-01-02')?.decimal)).toEqual(['0.5', '13168', '1.1789']);
    expect(spellings.size).toBe(3);
    // a currency column that is empty on every day is no currency of the table
    expect(EcbRateTable.fromSnapshot('ecb-days-v1,JPY,USD\n2024-01-02,,1.1').currencies()).toEqual(['USD']);
    const notADay = /is not a day with/;
    const refused: [string, RegExp][] = [
      ['ecb-days-v2,USD\n2024-01-02,1.1', /format/],
      ['ecb-days-v1,USD\n2024-01-02,1.1,2', notADay],
      ['ecb-days-v1,USD,JPY\n2024-01-02,1.1', notADay],
      ['ecb-days-v1,USD,JPY\n2024-01-02,,', notADay], // a day without any rate
      ['ecb-days-v1,USD\n2024-01-03,1.1\n2024-01-02,1.1', /does not follow/],
      ['ecb-days-v1,USD\n2024-01-02,1.1\n2024-01-02,1.1', /does not follow/],
      ['ecb-days-v1,USD\n2024-02-30,1.1', /date/],
      ['ecb-days-v1,USD\n2024-1-02,1.1', notADay],
      ['ecb-days-v1,USD,USD\n2024-01-02,1.1,1.1', /twice/],
      ['ecb-days-v1,EUR\n2024-01-02,1', /EUR/],
      ['ecb-days-v1,usd\n2024-01-02,1', /currency/],
      ['ecb-days-v1,USD\n2024-01-02,0', notADay],
      ['ecb-days-v1,USD\n2024-01-02,0.000', notADay],
      ['ecb-days-v1,USD\n2024-01-02,1e3', notADay],
      ['ecb-days-v1,USD\n2024-01-02,-1', notADay],
      ['ecb-days-v1,USD\n2024-01-02,1.', notADay],
      ['ecb-days-v1,USD\n2024-01-02,.5', notADay],
      ['ecb-days-v1,USD\n2024-01-02, 1', notADay],
      ['ecb-days-v1,USD\n2024-01-02,1.1\n', notADay],
    ];
    for (const [bad, why] of refused) expect(() => EcbRateTable.fromSnapshot(bad), bad).toThrow(why);
  });
  it('a snapshot accepts exactly the rates the days accept (property)', () => {
    const textArb = fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '.', '-', 'e', ' ', '+'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(textArb, (rate) => {
        const viaDays = () => EcbRateTable.fromDays([{ date: '2024-01-02', rates: { USD: rate } }]);
        const viaSnapshot = () => EcbRateTable.fromSnapshot(`ecb-days-v1,USD\n2024-01-02,${rate}`);
        let daysOk = true;
        try {
          viaDays();
        } catch {
          daysOk = false;
        }
        if (daysOk) expect(viaSnapshot().rateOn('USD', '2024-01-02')).toEqual(viaDays().rateOn('USD', '2024-01-02'));
        else expect(viaSnapshot).toThrow(RangeError);
      }),
      { numRuns: 2000 },
    );
  });
  it('a snapshot answers every lookup as the table it was made from (property)', () => {
    const currencyArb = fc.constantFrom('USD', 'JPY', 'GBP', 'CHF', 'ISK', 'RUB');
    const rateArb = fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 9999 })).filter(([i, f]) => i + f > 0).map(([i, f]) => `${i}.${String(f).padStart(4, '0')}`);
    const dayArb = fc.record({ day: fc.integer({ min: 0, max: 60 }), rates: fc.dictionary(currencyArb, rateArb, { maxKeys: 6 }) });
    const dateOf = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10);
    fc.assert(
      fc.property(fc.uniqueArray(dayArb, { selector: (d) => d.day, maxLength: 40 }), fc.integer({ min: -2, max: 64 }), (input, probe) => {
        const table = EcbRateTable.fromDays(input.map((d) => ({ date: dateOf(d.day), rates: d.rates })));
        const back = EcbRateTable.fromSnapshot(table.snapshot());
        expect(back.size).toBe(table.size);
        expect(back.currencies()).toEqual(table.currencies());
        expect(back.publicationDates()).toEqual(table.publicationDates());
        const date = dateOf(probe);
        for (const currency of ['USD', 'JPY', 'GBP', 'CHF', 'ISK', 'RUB', 'SEK']) {
          expect(back.rateOn(currency, date)).toEqual(table.rateOn(currency, date));
          expect(back.rateOnOrNextPublication(currency, date)).toEqual(table.rateOnOrNextPublication(currency, date));
          expect(back.rateOnOrPreviousPublication(currency, date)).toEqual(table.rateOnOrPreviousPublication(currency, date));
        }
      }),
    );
  });
  it('EUR through the Art. 366(2) lookup is exactly 1 on the day asked', () => {
    expect(t.rateOnOrNextPublication('EUR', '2030-01-01')).toEqual({ rate: eurRate('2030-01-01'), rateDate: '2030-01-01' });
  });
});

describe('Art. 366(2): rate on the day or the next publication day (property)', () => {
  const pubSetArb = fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { maxLength: 60 });

  it('single currency: answer is the smallest published date >= query, missing when none', () => {
    fc.assert(
      fc.property(pubSetArb, fc.integer({ min: -10, max: 410 }), (offsets, q) => {
        const table = new EcbRateTable(
          offsets.map((o) => ({ currency: 'USD', date: dayString(o), rate: `1.${String(o).padStart(4, '0')}1` })),
        );
        const query = dayString(q);
        const expected = offsets.filter((o) => o >= q).sort((a, b) => a - b)[0];
        const got = table.rateOnOrNextPublication('USD', query);
        if (expected === undefined) {
          expect(got).toBeUndefined();
        } else {
          expect(got?.rateDate).toBe(dayString(expected));
          expect(got?.rate.decimal).toBe(`1.${String(expected).padStart(4, '0')}1`);
          expect(got!.rateDate >= query).toBe(true);
          if (offsets.includes(q)) expect(got?.rateDate).toBe(query); // same-day case
        }
        // exact-day lookup agrees
        expect(table.rateOn('USD', query)?.date).toBe(offsets.includes(q) ? query : undefined);
      }),
      { numRuns: 500 },
    );
  });

  it('several currencies: the day is the next ECB publication day; a currency not quoted that day is missing', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 40 }),
        fc.func(fc.boolean()),
        fc.integer({ min: -5, max: 205 }),
        (offsets, quotesUsd, q) => {
          const rows = offsets.flatMap((o) => [
            { currency: 'JPY', date: dayString(o), rate: '150.5' },
            ...(quotesUsd(o) ? [{ currency: 'USD', date: dayString(o), rate: '1.1' }] : []),
          ]);
          const table = new EcbRateTable(rows);
          const next = offsets.filter((o) => o >= q).sort((a, b) => a - b)[0];
          const got = table.rateOnOrNextPublication('USD', dayString(q));
          if (next === undefined || !quotesUsd(next)) expect(got).toBeUndefined();
          else expect(got?.rateDate).toBe(dayString(next));
          // never a 1, never a 0
          if (got) expect(got.rate.decimal).toBe('1.1');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('previous-publication lookup mirrors it: largest published date <= query', () => {
    fc.assert(
      fc.property(pubSetArb, fc.integer({ min: -10, max: 410 }), (offsets, q) => {
        const table = new EcbRateTable(offsets.map((o) => ({ currency: 'USD', date: dayString(o), rate: '1.2' })));
        const expected = offsets.filter((o) => o <= q).sort((a, b) => b - a)[0];
        const got = table.rateOnOrPreviousPublication('USD', dayString(q));
        expect(got?.rateDate).toBe(expected === undefined ? undefined : dayString(expected));
      }),
      { numRuns: 300 },
    );
  });
});

describe('conversion (property)', () => {
  it('rounds half away from zero', () => {
    expect(divRoundHalfAwayFromZero(5n, 2n)).toBe(3n);
    expect(divRoundHalfAwayFromZero(-5n, 2n)).toBe(-3n);
    expect(divRoundHalfAwayFromZero(7n, 3n)).toBe(2n);
    expect(divRoundHalfAwayFromZero(-7n, 3n)).toBe(-2n);
    expect(divRoundHalfAwayFromZero(0n, 3n)).toBe(0n);
    expect(() => divRoundHalfAwayFromZero(1n, 0n)).toThrow();
  });

  it('EUR -> X equals the exact rational rounded half-up', () => {
    fc.assert(
      fc.property(amountArb, rateArb, minorArb, (eur, rate, mu) => {
        const { num, den } = refFraction(rate.decimal);
        const expected = refRound(eur * num * 10n ** BigInt(mu), den * 100n);
        expect(eurToCurrencyMinor(eur, rate, mu)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('X -> EUR equals the exact rational rounded half-up', () => {
    fc.assert(
      fc.property(amountArb, rateArb, minorArb, (amt, rate, mu) => {
        const { num, den } = refFraction(rate.decimal);
        const expected = refRound(amt * den * 100n, num * 10n ** BigInt(mu));
        expect(currencyToEurMinor(amt, rate, mu)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('cross rate X -> Y is one exact fraction, rounded once', () => {
    fc.assert(
      fc.property(amountArb, rateArb, rateArb, minorArb, minorArb, (amt, from, to, fmu, tmu) => {
        const f = refFraction(from.decimal);
        const t = refFraction(to.decimal);
        // amt / 10^fmu * f.den / f.num * t.num / t.den * 10^tmu
        const expected = refRound(amt * f.den * t.num * 10n ** BigInt(tmu), 10n ** BigInt(fmu) * f.num * t.den);
        expect(convertMinor(amt, from, to, fmu, tmu)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('sign symmetry and monotonicity', () => {
    fc.assert(
      fc.property(amountArb, amountArb, rateArb, minorArb, (a, b, rate, mu) => {
        expect(eurToCurrencyMinor(-a, rate, mu)).toBe(-eurToCurrencyMinor(a, rate, mu));
        expect(currencyToEurMinor(-a, rate, mu)).toBe(-currencyToEurMinor(a, rate, mu));
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(eurToCurrencyMinor(lo, rate, mu) <= eurToCurrencyMinor(hi, rate, mu)).toBe(true);
        expect(currencyToEurMinor(lo, rate, mu) <= currencyToEurMinor(hi, rate, mu)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('EUR -> X -> EUR round trip is within 1 cent when an X minor unit is worth less than 3 cents', () => {
    // error <= 1/2 cent + 1/2 X minor unit (in cents) < 2 cents, so at most 1 cent; covers every ECB currency
    fc.assert(
      fc.property(amountArb, rateArb, minorArb, (eur, rate, mu) => {
        const { num, den } = refFraction(rate.decimal);
        fc.pre(num * 10n ** BigInt(mu) * 3n > den * 100n); // 100 / (rate * 10^mu) < 3
        const back = currencyToEurMinor(eurToCurrencyMinor(eur, rate, mu), rate, mu);
        const diff = back - eur;
        expect(diff >= -1n && diff <= 1n).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('X -> EUR -> X round trip is within 1 X minor unit when a cent is worth less than 3 X minor units', () => {
    fc.assert(
      fc.property(amountArb, rateArb, minorArb, (amt, rate, mu) => {
        const { num, den } = refFraction(rate.decimal);
        fc.pre(num * 10n ** BigInt(mu) < den * 300n); // rate * 10^mu / 100 < 3
        const back = eurToCurrencyMinor(currencyToEurMinor(amt, rate, mu), rate, mu);
        const diff = back - amt;
        expect(diff >= -1n && diff <= 1n).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('EUR -> X -> EUR round trip error is bounded by half an X minor unit plus half a cent in general', () => {
    fc.assert(
      fc.property(amountArb, rateArb, minorArb, (eur, rate, mu) => {
        const { num, den } = refFraction(rate.decimal);
        const back = currencyToEurMinor(eurToCurrencyMinor(eur, rate, mu), rate, mu);
        const diff = back < eur ? eur - back : back - eur;
        // |diff| <= 1/2 + (1/2 X minor unit in cents) = 1/2 + 50 * den / (num * 10^mu)
        const unit = num * 10n ** BigInt(mu);
        expect(2n * diff * unit <= unit + 100n * den).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('EUR on either side is the identity rate', () => {
    fc.assert(
      fc.property(amountArb, rateArb, minorArb, (a, rate, mu) => {
        expect(convertMinor(a, EUR, rate, 2, mu)).toBe(eurToCurrencyMinor(a, rate, mu));
        expect(convertMinor(a, rate, EUR, mu, 2)).toBe(currencyToEurMinor(a, rate, mu));
        expect(convertMinor(a, EUR, EUR, 2, 2)).toBe(a);
        expect(convertMinor(a, eurRate('2024-01-02'), EUR, 2, 2)).toBe(a);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects non-bigint amounts and bad minor units', () => {
    const r = ecbRate('USD', '2024-01-02', '1.1');
    expect(() => eurToCurrencyMinor(100 as unknown as bigint, r, 2)).toThrow(TypeError);
    expect(() => eurToCurrencyMinor(100n, r, -1)).toThrow(RangeError);
    expect(() => eurToCurrencyMinor(100n, r, 2.5)).toThrow(RangeError);
  });

  it('worked examples', () => {
    const usd = ecbRate('USD', '2024-04-02', '1.0749');
    expect(eurToCurrencyMinor(10000n, usd, 2)).toBe(10749n); // 100.00 EUR = 107.49 USD
    expect(currencyToEurMinor(10749n, usd, 2)).toBe(10000n);
    expect(currencyToEurMinor(100n, usd, 2)).toBe(93n); // 1.00 USD = 0.93031... EUR
    const jpy = ecbRate('JPY', '2024-04-02', '163.01');
    expect(eurToCurrencyMinor(10000n, jpy, 0)).toBe(16301n);
    expect(convertMinor(10749n, usd, jpy, 2, 0)).toBe(16301n);
    // half away from zero: 0.05 EUR at 1.1 = 0.055 USD -> 0.06 / -0.06
    const r = ecbRate('USD', '2024-01-02', '1.1');
    expect(eurToCurrencyMinor(5n, r, 2)).toBe(6n);
    expect(eurToCurrencyMinor(-5n, r, 2)).toBe(-6n);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// against the shipped ECB history

describe('shipped ECB history (seeds/ecb/eurofxref-hist.csv)', () => {
  const csvPath = fileURLToPath(new URL('../../seeds/ecb/eurofxref-hist.csv', import.meta.url));
  /** The test's own minimal parser: date -> currency -> decimal string. */
  const raw = new Map<string, Map<string, string>>();
  let table: EcbRateTable;

  beforeAll(() => {
    const lines = readFileSync(csvPath, 'utf8').split('\n').filter((l) => l.length > 0);
    const header = lines[0]!.split(',');
    const rows: { currency: string; date: string; rate: string }[] = [];
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      const byCur = new Map<string, string>();
      raw.set(cells[0]!, byCur);
      header.forEach((cur, i) => {
        const v = cells[i];
        if (i === 0 || cur === '' || v === undefined || v === 'N/A' || v === '') return;
        byCur.set(cur, v);
        rows.push({ currency: cur, date: cells[0]!, rate: v });
      });
    }
    table = new EcbRateTable(rows);
  });

  it('loads the full coverage', () => {
    expect(table.firstPublicationDate()).toBe('1999-01-04');
    expect(table.lastPublicationDate()).toBe('2026-04-13');
    expect(table.currencies()).toContain('USD');
    expect(table.currencies()).not.toContain('EUR');
  });

  it('USD on Good Friday 2024-03-29 (no publication) resolves to Tuesday 2024-04-02', () => {
    expect(table.isPublicationDay('2024-03-29')).toBe(false);
    expect(table.rateOn('USD', '2024-03-29')).toBeUndefined();
    const r = table.rateOnOrNextPublication('USD', '2024-03-29');
    expect(r?.rateDate).toBe('2024-04-02');
    expect(r?.rate.decimal).toBe(raw.get('2024-04-02')!.get('USD'));
    // Easter Monday and the weekend resolve the same way; the day before is its own publication day
    expect(table.rateOnOrNextPublication('USD', '2024-04-01')?.rateDate).toBe('2024-04-02');
    expect(table.rateOnOrNextPublication('USD', '2024-03-31')?.rateDate).toBe('2024-04-02');
    expect(table.rateOnOrNextPublication('USD', '2024-03-28')?.rateDate).toBe('2024-03-28');
  });

  it('published values match the file exactly', () => {
    for (const [date, cur] of [
      ['2024-03-28', 'USD'],
      ['2024-04-02', 'JPY'],
      ['1999-01-04', 'USD'],
      ['1999-01-04', 'CYP'],
      ['2022-12-30', 'HRK'],
      ['2026-04-13', 'GBP'],
      ['2026-04-13', 'IDR'],
    ] as const) {
      const expected = raw.get(date)!.get(cur)!;
      expect(table.rateOn(cur, date)?.decimal, `${cur} ${date}`).toBe(expected);
      expect(table.rateOnOrNextPublication(cur, date)).toEqual({ rate: table.rateOn(cur, date), rateDate: date });
    }
  });

  it('a quarter ending on a weekend takes the next publication day', () => {
    // 2023-09-30 is a Saturday: next publication is Monday 2023-10-02
    expect(table.rateOnOrNextPublication('GBP', '2023-09-30')?.rateDate).toBe('2023-10-02');
    expect(table.rateOnOrNextPublication('GBP', '2023-09-30')?.rate.decimal).toBe(raw.get('2023-10-02')!.get('GBP'));
    // but the last published day on or before is the Friday
    expect(table.rateOnOrPreviousPublication('GBP', '2023-09-30')?.rateDate).toBe('2023-09-29');
  });

  it('missing stays missing: no later publication loaded, suspended or discontinued quotes', () => {
    expect(table.rateOnOrNextPublication('USD', '2026-04-13')?.rateDate).toBe('2026-04-13');
    expect(table.rateOnOrNextPublication('USD', '2026-04-14')).toBeUndefined();
    expect(table.rateOnOrNextPublication('USD', '2026-06-30')).toBeUndefined();
    // RUB: last quoted 2022-03-01
    expect(table.rateOnOrNextPublication('RUB', '2022-03-01')?.rateDate).toBe('2022-03-01');
    expect(table.rateOnOrNextPublication('RUB', '2022-03-31')).toBeUndefined();
    // ISK suspended 2008-12-10 .. 2018-01-31: a 2010 quarter end is not answered with a 2018 rate
    expect(table.rateOnOrNextPublication('ISK', '2010-12-31')).toBeUndefined();
    // HRK after Croatia joined the euro; BGN after Bulgaria did
    expect(table.rateOnOrNextPublication('HRK', '2023-03-31')).toBeUndefined();
    expect(table.rateOnOrNextPublication('BGN', '2026-03-31')).toBeUndefined();
    expect(table.rateOn('BGN', '2025-12-31')?.decimal).toBe(raw.get('2025-12-31')?.get('BGN'));
    // never a 1 or a 0 for a real currency
    for (const c of table.currencies()) {
      const r = table.rateOnOrNextPublication(c, '2024-03-29');
      if (r) expect(r.rate.decimal === '1' || r.rate.mantissa === 0n).toBe(false);
    }
  });

  it('converts with the resolved rate', () => {
    const r = table.rateOnOrNextPublication('USD', '2024-03-29')!.rate as EcbRate;
    const { num, den } = refFraction(raw.get('2024-04-02')!.get('USD')!);
    expect(eurToCurrencyMinor(123456n, r, 2)).toBe(refRound(123456n * num * 100n, den * 100n));
  });
});
