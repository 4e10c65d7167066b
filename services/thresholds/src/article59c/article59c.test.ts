import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCandidate, type CandidateFacts } from './classify';
import { firstMarks, type TimelineEvent } from './crossing';
import { checkIossConsignment } from './ioss';
import { ossCheck, thresholdStatus, type StoredCrossing } from './status';
import { summarizeYear, type Bucket } from './summarize';

/** EUR 10,000 = 1,000,000 cents for euro States; SE: SEK 99,680 = 9,968,000 öre. */
const THRESHOLDS: Record<string, { currency: string; amountMinor: bigint; scale: number }> = {
  DE: { currency: 'EUR', amountMinor: 1_000_000n, scale: 2 },
  FR: { currency: 'EUR', amountMinor: 1_000_000n, scale: 2 },
  SE: { currency: 'SEK', amountMinor: 9_968_000n, scale: 2 },
  RO: { currency: 'RON', amountMinor: 4_633_700n, scale: 2 },
};
const lookup = (c: string) => THRESHOLDS[c];

const sale = (over: Partial<CandidateFacts> = {}): CandidateFacts => ({
  eventClass: 'sale',
  linkState: 'none',
  year: 2026,
  supplyKind: 'goods',
  customerType: 'b2c',
  classificationStatus: 'classified',
  countryOfConsumption: 'IT',
  dispatchCountry: 'DE',
  supplierEstablishmentCountry: 'DE',
  currency: 'EUR',
  sourceId: null,
  ...over,
});
const bucket = (facts: CandidateFacts, netMinor: bigint, occurredOn = `${facts.year}-03-01`, eventCount = 1n): Bucket => ({
  facts,
  occurredOn,
  eventCount,
  netMinor,
  maxRecordedAt: `${occurredOn}T12:00:00.000Z`,
});
const ev = (eventId: string, sequence: number, occurredAt: string, amountMinor: bigint): TimelineEvent => ({ eventId, sequence: BigInt(sequence), occurredAt, recordedAt: occurredAt, amountMinor });
const crossingOf = (year: number, eventId: string, cumulativeMinor: bigint): StoredCrossing => ({
  year,
  eventId,
  sequence: 2n,
  occurredAt: `${year}-06-15T00:00:00.000Z`,
  recordedAt: `${year}-06-15T00:00:01.000Z`,
  eventAmountMinor: 500_000n,
  cumulativeMinor,
  thresholdMinor: 1_000_000n,
  currency: 'EUR',
  establishmentCountry: 'DE',
  releaseVersion: 'test-release',
  policyVersion: 'article59c-policy/v1',
  provenAt: `${year}-06-15T00:00:02.000Z`,
});

function statusOf(buckets: Bucket[], crossings: { current?: StoredCrossing; preceding?: StoredCrossing } = {}, currentYear = 2026) {
  const cutoff = `${currentYear}-12-31`;
  return thresholdStatus({
    currentYear,
    current: summarizeYear(currentYear, buckets, () => undefined, lookup, cutoff),
    preceding: summarizeYear(currentYear - 1, buckets, () => undefined, lookup, cutoff),
    crossings,
    releaseVersion: 'test-release',
    thresholdOf: lookup,
    ledgerPosition: 10n,
    ledgerHead: 10n,
  });
}

describe('Article 59c disposition, evidence quality and materiality', () => {
  it('a B2B sale with missing dispatch is a conclusive exclusion (not blocking); a B2C goods sale without dispatch blocks', () => {
    const b2b = classifyCandidate(sale({ customerType: 'b2b', dispatchCountry: null, vatNumberEvidence: 'valid' }), undefined, lookup);
    expect(b2b).toMatchObject({ disposition: 'excluded', reason: 'b2b', evidenceQuality: 'dispatch_country_missing', materiality: 'immaterial' });
    const b2c = classifyCandidate(sale({ dispatchCountry: null }), undefined, lookup);
    expect(b2c).toMatchObject({ disposition: 'unresolved', reason: 'dispatch_country_missing', materiality: 'material' });

    // B2B 2,000.00 with no dispatch + B2C 3,000.00 complete: 300,000 counted, no blocking → a check exists.
    const conclusive = statusOf([bucket(sale({ customerType: 'b2b', dispatchCountry: null }), 200_000n), bucket(sale(), 300_000n)]);
    expect(conclusive.evidenceStatus).toBe('resolved');
    expect(conclusive.checks[0]!.currentMinor).toBe(300_000n);
    expect(conclusive.currentYearExcludedEventCount).toBe(1n);
    // The same with the B2C sale lacking dispatch: blocking → no checks, no conclusion.
    const blocked = statusOf([bucket(sale({ customerType: 'b2b', dispatchCountry: null }), 200_000n), bucket(sale({ dispatchCountry: null }), 300_000n)]);
    expect(blocked.evidenceStatus).toBe('incomplete_evidence');
    expect(blocked.thresholdEvidenceStatus).toBe('incomplete');
    expect(blocked.checks).toEqual([]);
    expect(blocked.currentYearBlockingEventCount).toBe(1n);
    expect(blocked.issues).toContain('dispatch_country_missing');
  });

  it('a B2B sale without VIES evidence at its tax point: excluded under its own reason, flagged for review in the issues, not blocking', () => {
    for (const vatNumberEvidence of ['missing', null, undefined] as const) {
      expect(classifyCandidate(sale({ customerType: 'b2b', vatNumberEvidence }), undefined, lookup)).toEqual({
        reason: 'b2b_without_vat_number_evidence', disposition: 'excluded', evidenceQuality: 'vat_number_evidence_missing', materiality: 'immaterial', establishment: 'DE', defaultApplied: false,
      });
    }
    // B2B 2,000.00 without evidence + B2B 1,000.00 with + B2C 3,000.00: 300,000 counted, both B2B excluded, one flagged.
    const s = statusOf([bucket(sale({ customerType: 'b2b', vatNumberEvidence: 'missing' }), 200_000n), bucket(sale({ customerType: 'b2b', vatNumberEvidence: 'valid' }), 100_000n), bucket(sale(), 300_000n)]);
    expect(s.evidenceStatus).toBe('resolved');
    expect(s.checks[0]!.currentMinor).toBe(300_000n);
    expect(s.currentYearExcludedEventCount).toBe(2n);
    expect(s.currentYearCoverage.filter((r) => r.reason.startsWith('b2b'))).toEqual([
      { reason: 'b2b', disposition: 'excluded', evidenceQuality: 'complete', materiality: 'immaterial', currency: 'EUR', eventCount: 1n, netMinor: 100_000n },
      { reason: 'b2b_without_vat_number_evidence', disposition: 'excluded', evidenceQuality: 'vat_number_evidence_missing', materiality: 'immaterial', currency: 'EUR', eventCount: 1n, netMinor: 200_000n },
    ]);
    expect(s.issues).toEqual(['b2b_without_vat_number_evidence']);
    // With the evidence in place (its running total emptied, 0 events) nothing is flagged and no empty row is listed.
    const cleared = statusOf([bucket(sale({ customerType: 'b2b', vatNumberEvidence: 'missing' }), 0n, undefined, 0n), bucket(sale({ customerType: 'b2b', vatNumberEvidence: 'valid' }), 300_000n), bucket(sale(), 300_000n)]);
    expect(cleared.currentYearCoverage.map((r) => r.reason)).toEqual(['b2b', 'counted']);
    expect(cleared.issues).toEqual([]);
  });

  it('imported goods, installed goods, new means of transport and domestic supplies are conclusive even with missing facts', () => {
    for (const kind of ['imported_goods', 'installed_goods', 'new_means_of_transport']) {
      expect(classifyCandidate(sale({ supplyKind: kind, dispatchCountry: null, supplierEstablishmentCountry: null }), undefined, lookup)).toMatchObject({ disposition: 'excluded', reason: kind });
    }
    expect(classifyCandidate(sale({ countryOfConsumption: 'DE', dispatchCountry: null }), undefined, lookup)).toMatchObject({ disposition: 'excluded', reason: 'domestic' });
  });

  it('an amount in a currency other than the threshold currency blocks and is listed as unconverted', () => {
    // DE establishment → EUR threshold; a PLN sale of 1,000.00 PLN cannot be compared without conversion.
    const s = statusOf([bucket(sale(), 100_000n), bucket(sale({ currency: 'PLN' }), 100_000n)]);
    expect(s.checks).toEqual([]);
    expect(s.unconvertedCurrencies).toEqual(['PLN']);
    expect(s.eurOnly).toBe(true);
    expect(s.currentYearCoverage.find((r) => r.currency === 'PLN')).toMatchObject({ reason: 'currency_not_threshold_currency', disposition: 'unresolved', materiality: 'material' });
  });

  it('a SEK establishment compares SEK amounts with SEK 99,680 (never converted)', () => {
    // 9,968,000 öre is at the line (not above); one more öre is above.
    const at = statusOf([bucket(sale({ supplierEstablishmentCountry: 'SE', dispatchCountry: 'SE', currency: 'SEK' }), 9_968_000n)]);
    expect(at.checks[0]).toMatchObject({ currency: 'SEK', thresholdMinor: 9_968_000n, currentComparison: 'at_or_below', remainingMinor: 0n, percentageUsed: 100 });
    const above = statusOf([bucket(sale({ supplierEstablishmentCountry: 'SE', dispatchCountry: 'SE', currency: 'SEK' }), 9_968_001n)]);
    expect(above.checks[0]!.currentComparison).toBe('above');
  });

  it('goods dispatched from another State count in 2026 but not from 2027 (Directive (EU) 2025/516)', () => {
    // DE-established supplier ships from an FR warehouse to a consumer in IT.
    const fromFr = (year: number) => sale({ year, dispatchCountry: 'FR' });
    expect(classifyCandidate(fromFr(2026), undefined, lookup)).toMatchObject({ disposition: 'counted' });
    expect(classifyCandidate(fromFr(2027), undefined, lookup)).toMatchObject({ disposition: 'excluded', reason: 'dispatch_not_from_establishment_state' });
    expect(classifyCandidate(sale({ year: 2027 }), undefined, lookup)).toMatchObject({ disposition: 'counted' });
  });

  it('an unlinked correction blocks; a linked one reduces its original year', () => {
    expect(classifyCandidate(sale({ eventClass: 'correction', linkState: 'missing' }), undefined, lookup)).toMatchObject({ disposition: 'unresolved', reason: 'correction_reference_missing' });
    expect(classifyCandidate(sale({ eventClass: 'correction', linkState: 'invalid' }), undefined, lookup)).toMatchObject({ disposition: 'unresolved', reason: 'correction_reference_invalid' });
    // 2025 sale 5,000.00 refunded -1,000.00 in 2026 (linked): the refund's year is 2025 → 2025 = 400,000; 2026 = 0.
    const s = statusOf([bucket(sale({ year: 2025 }), 500_000n, '2025-11-01'), bucket(sale({ year: 2025, eventClass: 'correction', linkState: 'linked' }), -100_000n, '2026-01-10')]);
    expect(s.checks[0]).toMatchObject({ previousYearMinor: 400_000n, currentMinor: 0n });
  });

  it('profile defaults apply only when the event lacks the fact', () => {
    const defaults = { supplierEstablishmentCountry: 'FR', dispatchCountry: 'FR' };
    expect(classifyCandidate(sale({ supplierEstablishmentCountry: null, dispatchCountry: null }), defaults, lookup)).toMatchObject({ disposition: 'counted', establishment: 'FR', evidenceQuality: 'profile_default_applied' });
    expect(classifyCandidate(sale(), defaults, lookup)).toMatchObject({ disposition: 'counted', establishment: 'DE', evidenceQuality: 'complete', defaultApplied: false });
  });
});

describe('crossing', () => {
  it('crossing mid-year, then a refund below the line: the crossing stays and remaining is 0', () => {
    // 6,000.00 on 03-01 (cumulative 600,000), 5,000.00 on 06-15 (1,100,000 > 1,000,000: crossing), refund -2,000.00 on 09-01 (900,000).
    const marks = firstMarks([ev('s1', 1, '2026-03-01T00:00:00.000Z', 600_000n), ev('r1', 3, '2026-09-01T00:00:00.000Z', -200_000n), ev('s2', 2, '2026-06-15T00:00:00.000Z', 500_000n)], 1_000_000n);
    expect(marks.crossing).toMatchObject({ event: { eventId: 's2' }, cumulativeMinor: 1_100_000n });
    // 90 % band = 900,000: first reached by s2 as well (600,000 < 900,000 ≤ 1,100,000).
    expect(marks.warning).toMatchObject({ event: { eventId: 's2' }, cumulativeMinor: 1_100_000n });

    const s = statusOf([bucket(sale(), 1_100_000n, '2026-06-15', 2n), bucket(sale({ eventClass: 'correction', linkState: 'linked' }), -200_000n, '2026-09-01')], { current: crossingOf(2026, 's2', 1_100_000n) });
    const entry = s.checks[0]!;
    expect(entry).toMatchObject({ currentMinor: 900_000n, currentComparison: 'above', historicalCrossingProven: true, remainingMinor: 0n, percentageUsed: 90 });
    expect(entry.currentYearCrossing?.eventId).toBe('s2');
    expect(ossCheck(entry, true)).toMatchObject({ exceeded: true, warning: false, remainingMinor: 0n, percentageUsed: 90 });
  });

  it('tax-point order, then ledger sequence, decides the crossing event', () => {
    // Two sales on the same instant: 500,000 (seq 7) then 600,000 (seq 4) → seq 4 first: 600,000, then seq 7: 1,100,000 crosses.
    const marks = firstMarks([ev('late-seq', 7, '2026-05-01T00:00:00.000Z', 500_000n), ev('early-seq', 4, '2026-05-01T00:00:00.000Z', 600_000n)], 1_000_000n);
    expect(marks.crossing?.event.eventId).toBe('late-seq');
    // Exactly at the threshold is not above it.
    expect(firstMarks([ev('a', 1, '2026-01-01T00:00:00.000Z', 1_000_000n)], 1_000_000n).crossing).toBeUndefined();
  });

  it('a previous-year crossing makes the current year exceeded with incomplete current evidence', () => {
    // 2025 crossed (stored); 2026 has one B2C goods sale lacking dispatch (blocking) → the proven crossing is still returned.
    const s = statusOf([bucket(sale({ year: 2025 }), 1_200_000n, '2025-06-15'), bucket(sale({ dispatchCountry: null }), 10_000n)], { preceding: crossingOf(2025, 's-2025', 1_200_000n) });
    expect(s.evidenceStatus).toBe('incomplete_evidence');
    const entry = s.checks[0]!;
    expect(entry).toMatchObject({ previousComparison: 'above', currentComparison: 'unknown', historicalCrossingProven: true, primaryTreatmentDriver: 'threshold_exceeded_preceding_year', remainingMinor: 0n });
    expect(ossCheck(entry, false)).toMatchObject({ exceeded: true, evidenceStatus: 'incomplete_evidence' });
  });

  it('a warning inside the band without a crossing', () => {
    // 9,000.00 = 900,000 = 90 % → warning; 8,999.99 = 899,999 → none.
    expect(ossCheck(statusOf([bucket(sale(), 900_000n)]).checks[0]!, true)).toMatchObject({ warning: true, exceeded: false, remainingMinor: 100_000n, percentageUsed: 90 });
    expect(ossCheck(statusOf([bucket(sale(), 899_999n)]).checks[0]!, true)).toMatchObject({ warning: false, percentageUsed: 89 });
  });

  it('a RON threshold (RO: RON 46,337 as the shipped release cites it) compares RON amounts to the ban', () => {
    // RO-established, goods dispatched from RO to BG customers, amounts in RON minor units (bani).
    const ro = (net: bigint) => bucket(sale({ supplierEstablishmentCountry: 'RO', dispatchCountry: 'RO', countryOfConsumption: 'BG', currency: 'RON' }), net);
    // 46,337.00 RON = 4,633,700 bani: at the threshold, not above; remaining 0, 100 %.
    expect(ossCheck(statusOf([ro(4_000_000n), ro(633_700n)]).checks[0]!, true)).toMatchObject({ currency: 'RON', exceeded: false, remainingMinor: 0n, percentageUsed: 100 });
    // one ban more: 4,633,701 > 4,633,700 → exceeded.
    expect(ossCheck(statusOf([ro(4_000_000n), ro(633_701n)]).checks[0]!, true)).toMatchObject({ currency: 'RON', exceeded: true });
    // 41,703.30 RON = 4,170,330 bani = 90 % of 4,633,700 (4,633,700 × 0.9 = 4,170,330): warning band.
    expect(ossCheck(statusOf([ro(4_170_330n)]).checks[0]!, true)).toMatchObject({ warning: true, exceeded: false, remainingMinor: 463_370n, percentageUsed: 90 });
  });

  it('an establishment State without a reviewed threshold (not found in any source) is never compared', () => {
    // CZ has no amount in this test's lookup (a release row marked national_amount_not_found): even a purely domestic CZ account gets no check entry.
    const s = statusOf([bucket(sale({ supplierEstablishmentCountry: 'CZ', countryOfConsumption: 'CZ', dispatchCountry: 'CZ', currency: 'CZK' }), 100n)]);
    expect(s).toMatchObject({ evidenceStatus: 'incomplete_evidence', checks: [], issues: ['threshold_unavailable'] });
    const cross = statusOf([bucket(sale({ supplierEstablishmentCountry: 'CZ', dispatchCountry: 'CZ', currency: 'CZK' }), 100n)]);
    expect(cross.currentYearCoverage[0]).toMatchObject({ reason: 'threshold_unavailable', disposition: 'unresolved' });
  });

  it('several establishment States are conflicting sole-establishment evidence', () => {
    const s = statusOf([bucket(sale(), 100n), bucket(sale({ supplierEstablishmentCountry: 'FR', dispatchCountry: 'FR' }), 100n)]);
    expect(s).toMatchObject({ evidenceStatus: 'conflicting_evidence', article59cApplicabilityStatus: 'multiple_establishment_countries', checks: [] });
  });
});

describe('IOSS consignment check (Art. 369l, EUR 150)', () => {
  it('150.00 is within the ceiling (warning), 150.01 exceeds it', () => {
    expect(checkIossConsignment(15000n)).toEqual({ thresholdMinor: 15000n, currentMinor: 15000n, remainingMinor: 0n, percentageUsed: 100, exceeded: false, warning: true });
    expect(checkIossConsignment(15001n)).toMatchObject({ exceeded: true, warning: false, remainingMinor: 0n, percentageUsed: 100 });
    // band: 90 % of 15000 = 13500
    expect(checkIossConsignment(13500n).warning).toBe(true);
    expect(checkIossConsignment(13499n)).toMatchObject({ warning: false, remainingMinor: 1501n, percentageUsed: 89 });
  });
});

describe('properties', () => {
  const amounts = fc.array(fc.bigInt({ min: -300_000n, max: 900_000n }), { minLength: 1, maxLength: 40 });
  it('the crossing is the first prefix above the threshold in tax-point order', () => {
    fc.assert(
      fc.property(amounts, fc.bigInt({ min: 1n, max: 5_000_000n }), (xs, threshold) => {
        const events = xs.map((a, k) => ev(`e${k}`, k + 1, new Date(Date.UTC(2026, 0, 1) + k * 86_400_000).toISOString(), a));
        const { crossing } = firstMarks([...events].reverse(), threshold);
        let cum = 0n;
        let expected: string | undefined;
        for (const e of events) {
          cum += e.amountMinor;
          if (cum > threshold) {
            expected = e.eventId;
            break;
          }
        }
        expect(crossing?.event.eventId).toBe(expected);
      }),
    );
  });

  const facts = fc.record({
    customerType: fc.constantFrom('b2c', 'b2b'),
    supplyKind: fc.constantFrom('goods', 'services', 'imported_goods', 'installed_goods'),
    dispatchCountry: fc.constantFrom(null, 'DE', 'FR', 'IT'),
    supplierEstablishmentCountry: fc.constantFrom(null, 'DE'),
    currency: fc.constantFrom('EUR', 'PLN'),
    linkState: fc.constantFrom('none', 'linked', 'missing'),
  });
  it('every candidate is counted, excluded or blocking, and the summary does not depend on bucket order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(facts, fc.bigInt({ min: 0n, max: 10n ** 15n })), { maxLength: 30 }), (rows) => {
        const bs = rows.map(([f, n]) => bucket(sale({ ...f, eventClass: f.linkState === 'none' ? 'sale' : 'correction', linkState: f.linkState as CandidateFacts['linkState'] }), n));
        const a = summarizeYear(2026, bs, () => undefined, lookup, '2026-12-31');
        const b = summarizeYear(2026, [...bs].reverse(), () => undefined, lookup, '2026-12-31');
        expect(a.countedCount + a.excludedCount + a.blockingCount).toBe(a.candidateCount);
        expect(b.countedByEstablishment).toEqual(a.countedByEstablishment);
        expect(b.coverage).toEqual(a.coverage);
      }),
    );
  });
});
