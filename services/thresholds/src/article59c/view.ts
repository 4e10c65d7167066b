import type { Principal } from '@vat/platform/principal';
import { principalHeaders } from '@vat/platform/principal';
import type { ThresholdsDeps } from '../context';
import type { ProfileDefaults } from './classify';
import { thresholdStatus, type ThresholdStatusView } from './status';
import { summarizeYear } from './summarize';

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
  // Profiles are read only when some event lacks a fact a profile could supply.
  const lacking = buckets.some((b) => b.facts.sourceId !== null && (b.facts.supplierEstablishmentCountry === null || (b.facts.supplyKind === 'goods' && b.facts.dispatchCountry === null)));
  const defaults: Map<string, ProfileDefaults> = lacking ? await deps.profileDefaults.of(principal.accountId) : new Map();
  const defaultsFor = (sourceId: string | null) => (sourceId === null ? undefined : defaults.get(sourceId));
  const lookup = (c: string) => release.thresholds.get(c);
  const cutoffEnd = Date.parse(`${cutoffDay}T23:59:59.999Z`);
  const proven = (y: number) => crossings.find((c) => c.year === y && Date.parse(c.occurredAt) <= cutoffEnd);
  return thresholdStatus({
    currentYear: year,
    current: summarizeYear(year, buckets, defaultsFor, lookup, cutoffDay),
    preceding: summarizeYear(year - 1, buckets, defaultsFor, lookup, cutoffDay),
    crossings: { current: proven(year), preceding: proven(year - 1) },
    releaseVersion: release.version,
    thresholdOf: lookup,
    ledgerPosition: position,
    ledgerHead: head,
    decisionsLagging: decisionsApplied < ledger.decisionCount,
  });
}
