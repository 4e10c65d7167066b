import { describe, expect, it } from 'vitest';
import {
  KNOWN_NATIONAL_CURRENCIES,
  MEMBER_STATES,
  NATIONAL_CURRENCY_WINDOWS,
  currenciesDuring,
  isMemberState,
  minorUnitsOf,
  nationalCurrencyOn,
} from './national-currency.ts';

describe('national currency table', () => {
  it('has the 27 Member States in the EL convention', () => {
    expect(MEMBER_STATES).toHaveLength(27);
    expect(MEMBER_STATES).toEqual(
      ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'],
    );
    expect(isMemberState('EL')).toBe(true);
    expect(isMemberState('GR')).toBe(false);
    expect(nationalCurrencyOn('GR', '2024-01-01')).toBeUndefined();
    expect(nationalCurrencyOn('XX', '2024-01-01')).toBeUndefined();
    expect(nationalCurrencyOn('constructor', '2024-01-01')).toBeUndefined();
  });

  it('Bulgaria: BGN through 2025-12-31, EUR from 2026-01-01', () => {
    expect(nationalCurrencyOn('BG', '2019-01-01')).toBe('BGN');
    expect(nationalCurrencyOn('BG', '2025-12-31')).toBe('BGN');
    expect(nationalCurrencyOn('BG', '2026-01-01')).toBe('EUR');
  });

  it('Croatia: HRK through 2022-12-31, EUR from 2023-01-01', () => {
    expect(nationalCurrencyOn('HR', '2019-01-01')).toBe('HRK');
    expect(nationalCurrencyOn('HR', '2022-12-31')).toBe('HRK');
    expect(nationalCurrencyOn('HR', '2023-01-01')).toBe('EUR');
  });

  it('non-euro states and euro states from 2019 onward', () => {
    const nonEuro: Record<string, string> = { CZ: 'CZK', DK: 'DKK', HU: 'HUF', PL: 'PLN', RO: 'RON', SE: 'SEK' };
    for (const ms of MEMBER_STATES) {
      for (const d of ['2019-01-01', '2022-06-30', '2026-11-22']) {
        const expected = nonEuro[ms] ?? (ms === 'BG' && d < '2026-01-01' ? 'BGN' : ms === 'HR' && d < '2023-01-01' ? 'HRK' : 'EUR');
        expect(nationalCurrencyOn(ms, d), `${ms} ${d}`).toBe(expected);
      }
    }
  });

  it('windows are contiguous and non-overlapping', () => {
    for (const [ms, ws] of Object.entries(NATIONAL_CURRENCY_WINDOWS)) {
      for (let i = 1; i < ws.length; i++) expect(ws[i - 1]!.to, ms).toBe(ws[i]!.from);
      expect(ws[ws.length - 1]!.to, ms).toBeNull();
    }
  });

  it('known currencies and minor units', () => {
    for (const c of ['EUR', 'BGN', 'HRK', 'CZK', 'DKK', 'HUF', 'PLN', 'RON', 'SEK']) {
      expect(KNOWN_NATIONAL_CURRENCIES.has(c)).toBe(true);
      expect(minorUnitsOf(c)).toBe(2);
    }
    for (const c of KNOWN_NATIONAL_CURRENCIES) expect(minorUnitsOf(c), c).toBe(2);
    expect(KNOWN_NATIONAL_CURRENCIES.has('USD')).toBe(false);
    expect(minorUnitsOf('USD')).toBeUndefined();
  });

  it('currenciesDuring reports changes inside a window', () => {
    expect(currenciesDuring('BG', '2023-01-01', '2026-01-01')).toEqual(['BGN']);
    expect(currenciesDuring('BG', '2023-01-01', null)).toEqual(['BGN', 'EUR']);
    expect(currenciesDuring('HR', '2022-01-01', '2023-01-02')).toEqual(['HRK', 'EUR']);
  });
});
