import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary, toJson } from '@bufbuild/protobuf';
import pg from 'pg';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { EcbRateEvidenceSchema, type SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';

const backends = await requireBackends(['postgres']);

function sale(id: string, occurredAt: string, currency = 'EUR'): SupplyEventInput {
  return {
    eventId: id, eventType: 'sale', occurredAt, supplyKind: 'services', customerType: 'b2c', countryOfConsumption: 'DE',
    currency, netAmountMinor: 10_000n, vatAmountMinor: 1_900n, vatRateBps: 1900n, rateCategory: 'standard', classificationStatus: 'classified',
  } as SupplyEventInput;
}

/**
 * The commit's answer leaves each event's ECB evidence out (the gateway never shows it; it is about nine rates per
 * event); the `SupplyCommitted` events, which the projections convert with, and GetSupplyEvent carry it as stored.
 */
describe.skipIf(!backends.ok)('CommitSupplyEvents: the ECB evidence in the answer and in SupplyCommitted (PostgreSQL)', () => {
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

  it('answer without evidence; SupplyCommitted and GetSupplyEvent with each event\'s stored evidence, days sharing theirs', async () => {
    const ledger = h.client(SupplyLedgerService);
    const as = h.as({ accountId: 701n });
    const events = [sale('ev-1', '2026-02-27'), sale('ev-2', '2026-02-28', 'USD'), sale('ev-3', '2026-03-03'), sale('ev-4', '2026-02-28T23:59:59Z', 'SEK')];
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
