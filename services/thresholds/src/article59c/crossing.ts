import { WARNING_BAND_PERCENT } from './policy';

/** One authenticated event's contribution to its statutory year, in the ledger's facts. */
export type TimelineEvent = { eventId: string; sequence: bigint; occurredAt: string; recordedAt: string; amountMinor: bigint };

export type Mark = { event: TimelineEvent; cumulativeMinor: bigint };

/** ISO timestamps compare as text only at equal precision; the ledger stores them all as UTC RFC 3339 with ms. */
export function byTaxPointThenSequence(a: Pick<TimelineEvent, 'occurredAt' | 'sequence'>, b: Pick<TimelineEvent, 'occurredAt' | 'sequence'>): number {
  const ta = Date.parse(a.occurredAt);
  const tb = Date.parse(b.occurredAt);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0;
}

/**
 * Walks a year's contributions in tax-point order, then ledger sequence: the first event whose cumulative
 * amount reaches the warning band (≥ 90 % of the threshold) and the first that moves it above the threshold.
 */
export function firstMarks(events: TimelineEvent[], thresholdMinor: bigint): { warning?: Mark; crossing?: Mark } {
  const ordered = [...events].sort(byTaxPointThenSequence);
  let cumulative = 0n;
  let warning: Mark | undefined;
  for (const event of ordered) {
    cumulative += event.amountMinor;
    if (!warning && cumulative * 100n >= thresholdMinor * WARNING_BAND_PERCENT) warning = { event, cumulativeMinor: cumulative };
    if (cumulative > thresholdMinor) return { warning: warning ?? { event, cumulativeMinor: cumulative }, crossing: { event, cumulativeMinor: cumulative } };
  }
  return { warning };
}
