import { describe, expect, it } from 'vitest';
import {
  CURRENCIES,
  currencyInfo,
  isCurrencyValidOn,
  isKnownCurrency,
  minorUnits,
  requireMinorUnits,
} from './currencies.ts';

/** Codes valid for new transactions on `date`, sorted. */
const currenciesValidOn = (date: string) => Object.keys(CURRENCIES).filter((c) => isCurrencyValidOn(c, date)).sort();

describe('ISO 4217 minor units', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['GBP', 2],
    ['HUF', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['ISK', 0],
    ['CLP', 0],
    ['VND', 0],
    ['XOF', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['JOD', 3],
    ['OMR', 3],
    ['TND', 3],
    ['IQD', 3],
    ['LYD', 3],
    ['CLF', 4],
    ['UYW', 4],
    ['HRK', 2],
    ['ITL', 0],
    ['TRL', 0],
  ] as const)('%s has %i minor units', (code, mu) => {
    expect(minorUnits(code)).toBe(mu);
    expect(requireMinorUnits(code)).toBe(mu);
  });

  it('reports N.A. and unknown codes as undefined, never a default', () => {
    expect(minorUnits('XAU')).toBeUndefined();
    expect(minorUnits('XDR')).toBeUndefined();
    expect(minorUnits('ABC')).toBeUndefined();
    expect(minorUnits('usd')).toBeUndefined();
    expect(() => requireMinorUnits('XAU')).toThrow(/N\.A\./);
    expect(() => requireMinorUnits('ABC')).toThrow(/unknown/);
  });

  it('does not treat Object.prototype keys as currencies', () => {
    expect(isKnownCurrency('constructor')).toBe(false);
    expect(minorUnits('toString')).toBeUndefined();
  });

  it('has well-formed entries', () => {
    for (const [code, info] of Object.entries(CURRENCIES)) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect(info.numeric).toMatch(/^\d{3}$/);
      expect(info.name.length).toBeGreaterThan(0);
      if (info.minorUnits !== null) expect([0, 2, 3, 4]).toContain(info.minorUnits);
      if (info.validFrom && info.validUntil) expect(info.validFrom < info.validUntil).toBe(true);
    }
    expect(Object.keys(CURRENCIES).length).toBeGreaterThan(190);
  });

  it('covers every currency in the ECB reference rate series', () => {
    const ecb =
      'USD,JPY,BGN,CYP,CZK,DKK,EEK,GBP,HUF,LTL,LVL,MTL,PLN,ROL,RON,SEK,SIT,SKK,CHF,ISK,NOK,HRK,RUB,TRL,TRY,AUD,BRL,CAD,CNY,HKD,IDR,ILS,INR,KRW,MXN,MYR,NZD,PHP,SGD,THB,ZAR'.split(
        ',',
      );
    for (const c of ecb) expect(currencyInfo(c), c).toBeDefined();
  });
});

describe('isCurrencyValidOn', () => {
  it('HRK is valid up to and including 2022-12-31', () => {
    expect(isCurrencyValidOn('HRK', '2022-12-31')).toBe(true);
    expect(isCurrencyValidOn('HRK', '2023-01-01')).toBe(false);
  });
  it('BGN is valid up to and including 2025-12-31', () => {
    expect(isCurrencyValidOn('BGN', '2025-12-31')).toBe(true);
    expect(isCurrencyValidOn('BGN', '2026-01-01')).toBe(false);
  });
  it('legacy euro-area currencies end with the transitional period', () => {
    expect(isCurrencyValidOn('DEM', '2001-12-31')).toBe(true);
    expect(isCurrencyValidOn('DEM', '2002-01-01')).toBe(false);
    expect(isCurrencyValidOn('SKK', '2008-12-31')).toBe(true);
    expect(isCurrencyValidOn('SKK', '2009-01-01')).toBe(false);
  });
  it('redenominations switch over on the right day', () => {
    expect(isCurrencyValidOn('ROL', '2005-06-30')).toBe(true);
    expect(isCurrencyValidOn('RON', '2005-06-30')).toBe(false);
    expect(isCurrencyValidOn('ROL', '2005-07-01')).toBe(false);
    expect(isCurrencyValidOn('RON', '2005-07-01')).toBe(true);
    expect(isCurrencyValidOn('TRL', '2005-01-01')).toBe(false);
    expect(isCurrencyValidOn('TRY', '2005-01-01')).toBe(true);
  });
  it('current codes are valid today-ish, unknown codes never', () => {
    expect(isCurrencyValidOn('USD', '2026-04-13')).toBe(true);
    expect(isCurrencyValidOn('EUR', '1999-01-04')).toBe(true);
    expect(isCurrencyValidOn('EUR', '1998-12-31')).toBe(false);
    expect(isCurrencyValidOn('XYZ', '2024-01-01')).toBe(false);
  });
  it('rejects malformed dates', () => {
    expect(() => isCurrencyValidOn('USD', '2024-02-30')).toThrow(RangeError);
    expect(() => isCurrencyValidOn('USD', '20240101')).toThrow(RangeError);
  });
  it('currenciesValidOn lists HRK before the changeover and not after', () => {
    expect(currenciesValidOn('2022-06-01')).toContain('HRK');
    expect(currenciesValidOn('2023-06-01')).not.toContain('HRK');
    expect(currenciesValidOn('2023-06-01')).toContain('EUR');
  });
});
