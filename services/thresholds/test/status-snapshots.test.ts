import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClassificationDecidedSchema, SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { BusMessage } from '@vat/platform/bus';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { ThresholdsDeps } from '../src/context';
import { thresholdsDecisionConsumer, thresholdsProjectionConsumer } from '../src/projection';
import { Article59cStatusRepository } from '../src/repositories/article59c-status';
import { StatusSnapshots } from '../src/repositories/status-snapshots';

const backends = await requireBackends(['postgres']);

/** A B2C goods sale from DE to FR in EUR. */
function message(accountId: bigint, sequence: number, eventId: string, occurredAt: string, net: bigint, id: string = randomUUID()): BusMessage {
  const supplyEvent = create(SupplyEventSchema, {
    id,
    accountId,
    sequence: BigInt(sequence),
    recordedAt: new Date(Date.UTC(2026, 10, 1, 0, 0, sequence)).toISOString(),
    eventId,
    eventType: 'sale',
    occurredAt,
    supplyKind: 'goods',
    customerType: 'b2c',
    countryOfConsumption: 'FR',
    dispatchCountry: 'DE',
    supplierEstablishmentCountry: 'DE',
    currency: 'EUR',
    netAmountMinor: net,
    vatAmountMinor: (net * 2000n) / 10000n,
    vatRateBps: 2000,
    rateCategory: 'standard',
    classificationStatus: 'classified',
  });
  const messageId = randomUUID();
  return { id: messageId, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, create(SupplyCommittedSchema, { eventId: messageId, supplyEvent })) };
}

const total = (s: { buckets: { netMinor: bigint }[] }) => s.buckets.reduce((t, b) => t + b.netMinor, 0n);

describe.skipIf(!backends.ok)('status snapshots: reused only while the projection position row stands still', () => {
  let h: ServiceHarness<ThresholdsDeps>;
  beforeAll(async () => {
    h = await startServiceHarness<ThresholdsDeps>('thresholds');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a repeated read reuses the snapshot; applied events (and only they) make it read again; accounts and days are apart', async () => {
    const consumer = thresholdsProjectionConsumer(h.deps);
    const repo = new Article59cStatusRepository(h.deps.pool);
    const aggregate = vi.spyOn(repo, 'snapshot');
    const cache = new StatusSnapshots(h.deps.pool, repo);
    const [a, b] = [7101n, 7102n];
    const a1 = message(a, 1, 'a1', '2026-01-10T00:00:00.000Z', 400_000n);
    await consumer.handler([a1, message(b, 1, 'b1', '2026-01-11T00:00:00.000Z', 5_000n)]);

    const first = await cache.get(a, [2026, 2025], '2026-11-01');
    expect(first).toEqual(await repo.snapshot(a, [2026, 2025], '2026-11-01'));
    expect(first.position).toBe(1n);
    expect(total(first)).toBe(400_000n);
    aggregate.mockClear();
    expect(await cache.get(a, [2026, 2025], '2026-11-01')).toBe(first); // the same object: no aggregation
    // A redelivered batch changes nothing (its ids are in the inbox): the snapshot still stands.
    await consumer.handler([a1]);
    expect(await cache.get(a, [2026, 2025], '2026-11-01')).toBe(first);
    expect(aggregate).not.toHaveBeenCalled();

    // A new event moves the position: read again (400,000 + 400,000 = 800,000 cents).
    await consumer.handler([message(a, 2, 'a2', '2026-02-10T00:00:00.000Z', 400_000n)]);
    const second = await cache.get(a, [2026, 2025], '2026-11-01');
    expect(aggregate).toHaveBeenCalledTimes(1);
    expect(second.position).toBe(2n);
    expect(total(second)).toBe(800_000n);

    // 800,000 + 300,000 = 1,100,000 > 1,000,000 (DE, EUR 10,000): the crossing arrives with the position.
    await consumer.handler([message(a, 3, 'a3', '2026-03-10T00:00:00.000Z', 300_000n)]);
    const third = await cache.get(a, [2026, 2025], '2026-11-01');
    expect(third).toEqual(await repo.snapshot(a, [2026, 2025], '2026-11-01'));
    expect(third.crossings.map((c) => c.eventId)).toEqual(['a3']);
    expect(total(third)).toBe(1_100_000n);

    // Another account, another cutoff day: their own entries.
    expect(total(await cache.get(b, [2026, 2025], '2026-11-01'))).toBe(5_000n);
    expect(total(await cache.get(a, [2026, 2025], '2026-02-01'))).toBe(400_000n); // the days up to 1 February only: a1
  });

  it('a classification decision that moves running totals (no new supply event) invalidates too', async () => {
    const repo = new Article59cStatusRepository(h.deps.pool);
    const aggregate = vi.spyOn(repo, 'snapshot');
    const cache = new StatusSnapshots(h.deps.pool, repo);
    const a = 7104n;
    const factId = randomUUID();
    await thresholdsProjectionConsumer(h.deps).handler([message(a, 1, 'c1', '2026-01-10T00:00:00.000Z', 100_000n, factId)]);
    expect((await cache.get(a, [2026, 2025], '2026-11-01')).buckets.map((b) => b.facts.classificationStatus)).toEqual(['classified']);
    // The decisions consumer moves the fact's amount to the needs_review running total and advances its
    // own counter (`decisions_applied`) in the position row; `applied` stays 1.
    const decided = create(ClassificationDecidedSchema, {
      eventId: randomUUID(),
      accountId: a,
      supplyEventId: factId,
      generation: 1,
      classificationStatus: 'needs_review',
      source: 'manual',
      decidedAt: '2026-11-01T00:00:00Z',
    });
    await thresholdsDecisionConsumer(h.deps).handler([{ id: decided.eventId, subject: 'vat.ledger.v1.classification_decided', data: toBinary(ClassificationDecidedSchema, decided) }]);
    aggregate.mockClear();
    const after = await cache.get(a, [2026, 2025], '2026-11-01');
    expect(aggregate).toHaveBeenCalledTimes(1);
    expect(after.position).toBe(1n);
    expect(after.buckets.filter((b) => b.eventCount > 0n).map((b) => b.facts.classificationStatus)).toEqual(['needs_review']);
    expect(after).toEqual(await repo.snapshot(a, [2026, 2025], '2026-11-01'));
  });

  it('keeps at most `max` entries, dropping the least recently used', async () => {
    const repo = new Article59cStatusRepository(h.deps.pool);
    const aggregate = vi.spyOn(repo, 'snapshot');
    const cache = new StatusSnapshots(h.deps.pool, repo, 2);
    await cache.get(7101n, [2026, 2025], '2026-11-01');
    await cache.get(7102n, [2026, 2025], '2026-11-01');
    await cache.get(7101n, [2026, 2025], '2026-11-01'); // used again: 7102 is now the oldest
    await cache.get(7103n, [2026, 2025], '2026-11-01'); // drops 7102
    aggregate.mockClear();
    await cache.get(7101n, [2026, 2025], '2026-11-01');
    expect(aggregate).not.toHaveBeenCalled();
    await cache.get(7102n, [2026, 2025], '2026-11-01');
    expect(aggregate).toHaveBeenCalledTimes(1);
  });
});
