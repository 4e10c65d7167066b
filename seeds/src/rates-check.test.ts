/**
 * Pins what each Member State's rate data serves on the date of the last rates check
 * (seeds/RATES-CHECK-2026-11-24.md) to the checked list in
 * seeds/rates-check/checked-2026-11-24.json.
 *
 * A data edit that changes the set of distinct rates a country serves on that date
 * fails here until the check is redone for that country: compare with the country's
 * published list again, update the fixture (served_bps, published_bps, explained,
 * sources) and the check file.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import { loadVatRates, type VatRateSeed } from './vat-rates.ts';

interface CheckedCountry {
  served_bps: number[];
  published_bps: number[];
  explained: Record<string, string>;
  sources: { url: string; title: string; kind: 'official' | 'best_available' }[];
}
interface CheckedList {
  schema: 'rates-check/v1';
  checked_on: string;
  definition: string;
  countries: Record<string, CheckedCountry>;
}

const FIXTURE = fileURLToPath(new URL('../rates-check/checked-2026-11-24.json', import.meta.url));
const checked = JSON.parse(readFileSync(FIXTURE, 'utf8')) as CheckedList;
const rates = loadVatRates();

/** Distinct rate_bps of the non-exempt windows in force on `date` (what GET /v1/vat/rates?country=XX&at=date lists). */
function servedRatesOn(seed: VatRateSeed, date: string): number[] {
  const inForce = seed.rates.filter(
    (r) => r.rate_type !== 'exempt' && r.valid_from <= date && (r.valid_to === null || date < r.valid_to),
  );
  return [...new Set(inForce.map((r) => r.rate_bps))].sort((a, b) => b - a);
}

const sortDesc = (xs: number[]) => [...xs].sort((a, b) => b - a);

describe(`rates check of ${checked.checked_on}`, () => {
  it('covers exactly the 27 Member States', () => {
    expect(Object.keys(checked.countries).sort()).toEqual([...EU_MEMBER_STATES].sort());
    expect(checked.schema).toBe('rates-check/v1');
    expect(checked.checked_on).toBe('2026-11-24');
  });

  it.each([...EU_MEMBER_STATES])('%s serves the checked set of rates on the check date', (cc) => {
    const seed = rates.find((s) => s.country === cc);
    expect(seed, cc).toBeDefined();
    const entry = checked.countries[cc]!;
    expect(
      servedRatesOn(seed!, checked.checked_on),
      `${cc}: the rates served on ${checked.checked_on} changed; redo the check for ${cc} (seeds/RATES-CHECK-2026-11-24.md) and update seeds/rates-check/checked-2026-11-24.json`,
    ).toEqual(sortDesc(entry.served_bps));
  });

  it.each([...EU_MEMBER_STATES])('%s: every difference from the published list is explained and sourced', (cc) => {
    const entry = checked.countries[cc]!;
    const served = new Set(entry.served_bps);
    const published = new Set(entry.published_bps);
    const diff = [...served, ...published].filter((b) => served.has(b) !== published.has(b));
    expect(Object.keys(entry.explained).map(Number).sort((a, b) => a - b), cc).toEqual([...new Set(diff)].sort((a, b) => a - b));
    for (const text of Object.values(entry.explained)) expect(text.length, cc).toBeGreaterThan(20);
    expect(entry.sources.length, cc).toBeGreaterThan(0);
    for (const s of entry.sources) {
      expect(s.url, cc).toMatch(/^https?:\/\//);
      expect(s.title.length, cc).toBeGreaterThan(10);
      expect(['official', 'best_available'], cc).toContain(s.kind);
    }
    for (const b of [...entry.served_bps, ...entry.published_bps]) expect(Number.isInteger(b) && b >= 0 && b < 10000, cc).toBe(true);
  });
});
