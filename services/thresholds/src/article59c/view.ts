import type { Principal } from '@vat/platform/principal';
import { principalHeaders } from '@vat/platform/principal';
import type { ThresholdsDeps } from '../context';
import type { ProfileDefaults } from './classify';
import { byTaxPointThenSequence } from './crossing';
import { thresholdStatus, type StoredCrossing, type ThresholdStatusView } from './status';
import { summarizeYear, type Bucket } from './summarize';

/**
 * The account's Article 59c view as of the end of `cutoffDay` (UTC): the running totals of the cutoff year and
 * the one before, source-profile defaults for facts an event lacks, the stored crossings and the ledger
 * position. Reads a bounded set of rows; never the year's events (and, while the account's position has not
 * moved, only the position: repositories/status-snapshots.ts).
 *
 * The defaults are thresholds' own projection of calculation's profiles (`SourceProfileChanged`), so the
 * status asks only the ledger. A profile write answers once its event is on the bus: in one process, applied
 * here by then. With JetStream it may be a moment behind, and nothing here can tell (only calculation knows
 * its profiles' revisions): until it is applied the view uses the previous defaults, or, for a new profile,
 * none, and the events relying on it stay unresolved (never guessed) and keep the status incomplete.
 */
export async function article59cView(deps: ThresholdsDeps, principal: Principal, cutoffDay: string): Promise<ThresholdStatusView> {
  const year = Number(cutoffDay.slice(0, 4));
  const years = [year, year - 1];
  const call = { headers: principalHeaders(principal) };
  const [release, { position, decisionsApplied, buckets, crossings }, ledger] = await Promise.all([
    deps.releases.current(),
    deps.statusSnapshots.get(principal.accountId, years, cutoffDay),
    deps.clients.ledger.getLedgerHead({}, call),
  ]);
  const head = ledger.sequence;
  const defaultsFor = await profileDefaultsFor(deps, principal.accountId, buckets);
  const lookup = (c: string) => release.thresholds.get(c);
  const ofYear = (y: number) => crossingsOfYear(crossings.filter((c) => c.year === y && occurredBy(c, cutoffDay)));
  const [current, preceding] = [ofYear(year), ofYear(year - 1)];
  return thresholdStatus({
    currentYear: year,
    current: summarizeYear(year, buckets, defaultsFor, lookup, cutoffDay),
    preceding: summarizeYear(year - 1, buckets, defaultsFor, lookup, cutoffDay),
    crossings: { current: current.crossing, preceding: preceding.crossing, currentHistory: current.history, precedingHistory: preceding.history },
    releaseVersion: release.version,
    thresholdOf: lookup,
    ledgerPosition: position,
    ledgerHead: head,
    decisionsLagging: decisionsApplied < ledger.decisionCount,
  });
}

/** The source-profile defaults of the account, read only when some event lacks a fact a profile could supply. */
export async function profileDefaultsFor(deps: ThresholdsDeps, accountId: bigint, buckets: readonly Bucket[]): Promise<(sourceId: string | null) => ProfileDefaults | undefined> {
  const lacking = buckets.some((b) => b.facts.sourceId !== null && (b.facts.supplierEstablishmentCountry === null || (b.facts.supplyKind === 'goods' && b.facts.dispatchCountry === null)));
  const defaults: Map<string, ProfileDefaults> = lacking ? await deps.profileDefaults.of(accountId) : new Map();
  return (sourceId) => (sourceId === null ? undefined : defaults.get(sourceId));
}

/** Whether a crossing's event is dated up to the end of `cutoffDay` (UTC). */
export const occurredBy = (c: StoredCrossing, cutoffDay: string) => Date.parse(c.occurredAt) <= Date.parse(`${cutoffDay}T23:59:59.999Z`);

/**
 * A year's stored crossings: the crossing is the earliest in tax-point order (ties by ledger sequence);
 * each other one was superseded by the crossing proven next after it (a row is stored only when it is
 * earlier than every stored one), and is listed, oldest proof first, with when and by which event.
 */
export function crossingsOfYear(rows: readonly StoredCrossing[]): { crossing?: StoredCrossing; history: StoredCrossing[] } {
  if (rows.length === 0) return { history: [] };
  const crossing = [...rows].sort(byTaxPointThenSequence)[0]!;
  const byProof = [...rows].sort((a, b) => Date.parse(a.provenAt) - Date.parse(b.provenAt) || byTaxPointThenSequence(b, a));
  const history = byProof.flatMap((c, i) => (c === crossing ? [] : [{ ...c, supersededAt: byProof[i + 1]?.provenAt, supersededByEventId: byProof[i + 1]?.eventId }]));
  return { crossing, history };
}
