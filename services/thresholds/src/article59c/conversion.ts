import { requireMinorUnits } from '@vat/platform/currencies';
import { convertMinor, ecbRate, EUR, type EcbRate, type RateOrEur } from '@vat/platform/fx';
import type { Classification, ThresholdLookup } from './classify';

/**
 * The ECB euro reference rates last published at an event's tax point, as the ledger attached them at
 * commit (Art. 91(2) of Directive 2006/112/EC): units of each currency per 1 EUR, as published.
 */
export type RateEvidence = { rateDate: string; ratesPerEur: Readonly<Record<string, string>> };

/** Converted amounts of events into a currency, and how many events they cover. */
export type Converted = Map<string, { net: bigint; count: bigint }>;

/**
 * Validated rates by day, currency and decimal text: a projected batch converts thousands of events at the few
 * rates of its days, each parsed once (an EcbRate is frozen, so it is shared). Emptied when it reaches
 * RATE_CACHE_MAX (about four years of days of the threshold currencies).
 */
const rates = new Map<string, EcbRate>();
const RATE_CACHE_MAX = 10_000;

function cachedRate(currency: string, date: string, decimal: string): EcbRate {
  const key = `${date} ${currency} ${decimal}`;
  let rate = rates.get(key);
  if (rate === undefined) {
    rate = ecbRate(currency, date, decimal);
    if (rates.size >= RATE_CACHE_MAX) rates.clear();
    rates.set(key, rate);
  }
  return rate;
}

const rateOf = (e: RateEvidence, currency: string): RateOrEur | undefined =>
  currency === EUR ? EUR : e.ratesPerEur[currency] === undefined ? undefined : cachedRate(currency, e.rateDate, e.ratesPerEur[currency]!);

/**
 * One event's net amount in each of `targets` (the release's threshold currencies other than its own), at the
 * evidence's rates (a cross rate through the euro for two non-euro currencies), rounded once, half away from
 * zero. A target without a rate that day (or an event without evidence) is absent: it stays unconverted.
 */
export function convertEvent(netMinor: bigint, currency: string, evidence: RateEvidence | null, targets: readonly string[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (evidence === null) return out;
  const from = rateOf(evidence, currency);
  if (from === undefined) return out;
  for (const t of targets) {
    if (t === currency) continue;
    const to = rateOf(evidence, t);
    if (to !== undefined) out.set(t, convertMinor(netMinor, from, to, requireMinorUnits(currency), requireMinorUnits(t)));
  }
  return out;
}

/** The distinct statutory currencies of a release's thresholds: what each event is converted into. */
export const thresholdCurrencies = (thresholds: Iterable<{ currency: string }>): string[] => [...new Set([...thresholds].map((t) => t.currency))].sort();

/**
 * A candidate in another currency than its threshold's is counted at its converted amount when every one of
 * its events has a rate (`converted` covers `count` events in the threshold currency); otherwise it stays
 * `currency_not_threshold_currency` (unresolved, blocking). Answers the classification and the counted amount.
 */
export function withConversion(c: Classification, netMinor: bigint, count: bigint, converted: Converted | undefined, threshold: ThresholdLookup): { c: Classification; amount: bigint } {
  if (c.reason !== 'currency_not_threshold_currency' || c.establishment === null) return { c, amount: netMinor };
  const t = threshold(c.establishment);
  const conv = t === undefined ? undefined : converted?.get(t.currency);
  if (conv === undefined || conv.count !== count) return { c, amount: netMinor };
  return { c: { ...c, reason: 'counted', disposition: 'counted', evidenceQuality: 'converted_at_ecb_rate', materiality: 'immaterial' }, amount: conv.net };
}
