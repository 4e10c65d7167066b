import { classifyCandidate, type CandidateFacts, type ProfileDefaults, type ThresholdLookup } from './classify';
import { withConversion, type Converted } from './conversion';

/** Events sharing every classification fact and the same tax-point day (the running totals' grain). */
export type Bucket = {
  facts: CandidateFacts;
  occurredOn: string;
  eventCount: bigint;
  netMinor: bigint;
  maxRecordedAt: string;
  /** The events' amounts converted into other threshold currencies at their ECB rate evidence (per event, rounded per event). */
  converted?: Converted;
};

export type CoverageRow = { reason: string; disposition: string; evidenceQuality: string; materiality: string; currency: string; eventCount: bigint; netMinor: bigint };

/** One calendar year of candidates, as of a cutoff day. */
export type YearSummary = {
  year: number;
  candidateCount: bigint;
  excludedCount: bigint;
  blockingCount: bigint;
  countedCount: bigint;
  /** Net counted amount, per establishment State. */
  countedByEstablishment: Map<string, bigint>;
  /** Every establishment State the candidates state or default to (several = conflicting sole-establishment evidence). */
  establishments: Set<string>;
  unconvertedCurrencies: Set<string>;
  coverage: CoverageRow[];
  /** The latest recorded time among the events used. */
  cutoffAt: string | null;
  defaultApplied: boolean;
};

/** Sums the buckets of `year` whose tax-point day is on or before `cutoffDay` (YYYY-MM-DD). */
export function summarizeYear(
  year: number,
  buckets: Bucket[],
  defaultsFor: (sourceId: string | null) => ProfileDefaults | undefined,
  threshold: ThresholdLookup,
  cutoffDay: string,
): YearSummary {
  const s: YearSummary = {
    year,
    candidateCount: 0n,
    excludedCount: 0n,
    blockingCount: 0n,
    countedCount: 0n,
    countedByEstablishment: new Map(),
    establishments: new Set(),
    unconvertedCurrencies: new Set(),
    coverage: [],
    cutoffAt: null,
    defaultApplied: false,
  };
  const groups = new Map<string, CoverageRow>();
  for (const b of buckets) {
    if (b.facts.year !== year || b.occurredOn > cutoffDay) continue;
    const { c, amount } = withConversion(classifyCandidate(b.facts, defaultsFor(b.facts.sourceId), threshold), b.netMinor, b.eventCount, b.converted, threshold);
    s.candidateCount += b.eventCount;
    if (c.disposition === 'excluded') s.excludedCount += b.eventCount;
    if (c.disposition === 'unresolved') s.blockingCount += b.eventCount;
    if (c.reason === 'currency_not_threshold_currency') s.unconvertedCurrencies.add(b.facts.currency);
    if (c.establishment !== null) s.establishments.add(c.establishment);
    if (c.disposition === 'counted') {
      s.countedCount += b.eventCount;
      s.countedByEstablishment.set(c.establishment!, (s.countedByEstablishment.get(c.establishment!) ?? 0n) + amount);
      if (c.defaultApplied) s.defaultApplied = true;
    }
    if (s.cutoffAt === null || b.maxRecordedAt > s.cutoffAt) s.cutoffAt = b.maxRecordedAt;
    const key = [c.reason, c.disposition, c.evidenceQuality, c.materiality, b.facts.currency].join('|');
    const g = groups.get(key) ?? { reason: c.reason, disposition: c.disposition, evidenceQuality: c.evidenceQuality, materiality: c.materiality, currency: b.facts.currency, eventCount: 0n, netMinor: 0n };
    g.eventCount += b.eventCount;
    g.netMinor += b.netMinor;
    groups.set(key, g);
  }
  // A group whose events all moved to another running total (reclassified, or VIES evidence arrived) is not listed.
  s.coverage = [...groups.values()].filter((g) => g.eventCount !== 0n || g.netMinor !== 0n).sort((a, b) => (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : a.evidenceQuality < b.evidenceQuality ? -1 : 1));
  return s;
}
