import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import pg from 'pg';
import { fromBinary, toJson } from '@bufbuild/protobuf';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { EcbRateEvidenceSchema, type SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import { outboxSupplyEvents } from '../../../test/support/ledger-outbox';

const backends = await requireBackends(['postgres']);

function sale(id: string, net = 10_000n, more: Partial<SupplyEventInput> = {}): SupplyEventInput {
  return {
    eventId: id, eventType: 'sale', occurredAt: '2026-02-10', supplyKind: 'services', customerType: 'b2c', countryOfConsumption: 'DE',
    currency: 'EUR', netAmountMinor: net, vatAmountMinor: (net * 19n) / 100n, vatRateBps: 1900n, rateCategory: 'standard', classificationStatus: 'classified',
    ...more,
  } as SupplyEventInput;
}

/** Concurrent commits of one account (what a bulk import with several batches in flight does), and what a commit answers. */
describe.skipIf(!backends.ok)('CommitSupplyEvents (PostgreSQL)', () => {
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

  // The answer leaves each event's ECB evidence out (the gateway never shows it; about nine rates per event); the
  // SupplyCommitted events, which the projections convert with, and GetSupplyEvent carry it as stored.
  it('the answer without ECB evidence; SupplyCommitted and GetSupplyEvent with each event\'s stored evidence, days sharing theirs', async () => {
    const ledger = h.client(SupplyLedgerService);
    const as = h.as({ accountId: 701n });
    const events = [sale('ev-1', 10_000n, { occurredAt: '2026-02-27' }), sale('ev-2', 10_000n, { occurredAt: '2026-02-28', currency: 'USD' }), sale('ev-3', 10_000n, { occurredAt: '2026-03-03' }), sale('ev-4', 10_000n, { occurredAt: '2026-02-28T23:59:59Z', currency: 'SEK' })];
    const res = await ledger.commitSupplyEvents({ events }, as);
    expect(res.items.map((i) => [i.event!.eventId, i.created])).toEqual(events.map((e) => [e.eventId, true]));
    expect(res.items.map((i) => i.event!.ecbRateEvidence)).toEqual([undefined, undefined, undefined, undefined]);

    const stored = new Map(
      (await db.query(`select event_id, ecb_rate_evidence from ledger.supply_event where account_id = 701`)).rows.map((r) => [r.event_id as string, r.ecb_rate_evidence as { rateDate: string; ratesPerEur: Record<string, string> }]),
    );
    expect(stored.size).toBe(4);
    for (const e of stored.values()) expect(Object.keys(e.ratesPerEur).length).toBeGreaterThanOrEqual(6);
    // Both events of 2026-02-28 carry the day's evidence, USD included (one event of that day is in USD).
    expect(stored.get('ev-2')).toEqual(stored.get('ev-4'));
    expect(Object.keys(stored.get('ev-2')!.ratesPerEur)).toContain('USD');
    expect(Object.keys(stored.get('ev-1')!.ratesPerEur)).not.toContain('USD');

    const payloads = (await db.query(`select payload from ledger.outbox where subject = 'vat.ledger.v1.supply_committed'`)).rows.map((r) => fromBinary(SupplyCommittedSchema, r.payload as Buffer));
    const carried = payloads.flatMap((m) => m.supplyEvents).filter((e) => e.accountId === 701n);
    expect(carried.map((e) => e.eventId).sort()).toEqual(['ev-1', 'ev-2', 'ev-3', 'ev-4']);
    for (const e of carried) expect(toJson(EcbRateEvidenceSchema, e.ecbRateEvidence!)).toEqual(stored.get(e.eventId));

    for (const item of res.items) {
      const got = await ledger.getSupplyEvent({ id: item.event!.id }, as);
      expect(toJson(EcbRateEvidenceSchema, got.event!.ecbRateEvidence!)).toEqual(stored.get(item.event!.eventId));
    }
  });
});
