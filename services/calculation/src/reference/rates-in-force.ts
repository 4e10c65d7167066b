import type { RateSnapshot } from './rate-store';

type Span = { country: string; region?: string; rateBps: number; rateType: string; validFrom: string; validTo: string | null };

const endOf = (d: string | null) => d ?? '9999-12-31';

/** Joins overlapping or adjacent spans of the same (country, region, rate, type) into one. */
function merged(spans: Span[]): Span[] {
  const key = (s: Span) => `${s.country}|${s.region ?? ''}|${s.rateType}|${String(s.rateBps).padStart(5, '0')}`;
  const sorted = [...spans].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0));
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && key(last) === key(s) && endOf(last.validTo) >= s.validFrom) {
      if (endOf(s.validTo) > endOf(last.validTo)) last.validTo = s.validTo;
    } else out.push({ ...s });
  }
  return out;
}

/** The rates in force in `countries`, over every class (conditional windows too) plus the regional windows. */
export function ratesInForce(snap: RateSnapshot, countries: ReadonlySet<string>): Span[] {
  const general = snap.windows.filter((w) => countries.has(w.country)).map((w) => ({ country: w.country, rateBps: w.rateBps, rateType: w.rateType, validFrom: w.validFrom, validTo: w.validTo }));
  const regional = snap.regional.filter((w) => countries.has(w.country)).map((w) => ({ country: w.country, region: w.region, rateBps: w.rateBps, rateType: w.rateType, validFrom: w.validFrom, validTo: w.validTo }));
  return merged([...general, ...regional]);
}

