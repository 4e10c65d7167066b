import { create, toBinary } from '@bufbuild/protobuf';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { requireBackends, freshDatabase } from '../../test/support/env';
import type { BusMessage } from '../src/bus';
import fc from 'fast-check';
import { groupsBySize, supplyEventsIn, supplyGroups } from '../src/supply-committed';
import { projectionPosition, supplyProjectionConsumer } from '../src/supply-projection';

const backends = await requireBackends(['postgres']);

const supplyEvent = (n: number, accountId: bigint) => {
  const id = `00000000-0000-4000-8${String(accountId).padStart(3, '0')}-${String(n).padStart(12, '0')}`;
  return {
      id, accountId, sequence: BigInt(n), recordedAt: '2026-02-01T10:00:00.000Z', eventId: `e-${n}`, eventType: 'sale', occurredAt: '2026-02-01T00:00:00.000Z',
      supplyKind: 'goods', customerType: 'b2c', countryOfConsumption: 'DE', currency: 'EUR', netAmountMinor: 100n * BigInt(n), vatAmountMinor: 19n * BigInt(n),
      vatRateBps: 1900, rateCategory: 'standard', classificationStatus: 'classified',
  };
};

/** One event in a message of its own (`supply_event`: how versions before chunked messages published). */
function committed(n: number, accountId = 7n): BusMessage {
  const msg = create(SupplyCommittedSchema, { eventId: `msg-${n}`, supplyEvent: supplyEvent(n, accountId) });
  return { id: `msg-${n}`, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, msg) };
}

/** Events `from`..`to` in one message (`supply_events`: how the ledger publishes a chunk of a commit). */
function chunk(from: number, to: number, accountId = 7n): BusMessage {
  const events = Array.from({ length: to - from + 1 }, (_, i) => supplyEvent(from + i, accountId));
  const msg = create(SupplyCommittedSchema, { eventId: `chunk-${accountId}-${from}`, supplyEvents: events });
  return { id: `chunk-${accountId}-${from}`, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, msg) };
}

describe('SupplyCommitted messages: counting and grouping', () => {
  it('counts the events a message carries from its wire tags, both forms', () => {
    expect(supplyEventsIn(committed(1).data)).toBe(1);
    expect(supplyEventsIn(chunk(1, 250).data)).toBe(250);
    expect(supplyEventsIn(toBinary(SupplyCommittedSchema, create(SupplyCommittedSchema, { eventId: 'empty' })))).toBe(0);
  });

  it('groups keep every item whole and in order, at most the limit in total unless one item alone is larger (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 300 }), { maxLength: 60 }), fc.integer({ min: 1, max: 2500 }), (sizes, max) => {
        const items = sizes.map((n, i) => ({ i, n }));
        const groups = groupsBySize(items, (x) => x.n, max);
        expect(groups.flat()).toEqual(items);
        const total = (g: { n: number }[]) => g.reduce((a, x) => a + x.n, 0);
        for (const g of groups) {
          expect(g.length).toBeGreaterThan(0);
          if (g.length > 1) expect(total(g)).toBeLessThanOrEqual(max);
        }
        // Greedy: a group and the next item together exceed the limit.
        for (let i = 0; i + 1 < groups.length; i++) expect(total(groups[i]!) + groups[i + 1]![0]!.n).toBeGreaterThan(max);
      }),
    );
  });

  it('supply groups count the events of each message from the wire', () => {
    const sizes = (groups: BusMessage[][]) => groups.map((g) => g.map((m) => supplyEventsIn(m.data)));
    expect(sizes(supplyGroups([chunk(1, 250), chunk(251, 500), committed(501), chunk(502, 751)], 501))).toEqual([[250, 250, 1], [250]]);
  });
});

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

  it('a message of many events applies them all once; redelivered with an old single-event message, nothing twice', async () => {
    const consumer = supplyProjectionConsumer(pool, 'thresholds', 'test-projection');
    await consumer.handler([chunk(1, 250, 21n), chunk(251, 300, 21n)]);
    await consumer.handler([chunk(251, 300, 21n), committed(301, 21n), chunk(1, 250, 21n)]);
    expect(await projectionPosition(pool, 'thresholds', 21n)).toBe(301n);
    const r = (await pool.query(`select count(*)::int as n, count(distinct sequence)::int as seqs, sum(net_amount_minor)::text as net from thresholds.supply_fact where account_id = 21`)).rows[0];
    // Net 100 × n for n = 1..301: 100 × 301 × 302 / 2 = 4,545,100.
    expect(r).toEqual({ n: 301, seqs: 301, net: '4545100' });
    // The inbox holds a row per message, not per event.
    expect((await pool.query(`select count(*)::int as n from thresholds.processed_event where consumer = 'test-projection' and (event_id like 'chunk-21-%' or event_id = 'msg-301')`)).rows[0].n).toBe(3);
  });

  it('a pulled batch of more than 2,000 events is applied in groups of whole messages', async () => {
    // The consumer's pool, counting its statements (one per group).
    let statements = 0;
    const counting = { query: (sql: string, values: unknown[]) => (statements++, pool.query(sql, values)) } as unknown as pg.Pool;
    const consumer = supplyProjectionConsumer(counting, 'thresholds', 'test-projection');
    // Nine messages of 250 events: 2,250 events, applied as 8 messages (2,000) and 1.
    await consumer.handler(Array.from({ length: 9 }, (_, i) => chunk(i * 250 + 1, i * 250 + 250, 22n)));
    expect(statements).toBe(2);
    expect(await projectionPosition(pool, 'thresholds', 22n)).toBe(2250n);
  });

  it('a failing batch leaves neither facts nor inbox rows (one statement)', async () => {
    const consumer = supplyProjectionConsumer(pool, 'thresholds', 'test-projection');
    const bad: BusMessage = { ...committed(50), data: new Uint8Array([1, 2, 3]) };
    await expect(consumer.handler([committed(40), bad])).rejects.toThrow();
    expect((await pool.query(`select count(*)::int as n from thresholds.processed_event where event_id = 'msg-40'`)).rows[0].n).toBe(0);
  });
});
