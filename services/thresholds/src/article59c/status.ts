import { isEuMemberState } from '@vat/platform/countries';
import { B2B_WITHOUT_EVIDENCE } from './classify';
import { DISCLAIMER, POLICY_VERSION, WARNING_BAND_PERCENT } from './policy';
import type { CoverageRow, YearSummary } from './summarize';

/** A crossing as stored (immutable): the event, its contribution and the cumulative amount it reached. */
export type StoredCrossing = {
  year: number;
  eventId: string;
  sequence: bigint;
  occurredAt: string;
  recordedAt: string;
  eventAmountMinor: bigint;
  cumulativeMinor: bigint;
  thresholdMinor: bigint;
  currency: string;
  establishmentCountry: string;
  releaseVersion: string;
  policyVersion: string;
  provenAt: string;
  /** A superseded crossing: when, and by which earlier crossing's event, it was replaced. */
  supersededAt?: string;
  supersededByEventId?: string;
};

type ReleaseThreshold = { currency: string; amountMinor: bigint; scale: number };

type StatusInput = {
  currentYear: number;
  current: YearSummary;
  preceding: YearSummary;
  crossings: { current?: StoredCrossing; preceding?: StoredCrossing; currentHistory?: StoredCrossing[]; precedingHistory?: StoredCrossing[] };
  releaseVersion: string;
  thresholdOf: (country: string) => ReleaseThreshold | undefined;
  ledgerPosition: bigint;
  ledgerHead: bigint;
  /** True while the projection has applied fewer classification decisions than the ledger published. */
  decisionsLagging?: boolean;
};

type CheckEntry = {
  currency: string;
  currencyScale: number;
  thresholdMinor: bigint;
  currentMinor: bigint;
  previousYearMinor: bigint;
  currentComparison: string;
  previousComparison: string;
  sourceEventCount: bigint;
  previousYearEventCount: bigint;
  currentYearCrossing?: StoredCrossing;
  precedingYearCrossing?: StoredCrossing;
  /** Superseded crossings (a backdated sale moved the crossing earlier), oldest proof first. */
  currentYearCrossingHistory: StoredCrossing[];
  precedingYearCrossingHistory: StoredCrossing[];
  historicalCrossingProven: boolean;
  establishmentCountry: string;
  releaseVersion: string;
  policyVersion: string;
  cutoffAt?: string;
  treatmentTriggers: string[];
  primaryTreatmentDriver: string;
  remainingMinor: bigint;
  percentageUsed: number;
};

export type ThresholdStatusView = {
  checks: CheckEntry[];
  currentYearCandidateEventCount: bigint;
  precedingYearCandidateEventCount: bigint;
  currentYearExcludedEventCount: bigint;
  precedingYearExcludedEventCount: bigint;
  currentYearBlockingEventCount: bigint;
  precedingYearBlockingEventCount: bigint;
  currentYearCoverage: CoverageRow[];
  precedingYearCoverage: CoverageRow[];
  evidenceStatus: string;
  article59cApplicabilityStatus: string;
  thresholdEvidenceStatus: string;
  filingReadiness: string;
  issues: string[];
  eurOnly: boolean;
  unconvertedCurrencies: string[];
  disclaimer: string;
  currentYear: number;
  ledgerPosition: bigint;
  ledgerHead: bigint;
};

const INT32_MAX = 2147483647n;

/** floor(amount × 100 / threshold), held to the int32 range of the wire field. */
function percentageOf(amount: bigint, threshold: bigint): number {
  const p = (amount * 100n) / threshold;
  return Number(p > INT32_MAX ? INT32_MAX : p < -INT32_MAX ? -INT32_MAX : p);
}

function applicability(establishments: Set<string>, anyCandidates: boolean, establishmentMissing: boolean): string {
  if (establishments.size > 1) return 'multiple_establishment_countries';
  if (establishments.size === 1) return isEuMemberState([...establishments][0]) ? 'sole_establishment' : 'established_outside_eu';
  if (establishmentMissing) return 'establishment_unknown';
  return anyCandidates ? 'no_in_scope_supplies' : 'no_candidate_events';
}

const unresolvedReasons = (s: YearSummary) => s.coverage.filter((r) => r.disposition === 'unresolved').map((r) => r.reason);

/**
 * The threshold status resource from two summarized years and the stored crossings. A `checks` entry exists
 * only when both years' evidence is complete, or when an authenticated crossing is proven (then with
 * `incomplete_evidence` and `unknown` for any year not proven).
 */
export function thresholdStatus(i: StatusInput): ThresholdStatusView {
  const establishments = new Set([...i.current.establishments, ...i.preceding.establishments]);
  const blocking = i.current.blockingCount + i.preceding.blockingCount > 0n;
  const lagging = i.ledgerPosition < i.ledgerHead || i.decisionsLagging === true;
  const reasons = [...unresolvedReasons(i.current), ...unresolvedReasons(i.preceding)];
  const anyCandidates = i.current.candidateCount + i.preceding.candidateCount > 0n;
  const applicable = applicability(establishments, anyCandidates, reasons.includes('supplier_establishment_country_missing'));
  const issues = new Set<string>(reasons);
  if (lagging) issues.add('projection_lagging');
  if (establishments.size > 1) issues.add('multiple_establishment_countries');
  if (i.current.defaultApplied || i.preceding.defaultApplied) issues.add('profile_default_applied');
  // Flagged for review, not blocking (Art. 18(1)(b) of Reg. 282/2011: the customer may be a non-taxable person).
  if ([...i.current.coverage, ...i.preceding.coverage].some((r) => r.reason === B2B_WITHOUT_EVIDENCE && r.eventCount !== 0n)) issues.add(B2B_WITHOUT_EVIDENCE);

  let evidence: 'resolved' | 'incomplete_evidence' | 'conflicting_evidence' | 'not_applicable';
  if (establishments.size > 1) evidence = 'conflicting_evidence';
  else if (blocking || lagging) evidence = 'incomplete_evidence';
  else if (establishments.size === 0 || !isEuMemberState([...establishments][0])) evidence = 'not_applicable';
  else if (i.thresholdOf([...establishments][0]!) === undefined) {
    // The release has no reviewed amount for this State (never guessed): nothing can be compared.
    evidence = 'incomplete_evidence';
    issues.add('threshold_unavailable');
  } else evidence = 'resolved';
  const thresholdEvidence = { resolved: 'complete', incomplete_evidence: 'incomplete', conflicting_evidence: 'conflicting', not_applicable: 'not_applicable' }[evidence];

  const proven = i.crossings.current ?? i.crossings.preceding;
  let entry: CheckEntry | undefined;
  if (evidence === 'resolved') {
    const country = [...establishments][0]!;
    entry = checkEntry(i, country, i.thresholdOf(country)!, true);
  } else if (proven) {
    const t = i.thresholdOf(proven.establishmentCountry);
    entry = checkEntry(i, proven.establishmentCountry, t ?? { currency: proven.currency, amountMinor: proven.thresholdMinor, scale: 2 }, false);
  }
  if (entry?.historicalCrossingProven && evidence !== 'resolved') issues.add('crossing_proven_with_incomplete_evidence');
  const exceeded = entry !== undefined && entry.treatmentTriggers.length > 0;
  const filingReadiness = entry === undefined ? 'review_required' : exceeded ? 'destination_taxation_required' : 'origin_taxation_available';
  return {
    checks: entry ? [entry] : [],
    currentYearCandidateEventCount: i.current.candidateCount,
    precedingYearCandidateEventCount: i.preceding.candidateCount,
    currentYearExcludedEventCount: i.current.excludedCount,
    precedingYearExcludedEventCount: i.preceding.excludedCount,
    currentYearBlockingEventCount: i.current.blockingCount,
    precedingYearBlockingEventCount: i.preceding.blockingCount,
    currentYearCoverage: i.current.coverage,
    precedingYearCoverage: i.preceding.coverage,
    evidenceStatus: evidence,
    article59cApplicabilityStatus: applicable,
    thresholdEvidenceStatus: thresholdEvidence,
    filingReadiness,
    issues: [...issues].sort(),
    eurOnly: evidence !== 'resolved',
    unconvertedCurrencies: [...new Set([...i.current.unconvertedCurrencies, ...i.preceding.unconvertedCurrencies])].sort(),
    disclaimer: DISCLAIMER,
    currentYear: i.currentYear,
    ledgerPosition: i.ledgerPosition,
    ledgerHead: i.ledgerHead,
  };
}

function checkEntry(i: StatusInput, country: string, t: ReleaseThreshold, complete: boolean): CheckEntry {
  const current = i.current.countedByEstablishment.get(country) ?? 0n;
  const previous = i.preceding.countedByEstablishment.get(country) ?? 0n;
  const compare = (amount: bigint, crossing: StoredCrossing | undefined) => (crossing ? 'above' : !complete ? 'unknown' : amount > t.amountMinor ? 'above' : 'at_or_below');
  const currentComparison = compare(current, i.crossings.current);
  const previousComparison = compare(previous, i.crossings.preceding);
  const triggers = [
    ...(currentComparison === 'above' ? ['threshold_exceeded_current_year'] : []),
    ...(previousComparison === 'above' ? ['threshold_exceeded_preceding_year'] : []),
  ];
  const historical = i.crossings.current !== undefined || i.crossings.preceding !== undefined;
  const cutoffs = [i.current.cutoffAt, i.preceding.cutoffAt].filter((c): c is string => c !== null).sort();
  return {
    currency: t.currency,
    currencyScale: t.scale,
    thresholdMinor: t.amountMinor,
    currentMinor: current,
    previousYearMinor: previous,
    currentComparison,
    previousComparison,
    sourceEventCount: i.current.countedCount,
    previousYearEventCount: i.preceding.countedCount,
    currentYearCrossing: i.crossings.current,
    precedingYearCrossing: i.crossings.preceding,
    currentYearCrossingHistory: i.crossings.currentHistory ?? [],
    precedingYearCrossingHistory: i.crossings.precedingHistory ?? [],
    historicalCrossingProven: historical,
    establishmentCountry: country,
    releaseVersion: i.releaseVersion,
    policyVersion: POLICY_VERSION,
    cutoffAt: cutoffs[cutoffs.length - 1],
    treatmentTriggers: triggers,
    primaryTreatmentDriver: triggers[0] ?? 'below_threshold',
    remainingMinor: triggers.length > 0 || current >= t.amountMinor ? 0n : t.amountMinor - current,
    percentageUsed: percentageOf(current, t.amountMinor),
  };
}

/** The OSS threshold-check answer from a status entry: exceeded when any year is above, warning in the band. */
export function ossCheck(entry: CheckEntry, evidenceResolved: boolean) {
  const exceeded = entry.treatmentTriggers.length > 0;
  return {
    thresholdType: 'oss',
    thresholdMinor: entry.thresholdMinor,
    currency: entry.currency,
    currencyScale: entry.currencyScale,
    currentMinor: entry.currentMinor,
    remainingMinor: entry.remainingMinor,
    percentageUsed: entry.percentageUsed,
    exceeded,
    warning: !exceeded && entry.currentMinor * 100n >= entry.thresholdMinor * WARNING_BAND_PERCENT,
    previousYearMinor: entry.previousYearMinor,
    previousComparison: entry.previousComparison,
    evidenceStatus: evidenceResolved ? 'resolved' : 'incomplete_evidence',
    historicalCrossingProven: entry.historicalCrossingProven,
    releaseVersion: entry.releaseVersion,
    policyVersion: entry.policyVersion,
    cutoffAt: entry.cutoffAt,
  };
}
