import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import pg from 'pg';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { outboxSupplyEvents } from '../../../test/support/ledger-outbox';

const backends = await requireBackends(['postgres']);

function sale(id: string, net = 10_000n): SupplyEventInput {
  return {
    eventId: id, eventType: 'sale', occurredAt: '2026-02-10', supplyKind: 'services', customerType: 'b2c', countryOfConsumption: 'DE',
    currency: 'EUR', netAmountMinor: net, vatAmountMinor: (net * 19n) / 100n, vatRateBps: 1900n, rateCategory: 'standard', classificationStatus: 'classified',
  } as SupplyEventInput;
}

/** Concurrent commits of one account (what a bulk import with several batches in flight does). */
describe.skipIf(!backends.ok)('CommitSupplyEvents under concurrency (PostgreSQL)', () => {
  let h: ServiceHarness;
  let db: pg.Pool;
  beforeAll(async () => {
    h = await startServiceHarness('ledger');
    db = new pg.Pool({ connectionString: h.service.deps.databaseUrl, max: 2 });
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  it('overlapping batches in flight: each event stored once, positions 1..N without a gap, repeats reported as existing', async () => {
    const ledger = h.client(SupplyLedgerService);
    const as = h.as({ accountId: 501n });
    // 8 batches of 300 over ids 0..1199: every id is sent by two batches.
    const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 300 }, (_, i) => sale(`c-${(b * 150 + i) % 1200}`)));
    const results = await Promise.all(batches.map((events) => ledger.commitSupplyEvents({ events }, as)));
    const created = results.flatMap((r) => r.items.filter((i) => i.created));
    expect(created).toHaveLength(1200);
    expect(new Set(created.map((i) => i.event!.eventId)).size).toBe(1200);
    const { rows } = await db.query<{ n: number; ids: number; max: string }>(
      `select count(*)::int as n, count(distinct event_id)::int as ids, max(sequence)::text as max from ledger.supply_event where account_id = 501`,
    );
    expect(rows[0]).toEqual({ n: 1200, ids: 1200, max: '1200' });
    // Each event published once, in SupplyCommitted messages of at most 250 events (a commit of 300 new events is two).
    const outbox = await outboxSupplyEvents(db);
    expect({ events: outbox.events, ids: outbox.ids }).toEqual({ events: 1200, ids: 1200 });
    expect(outbox.largest).toBeLessThanOrEqual(250);
    expect(outbox.messages).toBeLessThanOrEqual(16);
    expect((await ledger.getLedgerHead({}, as)).sequence).toBe(1200n);
  });

  it('one event_id with two contents in concurrent batches: one commits, the other is refused as supply_event_conflict', async () => {
    const ledger = h.client(SupplyLedgerService);
    const as = h.as({ accountId: 502n });
    const outcomes = await Promise.allSettled([1n, 2n, 3n, 4n].map((k) => ledger.commitSupplyEvents({ events: [sale(`x-${k}`), sale('same', 10_000n * k)] }, as)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(ConnectError.from(o.reason).code).toBe(Code.AlreadyExists);
    const { rows } = await db.query<{ n: number; max: string }>('select count(*)::int as n, max(sequence)::text as max from ledger.supply_event where account_id = 502');
    expect(rows[0]).toEqual({ n: 2, max: '2' });
  });
});
