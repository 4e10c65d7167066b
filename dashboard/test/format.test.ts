import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBps, formatMinor, shiftQuarter } from '../src/format';

/** The digits of a formatted amount, sign first: what must equal the API's integer exactly. */
const digitsOf = (text: string) => `${/[-\u2212]/.test(text) ? '-' : ''}${text.replace(/\D/g, '')}`;

describe('money and rates as the dashboard shows them', () => {
  it('uses the locale separators and the currency scale (hand-checked figures)', () => {
    expect(formatMinor(173456, 'EUR', 'de-DE')).toBe('1.734,56\u00a0€');
    expect(formatMinor(-1000, 'EUR', 'de-DE')).toBe('-10,00\u00a0€');
    expect(formatMinor(34691, 'EUR', 'en-IE')).toBe('€346.91');
    expect(formatMinor(-50, 'EUR', 'de-DE')).toBe('-0,50\u00a0€');
    expect(formatMinor(5, 'EUR', 'fr-FR')).toBe('0,05\u00a0€');
    expect(formatMinor(123456789, 'HUF', 'hu-HU')).toBe('1\u00a0234\u00a0567,89\u00a0Ft');
    expect(formatMinor(1234, 'JPY', 'ja-JP')).toBe('￥1,234');
  });

  it('never rounds: the digits shown are the integer the API sent, for any amount and locale', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.constantFrom('de-DE', 'en-IE', 'fr-FR', 'pl-PL', 'sv-SE', 'it-IT'), (minor, locale) => {
        const shown = digitsOf(formatMinor(minor, 'EUR', locale));
        const expected = `${minor < 0n ? '-' : ''}${(minor < 0n ? -minor : minor).toString().padStart(3, '0')}`;
        expect(shown).toBe(expected);
      }),
    );
  });

  it('shows basis points as an exact percentage', () => {
    expect(formatBps(2000)).toBe('20 %');
    expect(formatBps(550)).toBe('5.5 %');
    expect(formatBps(210)).toBe('2.1 %');
    expect(formatBps(1725)).toBe('17.25 %');
    expect(formatBps(0)).toBe('0 %');
  });

  it('moves between quarters across years', () => {
    expect(shiftQuarter('2026-Q1', -1)).toBe('2025-Q4');
    expect(shiftQuarter('2025-Q4', 1)).toBe('2026-Q1');
    expect(shiftQuarter('2026-Q3', 0)).toBe('2026-Q3');
  });
});
