/**
 * Effective-dated national currency of each EU Member State.
 *
 * Country codes follow the EU/VIES convention used by the SME endpoint:
 * ISO 3166-1 alpha-2, except Greece which is `EL` (never `GR`).
 *
 * Windows are half-open: `from` is inclusive, `to` is exclusive (null = open).
 * Coverage starts 1999-01-01 (euro launch); for Bulgaria it starts with the
 * redenominated lev (BGN, 1999-07-05) and for Romania with the new leu (RON,
 * 2005-07-01). Before the first window `nationalCurrencyOn` returns undefined.
 * The endpoint only needs 2019-01-01 onward; earlier windows are kept so that
 * the table is internally consistent.
 */

interface CurrencyWindow {
  readonly currency: string;
  /** inclusive, YYYY-MM-DD */
  readonly from: string;
  /** exclusive, YYYY-MM-DD, null = still in force */
  readonly to: string | null;
}

const EURO_1999 = '1999-01-01';

function euroSince(date: string, previous?: { currency: string; from: string }): CurrencyWindow[] {
  const windows: CurrencyWindow[] = [];
  if (previous) windows.push({ currency: previous.currency, from: previous.from, to: date });
  windows.push({ currency: 'EUR', from: date, to: null });
  return windows;
}

function national(currency: string, from = EURO_1999): CurrencyWindow[] {
  return [{ currency, from, to: null }];
}

/** Member State code (EL for Greece) -> ordered, non-overlapping currency windows. */
export const NATIONAL_CURRENCY_WINDOWS: Readonly<Record<string, readonly CurrencyWindow[]>> = Object.freeze({
  AT: euroSince(EURO_1999),
  BE: euroSince(EURO_1999),
  // Lev redenominated (BGL -> BGN) on 1999-07-05; euro adopted 2026-01-01.
  BG: euroSince('2026-01-01', { currency: 'BGN', from: '1999-07-05' }),
  CY: euroSince('2008-01-01', { currency: 'CYP', from: EURO_1999 }),
  CZ: national('CZK'),
  DE: euroSince(EURO_1999),
  DK: national('DKK'),
  EE: euroSince('2011-01-01', { currency: 'EEK', from: EURO_1999 }),
  EL: euroSince('2001-01-01', { currency: 'GRD', from: EURO_1999 }),
  ES: euroSince(EURO_1999),
  FI: euroSince(EURO_1999),
  FR: euroSince(EURO_1999),
  // Kuna until 2022-12-31, euro from 2023-01-01.
  HR: euroSince('2023-01-01', { currency: 'HRK', from: EURO_1999 }),
  HU: national('HUF'),
  IE: euroSince(EURO_1999),
  IT: euroSince(EURO_1999),
  LT: euroSince('2015-01-01', { currency: 'LTL', from: EURO_1999 }),
  LU: euroSince(EURO_1999),
  LV: euroSince('2014-01-01', { currency: 'LVL', from: EURO_1999 }),
  MT: euroSince('2008-01-01', { currency: 'MTL', from: EURO_1999 }),
  NL: euroSince(EURO_1999),
  PL: national('PLN'),
  PT: euroSince(EURO_1999),
  // New leu (RON) since the 2005-07-01 redenomination.
  RO: national('RON', '2005-07-01'),
  SE: national('SEK'),
  SI: euroSince('2007-01-01', { currency: 'SIT', from: EURO_1999 }),
  SK: euroSince('2009-01-01', { currency: 'SKK', from: EURO_1999 }),
});

/** The 27 Member State codes in this endpoint's convention (EL, not GR). */
export const MEMBER_STATES: readonly string[] = Object.freeze(Object.keys(NATIONAL_CURRENCY_WINDOWS).sort());

const MEMBER_STATE_SET: ReadonlySet<string> = new Set(MEMBER_STATES);

export function isMemberState(code: string): boolean {
  return MEMBER_STATE_SET.has(code);
}

/** Every currency code that is some Member State's national currency in some covered period. */
export const KNOWN_NATIONAL_CURRENCIES: ReadonlySet<string> = new Set(
  Object.values(NATIONAL_CURRENCY_WINDOWS).flatMap((ws) => ws.map((w) => w.currency)),
);

/**
 * ISO 4217 minor units of the currencies above. All are 2 (HUF included: ISO 4217
 * lists 2 minor units for HUF even though fillér coins are no longer used).
 */
const MINOR_UNITS: Readonly<Record<string, number>> = Object.freeze({
  EUR: 2, BGN: 2, HRK: 2, CZK: 2, DKK: 2, HUF: 2, PLN: 2, RON: 2, SEK: 2,
  CYP: 2, EEK: 2, GRD: 2, LTL: 2, LVL: 2, MTL: 2, SIT: 2, SKK: 2,
});

export function minorUnitsOf(currency: string): number | undefined {
  return Object.hasOwn(MINOR_UNITS, currency) ? MINOR_UNITS[currency] : undefined;
}

/** National currency of `country` (EL convention) on `date` (YYYY-MM-DD), or undefined if unknown. */
export function nationalCurrencyOn(country: string, date: string): string | undefined {
  if (!Object.hasOwn(NATIONAL_CURRENCY_WINDOWS, country)) return undefined;
  const windows = NATIONAL_CURRENCY_WINDOWS[country] ?? [];
  for (const w of windows) {
    if (date >= w.from && (w.to === null || date < w.to)) return w.currency;
  }
  return undefined;
}

/** All currency windows of a country (empty array for unknown codes). */
function currencyWindowsOf(country: string): readonly CurrencyWindow[] {
  return Object.hasOwn(NATIONAL_CURRENCY_WINDOWS, country) ? (NATIONAL_CURRENCY_WINDOWS[country] ?? []) : [];
}

/**
 * Currency changes strictly inside [from, to) for a country: returns the list of
 * currencies in force at some day of the window, in order.
 */
export function currenciesDuring(country: string, from: string, to: string | null): string[] {
  const out: string[] = [];
  for (const w of currencyWindowsOf(country)) {
    const overlaps = (to === null || w.from < to) && (w.to === null || w.to > from);
    if (overlaps) out.push(w.currency);
  }
  return out;
}
