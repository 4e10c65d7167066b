import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VatNumberCheckedSchema } from '@vat/gen/vat/compliance_reports/v1/events_pb';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { BusMessage } from '@vat/platform/bus';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { summarizeYear } from '../src/article59c/summarize';
import type { ThresholdsDeps } from '../src/context';
import { thresholdsProjectionConsumer, vatNumberCheckConsumer } from '../src/projection';

const backends = await requireBackends(['postgres']);

const D1 = 'a'.repeat(64);
const D2 = 'b'.repeat(64);

/** A b2b service supplied from DE to FR in EUR (SupplyCommitted as the ledger publishes it). */
function supply(accountId: bigint, sequence: number, eventId: string, occurredAt: string, net: bigint, over: Record<string, unknown> = {}): BusMessage {
  const supplyEvent = create(SupplyEventSchema, {
    id: randomUUID(),
    accountId,
    sequence: BigInt(sequence),
    recordedAt: new Date(Date.UTC(2026, 10, 1, 0, 0, sequence)).toISOString(),
    eventId,
    eventType: 'sale',
    occurredAt,
    supplyKind: 'services',
    customerType: 'b2b',
    countryOfConsumption: 'FR',
    supplierEstablishmentCountry: 'DE',
    currency: 'EUR',
    netAmountMinor: net,
    vatAmountMinor: 0n,
    vatRateBps: 0,
    rateCategory: 'standard',
    classificationStatus: 'classified',
    ...over,
  });
  const id = randomUUID();
  return { id, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, create(SupplyCommittedSchema, { eventId: id, supplyEvent })) };
}

/** A VatNumberChecked event as compliance-reports publishes it. */
function checked(accountId: bigint, checkId: number, digest: string, result: string, checkedAt: string): BusMessage {
  const id = randomUUID();
  const msg = create(VatNumberCheckedSchema, { eventId: id, accountId, checkId: BigInt(checkId), vatNumberDigest: digest, result, checkedAt });
  return { id, subject: 'vat.compliance_reports.v1.vat_number_checked', data: toBinary(VatNumberCheckedSchema, msg) };
}

describe.skipIf(!backends.ok)('VIES evidence of b2b Article 59c candidates (service, PostgreSQL, hand-built events)', () => {
  let h: ServiceHarness<ThresholdsDeps>;
  let supplies: ReturnType<typeof thresholdsProjectionConsumer>;
  let checks: ReturnType<typeof vatNumberCheckConsumer>;
  const q = async (sql: string, params: unknown[] = []) => (await h.deps.pool.query(sql, params)).rows;
  /** Each message to the consumer of its subject, one batch each. */
  const deliver = async (messages: BusMessage[]) => {
    for (const m of messages) await (m.subject.endsWith('vat_number_checked') ? checks : supplies).handler([m]);
  };
  const buckets = (acct: bigint) =>
    q(`select bucket_key, vat_number_evidence, event_count::int as n, net_minor::text as net from thresholds.article59c_bucket where account_id = $1 and event_count <> 0 order by bucket_key`, [acct.toString()]);
  const coverage = async (acct: bigint) => {
    const release = await h.deps.releases.current();
    const s = summarizeYear(2026, await h.deps.article59cStatus.buckets(acct, [2026]), () => undefined, (c) => release.thresholds.get(c), '2026-12-31');
    return s.coverage.map((r) => ({ reason: r.reason, quality: r.evidenceQuality, n: r.eventCount, net: r.netMinor }));
  };

  beforeAll(async () => {
    h = await startServiceHarness<ThresholdsDeps>('thresholds');
    supplies = thresholdsProjectionConsumer(h.deps);
    checks = vatNumberCheckConsumer(h.deps);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('evidence arriving after the supply clears the flag; arriving before it, the supply is never flagged: the same totals either way', async () => {
    const [later, earlier] = [8101n, 8102n];
    const events = (acct: bigint) => ({ sale: supply(acct, 1, 's1', '2026-03-10T15:00:00.000Z', 100_000n, { customerVatNumberDigest: D1 }), check: checked(acct, 11, D1, 'valid', '2026-03-10T09:00:00.000Z') });

    const a = events(later);
    await deliver([a.sale]);
    // No check yet: excluded, flagged for review (Art. 18(1)(b) of Reg. 282/2011).
    expect(await coverage(later)).toEqual([{ reason: 'b2b_without_vat_number_evidence', quality: 'vat_number_evidence_missing', n: 1n, net: 100_000n }]);
    expect(await q(`select evidence from thresholds.article59c_b2b_fact where account_id = $1`, [later.toString()])).toEqual([{ evidence: 'missing' }]);
    await deliver([a.check]);
    // The check (same day as the tax point, earlier that day) is evidence: the fact moves to the `valid` total.
    expect(await coverage(later)).toEqual([{ reason: 'b2b', quality: 'complete', n: 1n, net: 100_000n }]);
    expect(await q(`select evidence from thresholds.article59c_b2b_fact where account_id = $1`, [later.toString()])).toEqual([{ evidence: 'valid' }]);

    const b = events(earlier);
    await deliver([b.check, b.sale]);
    expect(await coverage(earlier)).toEqual([{ reason: 'b2b', quality: 'complete', n: 1n, net: 100_000n }]);
    expect(await buckets(earlier)).toEqual(await buckets(later));
    expect(await buckets(later)).toEqual([{ bucket_key: '2026|2026-03-10|sale|none|services|b2b|classified|FR|-|DE|EUR||valid', vat_number_evidence: 'valid', n: 1, net: '100000' }]);

    // A redelivered check is applied once (inbox): nothing moves, the applied count stays.
    await deliver([a.check]);
    expect(await buckets(later)).toEqual(await buckets(earlier));
    expect(await q(`select checks_applied::int as n from thresholds.vat_number_evidence_position where account_id = $1`, [later.toString()])).toEqual([{ n: 1 }]);
  });

  it('the rule of compliance-reports: newest definitive check in the window of the tax point; later checks, unavailable answers and other numbers are no evidence', async () => {
    const acct = 8103n;
    // Window of a tax point on 2026-03-20 with VIES_REUSE_DAYS 30: checks made from 2026-02-18T00:00Z up to 2026-03-20T23:59:59Z.
    await deliver([
      supply(acct, 1, 'in-window', '2026-03-20T10:00:00.000Z', 10_000n, { customerVatNumberDigest: D1 }),
      supply(acct, 2, 'no-number', '2026-03-20T10:00:00.000Z', 20_000n),
      supply(acct, 3, 'checked-after', '2026-03-05T10:00:00.000Z', 40_000n, { customerVatNumberDigest: D2 }),
      supply(acct, 4, 'too-old', '2026-05-01T10:00:00.000Z', 80_000n, { customerVatNumberDigest: D1 }),
      checked(acct, 1, D1, 'valid', '2026-02-18T00:00:00.000Z'), // first instant of the window of 03-20; 42 days before 05-01
      checked(acct, 2, D1, 'unavailable', '2026-03-19T00:00:00.000Z'), // not definitive: ignored
      checked(acct, 3, D2, 'valid', '2026-03-06T00:00:00.000Z'), // the day after D2's tax point
      checked(acct, 4, D2, 'format_invalid', '2026-03-05T08:00:00.000Z'),
    ]);
    expect(await coverage(acct)).toEqual([
      { reason: 'b2b', quality: 'complete', n: 1n, net: 10_000n },
      // 20,000 + 40,000 + 80,000 = 140,000 in 3 events
      { reason: 'b2b_without_vat_number_evidence', quality: 'vat_number_evidence_missing', n: 3n, net: 140_000n },
    ]);
    // An invalid answer newer than the valid one, still before the tax point's day ends: no evidence any more.
    await deliver([checked(acct, 5, D1, 'invalid', '2026-03-20T23:59:59.000Z')]);
    expect(await coverage(acct)).toEqual([{ reason: 'b2b_without_vat_number_evidence', quality: 'vat_number_evidence_missing', n: 4n, net: 150_000n }]);
    // A valid one at the same instant with a higher check id is newer: evidence again.
    await deliver([checked(acct, 6, D1, 'valid', '2026-03-20T23:59:59.000Z')]);
    expect(await coverage(acct)).toEqual([
      { reason: 'b2b', quality: 'complete', n: 1n, net: 10_000n },
      { reason: 'b2b_without_vat_number_evidence', quality: 'vat_number_evidence_missing', n: 3n, net: 140_000n },
    ]);
  });

  it('property: supplies (with a correction of a b2b sale) and checks in any order and batching give the same running totals', async () => {
    // Ledger: S1 (D1, 03-10, 100,000), R2 refund of S1 (D1, 03-20, -40,000), S3 (D2, 03-12, 70,000).
    // Checks: D1 valid 03-09, D1 invalid 03-15, D2 valid 03-13, D2 unavailable 03-12.
    // S1: window 02-08..03-10 holds only the valid 03-09 → b2b. R2: window 02-18..03-20, newest definitive is the
    // invalid 03-15 → flagged. S3: the valid check is a day after its tax point → flagged.
    // Expected: b2b 1 event 100,000; flagged 2 events 70,000 - 40,000 = 30,000.
    const build = (acct: bigint) => [
      supply(acct, 1, 'S1', '2026-03-10T12:00:00.000Z', 100_000n, { customerVatNumberDigest: D1 }),
      supply(acct, 2, 'R2', '2026-03-20T12:00:00.000Z', -40_000n, { customerVatNumberDigest: D1, eventType: 'refund', originalEventId: 'S1' }),
      supply(acct, 3, 'S3', '2026-03-12T12:00:00.000Z', 70_000n, { customerVatNumberDigest: D2 }),
      checked(acct, 21, D1, 'valid', '2026-03-09T12:00:00.000Z'),
      checked(acct, 22, D1, 'invalid', '2026-03-15T12:00:00.000Z'),
      checked(acct, 23, D2, 'valid', '2026-03-13T12:00:00.000Z'),
      checked(acct, 24, D2, 'unavailable', '2026-03-12T11:00:00.000Z'),
    ];
    const reference = 8200n;
    await deliver(build(reference));
    expect(await coverage(reference)).toEqual([
      { reason: 'b2b', quality: 'complete', n: 1n, net: 100_000n },
      { reason: 'b2b_without_vat_number_evidence', quality: 'vat_number_evidence_missing', n: 2n, net: 30_000n },
    ]);
    const expected = await buckets(reference);
    let account = 8300n;
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6], { minLength: 7, maxLength: 7 }), fc.array(fc.nat({ max: 7 }), { maxLength: 3 }), async (order, cuts) => {
        const acct = ++account;
        const msgs = build(acct);
        const ordered = order.map((i) => msgs[i]!);
        // Consecutive messages of one subject may share a batch (as a durable delivers them).
        const bounds = new Set(cuts);
        let batch: BusMessage[] = [];
        const flush = async () => {
          if (batch.length) await (batch[0]!.subject.endsWith('vat_number_checked') ? checks : supplies).handler(batch);
          batch = [];
        };
        for (const [i, m] of ordered.entries()) {
          if (batch.length && (bounds.has(i) || batch[0]!.subject !== m.subject)) await flush();
          batch.push(m);
        }
        await flush();
        expect(await buckets(acct)).toEqual(expected);
        expect(await q(`select count(*)::int as n from thresholds.article59c_pending_correction where account_id = $1`, [acct.toString()])).toEqual([{ n: 0 }]);
      }),
      { numRuns: 20 },
    );
    // Forward and fully reversed are among the orders, explicitly.
    for (const order of [[0, 1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1, 0]]) {
      const acct = ++account;
      const msgs = build(acct);
      await deliver(order.map((i) => msgs[i]!));
      expect(await buckets(acct)).toEqual(expected);
    }
  }, 120_000);

  it('a cached status snapshot is read again once a check moved a fact (its version counts the checks applied)', async () => {
    const acct = 8104n;
    await deliver([supply(acct, 1, 'cached', '2026-04-02T10:00:00.000Z', 5_000n, { customerVatNumberDigest: D2 })]);
    const before = await h.deps.statusSnapshots.get(acct, [2026, 2025], '2026-12-31');
    expect(before.buckets.map((b) => b.facts.vatNumberEvidence)).toEqual(['missing']);
    await deliver([checked(acct, 31, D2, 'valid', '2026-04-01T10:00:00.000Z')]);
    const after = await h.deps.statusSnapshots.get(acct, [2026, 2025], '2026-12-31');
    expect(after.buckets.filter((b) => b.eventCount !== 0n).map((b) => b.facts.vatNumberEvidence)).toEqual(['valid']);
  });
});
