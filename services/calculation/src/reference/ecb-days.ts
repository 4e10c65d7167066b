/**
 * ECB rates in the form the calculation service stores them: one publication day per row, mapping each currency
 * quoted that day to its rate per 1 EUR in canonical decimal form. Pure functions: grouping parsed observations,
 * and working out what an import changes.
 */
import { canonicalRateDecimal, isIsoDate, type EcbPublicationDay } from '@vat/platform/fx';
import type { EcbObservation } from '@vat/seeds/ecb';

export type EcbDay = EcbPublicationDay & { readonly rates: Record<string, string> };

const CURRENCY_RE = /^[A-Z]{3}$/;

/**
 * Groups observations by publication day (oldest first) with canonical rates. Everything is validated before
 * anything is returned; the same rate given twice collapses ("1.10" = "1.1"), two different rates throw.
 */
export function ecbDaysOf(obs: Iterable<EcbObservation>): EcbDay[] {
  const days = new Map<string, Record<string, string>>();
  const currencies = new Set<string>();
  let n = 0;
  for (const o of obs) {
    n++;
    let rates = o && days.get(o.date);
    if (!rates) {
      if (!o || typeof o.date !== 'string' || !isIsoDate(o.date)) throw invalid(n, o, 'invalid date');
      days.set(o.date, (rates = {}));
    }
    if (!currencies.has(o.currency)) {
      if (typeof o.currency !== 'string' || !CURRENCY_RE.test(o.currency) || o.currency === 'EUR') throw invalid(n, o, 'invalid currency code');
      currencies.add(o.currency);
    }
    const rate = typeof o.rate === 'string' && CANONICAL_RE.test(o.rate) ? o.rate : canonical(n, o);
    const prev = rates[o.currency];
    if (prev !== undefined && prev !== rate) throw invalid(n, o, `conflicting rates ${prev} and ${o.rate}`);
    rates[o.currency] = rate;
  }
  return [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, rates]) => ({ date, rates }));
}

/** Already canonical: no leading zero before other digits, no trailing zero after the point, not zero. */
const CANONICAL_RE = /^(?:[1-9]\d*(?:\.\d*[1-9])?|0\.\d*[1-9])$/;

function canonical(n: number, o: EcbObservation): string {
  try {
    return canonicalRateDecimal(o.rate);
  } catch {
    throw invalid(n, o, `invalid rate ${JSON.stringify(o.rate)}`);
  }
}

function invalid(n: number, o: EcbObservation | undefined, problem: string): RangeError {
  return new RangeError(`observation ${n} (${o?.currency} ${o?.date}): ${problem}`);
}

/** Days to write and what happens to each imported rate. */
type EcbImportPlan = { changed: EcbDay[]; inserted: number; updated: number; unchanged: number };

/**
 * What storing `incoming` over the `stored` days changes. A changed day keeps its stored rates for currencies
 * the import does not mention; an imported rate adds a currency (inserted) or replaces a different stored rate
 * (an ECB correction: updated).
 */
export function planEcbImport(stored: ReadonlyMap<string, Readonly<Record<string, string>>>, incoming: readonly EcbDay[]): EcbImportPlan {
  const plan: EcbImportPlan = { changed: [], inserted: 0, updated: 0, unchanged: 0 };
  for (const day of incoming) {
    const before = stored.get(day.date) ?? {};
    let changes = 0;
    for (const [currency, rate] of Object.entries(day.rates)) {
      const old = before[currency];
      if (old === undefined) plan.inserted++;
      else if (canonicalRateDecimal(old) !== rate) plan.updated++;
      else {
        plan.unchanged++;
        continue;
      }
      changes++;
    }
    if (changes > 0) plan.changed.push({ date: day.date, rates: { ...before, ...day.rates } });
  }
  return plan;
}
