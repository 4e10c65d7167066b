import { create, toBinary } from '@bufbuild/protobuf';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { requireBackends, freshDatabase } from '../../test/support/env';
import type { BusMessage } from '../src/bus';
import { projectionPosition, supplyProjectionConsumer } from '../src/supply-projection';

const backends = await requireBackends(['postgres']);

function committed(n: number, accountId = 7n): BusMessage {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const msg = create(SupplyCommittedSchema, {
    eventId: `msg-${n}`,
    supplyEvent: {
      id, accountId, sequence: BigInt(n), recordedAt: '2026-02-01T10:00:00.000Z', eventId: `e-${n}`, eventType: 'sale', occurredAt: '2026-02-01T00:00:00.000Z',
      supplyKind: 'goods', customerType: 'b2c', countryOfConsumption: 'DE', currency: 'EUR', netAmountMinor: 100n * BigInt(n), vatAmountMinor: 19n * BigInt(n),
      vatRateBps: 1900, rateCategory: 'standard', classificationStatus: 'classified',
    },
  });
  return { id: `msg-${n}`, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, msg) };
}

describe.skipIf(!backends.ok)('supply projection consumer (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await freshDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('applies each event once across redelivered batches and duplicates inside a batch; the position counts applied events', async () => {
    const consumer = supplyProjectionConsumer(pool, 'thresholds', 'test-projection');
    await consumer.handler([committed(1), committed(2)]);
    await consumer.handler([committed(2), committed(3), committed(3)]);
    await consumer.handler([committed(1)]);
    expect(await projectionPosition(pool, 'thresholds', 7n)).toBe(3n);
    const rows = (await pool.query(`select sequence::int, net_amount_minor::text from thresholds.supply_fact where account_id = 7 order by sequence`)).rows;
    expect(rows).toEqual([{ sequence: 1, net_amount_minor: '100' }, { sequence: 2, net_amount_minor: '200' }, { sequence: 3, net_amount_minor: '300' }]);
    expect(await projectionPosition(pool, 'thresholds', 8n)).toBe(0n);
  });

  it('a second consumer in the same schema keeps its own inbox (the same event ids apply for it too)', async () => {
    const other = supplyProjectionConsumer(pool, 'thresholds', 'another-consumer');
    await other.handler([committed(1, 9n)]);
    const inbox = (await pool.query(`select count(*)::int as n from thresholds.processed_event where event_id = 'msg-1'`)).rows[0].n;
    expect(inbox).toBe(2);
  });

  it('a failing batch leaves neither facts nor inbox rows (one statement)', async () => {
    const consumer = supplyProjectionConsumer(pool, 'thresholds', 'test-projection');
    const bad: BusMessage = { ...committed(50), data: new Uint8Array([1, 2, 3]) };
    await expect(consumer.handler([committed(40), bad])).rejects.toThrow();
    expect((await pool.query(`select count(*)::int as n from thresholds.processed_event where event_id = 'msg-40'`)).rows[0].n).toBe(0);
  });
});
