import { classifyCandidate, type ProfileDefaults } from './classify';
import { withConversion, type Converted } from './conversion';
import { bucketKeyOf } from './facts';
import type { StoredCrossing } from './status';
import type { Bucket } from './summarize';

/** One tax-point day whose counted amount changed the year's total. */
export type SeriesPoint = { date: string; dayMinor: bigint; cumulativeMinor: bigint; eventCount: bigint };

/** The cumulative counted amount of one establishment State's threshold, by day, and its crossing. */
export type Series = { establishmentCountry: string; currency: string; currencyScale: number; thresholdMinor: bigint; points: SeriesPoint[]; crossing?: StoredCrossing };

type Threshold = (country: string) => { currency: string; amountMinor: bigint; scale: number } | undefined;

/** The buckets of one fact combination summed over their days (amounts, counts, converted amounts). */
function sumOf(days: Bucket[]): { netMinor: bigint; eventCount: bigint; converted: Converted } {
  const converted: Converted = new Map();
  let netMinor = 0n;
  let eventCount = 0n;
  for (const d of days) {
    netMinor += d.netMinor;
    eventCount += d.eventCount;
    for (const [currency, c] of d.converted ?? []) {
      const t = converted.get(currency) ?? converted.set(currency, { net: 0n, count: 0n }).get(currency)!;
      t.net += c.net;
      t.count += c.count;
    }
  }
  return { netMinor, eventCount, converted };
}

/**
 * The year's cumulative counted amount by tax-point day, one series per establishment State. Each fact
 * combination is classified once over all its days up to the cutoff, exactly as the status classifies it (an
 * amount in another currency counts only when every event of the combination was converted), then each of its
 * days adds its own amount: the last point of a series is the status's `current_minor` for that State. Days
 * whose counted amounts cancel out are left out. `crossing` (the year's stored crossing) goes with its State.
 */
export function cumulativeSeries(
  year: number,
  buckets: readonly Bucket[],
  defaultsFor: (sourceId: string | null) => ProfileDefaults | undefined,
  threshold: Threshold,
  crossing?: StoredCrossing,
): Series[] {
  const combinations = new Map<string, Bucket[]>();
  for (const b of buckets) {
    if (b.facts.year !== year) continue;
    const key = bucketKeyOf(b.facts, '');
    combinations.set(key, [...(combinations.get(key) ?? []), b]);
  }
  const byState = new Map<string, Map<string, { net: bigint; count: bigint }>>();
  for (const days of combinations.values()) {
    const facts = days[0]!.facts;
    const total = sumOf(days);
    const { c } = withConversion(classifyCandidate(facts, defaultsFor(facts.sourceId), threshold), total.netMinor, total.eventCount, total.converted, threshold);
    if (c.disposition !== 'counted') continue;
    const t = threshold(c.establishment!)!;
    const converted = c.evidenceQuality === 'converted_at_ecb_rate';
    const perDay = byState.get(c.establishment!) ?? byState.set(c.establishment!, new Map()).get(c.establishment!)!;
    for (const d of days) {
      const amount = converted ? (d.converted?.get(t.currency)?.net ?? 0n) : d.netMinor;
      const p = perDay.get(d.occurredOn) ?? perDay.set(d.occurredOn, { net: 0n, count: 0n }).get(d.occurredOn)!;
      p.net += amount;
      p.count += d.eventCount;
    }
  }
  if (crossing && !byState.has(crossing.establishmentCountry)) byState.set(crossing.establishmentCountry, new Map());
  return [...byState.keys()].sort().map((country) => {
    const t = threshold(country) ?? { currency: crossing!.currency, amountMinor: crossing!.thresholdMinor, scale: 2 };
    let cumulative = 0n;
    const points = [...byState.get(country)!.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .filter(([, p]) => p.net !== 0n)
      .map(([date, p]) => ({ date, dayMinor: p.net, cumulativeMinor: (cumulative += p.net), eventCount: p.count }));
    return {
      establishmentCountry: country,
      currency: t.currency,
      currencyScale: t.scale,
      thresholdMinor: t.amountMinor,
      points,
      ...(crossing?.establishmentCountry === country ? { crossing } : {}),
    };
  });
}
