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

/**
 * One candidate's contribution to a year's timeline while it is in one state: for the ledger prefixes k with
 * `from` ≤ k < `to` (a correction that precedes its original is unresolved in its own year until the prefix
 * that holds the original, then linked in the original's year). `counts`: part of the cumulative (counted, or an
 * unresolved negative amount, pessimistically); `establishment` and `positive` decide the sole establishment.
 */
export type PrefixContribution = { event: TimelineEvent; from: bigint; to?: bigint; counts: boolean; positive: boolean; establishment: string | null };

export type PrefixMark = { prefix: bigint; establishment: string; threshold: { amountMinor: bigint; currency: string }; mark: Mark };

type Position = Pick<TimelineEvent, 'occurredAt' | 'sequence'>;

/**
 * The marks of a year along the ledger prefixes `steps` (ascending): at each, the first event of the prefix's
 * timeline that reaches the warning band (only until one is known) and every crossing earlier than the earliest
 * known (each prefix can prove one). The answer depends on the ledger order only, never on how the events were
 * batched or delivered. `contributions` need only cover the positions before `known.crossing` once the warning is known.
 */
export function marksAlongPrefixes(
  contributions: PrefixContribution[],
  steps: readonly bigint[],
  thresholdOf: (establishment: string) => { amountMinor: bigint; currency: string } | undefined,
  known: { warning: boolean; crossing?: Position },
): { warning?: PrefixMark; crossings: PrefixMark[] } {
  const ordered = [...contributions].sort((a, b) => byTaxPointThenSequence(a.event, b.event));
  let warningKnown = known.warning;
  let earliest = known.crossing;
  const out: { warning?: PrefixMark; crossings: PrefixMark[] } = { crossings: [] };
  for (const k of steps) {
    const active = ordered.filter((c) => c.from <= k && (c.to === undefined || k < c.to));
    const establishments = new Set(active.flatMap((c) => (c.positive && c.establishment !== null ? [c.establishment] : [])));
    if (establishments.size !== 1) continue;
    const establishment = [...establishments][0]!;
    const threshold = thresholdOf(establishment);
    if (!threshold) continue;
    let cumulative = 0n;
    for (const c of active) {
      if (warningKnown && earliest && byTaxPointThenSequence(c.event, earliest) >= 0) break;
      if (!c.counts) continue;
      cumulative += c.event.amountMinor;
      const mark = { prefix: k, establishment, threshold, mark: { event: c.event, cumulativeMinor: cumulative } };
      if (!warningKnown && cumulative * 100n >= threshold.amountMinor * WARNING_BAND_PERCENT) {
        out.warning = mark;
        warningKnown = true;
      }
      if (cumulative > threshold.amountMinor) {
        if (!earliest || byTaxPointThenSequence(c.event, earliest) < 0) {
          out.crossings.push(mark);
          earliest = c.event;
        }
        break;
      }
    }
  }
  return out;
}
