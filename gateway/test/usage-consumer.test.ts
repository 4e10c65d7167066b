import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { PER_REQUEST_EVENT_LINGER_MS, type BusMessage } from '@vat/platform/bus';
import { buildEvent } from '@vat/platform/events';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { KeyStore } from '../src/keys';
import { openGatewayOrm } from '../src/start';
import { usageConsumer } from '../src/usage-consumer';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('gateway usage consumer applies a batch of CalculationRecorded in one statement', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let orm: MikroORM;
  let pool: pg.Pool;
  let keys: KeyStore;
  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
    orm = await openGatewayOrm(db.url, 2);
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    keys = new KeyStore(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await orm?.close();
    await db?.drop();
  });

  const recorded = (apiKeyId: string, recordedAt: string, eventId = randomUUID()): BusMessage => {
    const ev = buildEvent(CalculationRecordedSchema, { eventId, calculationId: randomUUID(), accountId: 1n, apiKeyId: BigInt(apiKeyId), recordedAt });
    return { id: ev.id, subject: ev.subject, data: ev.payload };
  };
  const usage = async (account: string) =>
    Object.fromEntries((await keys.list(account)).map((k) => [k.id, { n: Number(k.calculation_count), last: k.last_calculation_at }]));

  it('lets a batch of a few events wait for more (one per stored calculation: fewer statements under load)', () => {
    expect(usageConsumer(pool).lingerMs).toBe(PER_REQUEST_EVENT_LINGER_MS);
    expect(PER_REQUEST_EVENT_LINGER_MS).toBeGreaterThan(0);
  });

  it('counts per key, once per event id: repeats inside a batch and across batches have no second effect', async () => {
    const a = await keys.create('usage-batch', 'full', false);
    const b = await keys.create('usage-batch', 'full', false);
    const consumer = usageConsumer(pool);
    const a1 = recorded(a.id, '2026-01-01T10:00:00.000Z');
    const a2 = recorded(a.id, '2026-01-03T10:00:00.000Z');
    const b1 = recorded(b.id, '2026-01-02T10:00:00.000Z');
    await consumer.handler([a1, b1, a2, a1, b1]);
    expect(await usage('usage-batch')).toEqual({
      [a.id]: { n: 2, last: '2026-01-03T10:00:00.000Z' },
      [b.id]: { n: 1, last: '2026-01-02T10:00:00.000Z' },
    });
    const a3 = recorded(a.id, '2026-01-02T00:00:00.000Z');
    await consumer.handler([a2, a3, b1]);
    await consumer.handler([a3]);
    expect(await usage('usage-batch')).toEqual({
      [a.id]: { n: 3, last: '2026-01-03T10:00:00.000Z' },
      [b.id]: { n: 1, last: '2026-01-02T10:00:00.000Z' },
    });
  });

  it('a failing batch leaves no inbox row and no count, so its redelivery counts every event', async () => {
    const k = await keys.create('usage-atomic', 'full', false);
    const consumer = usageConsumer(pool);
    const good = recorded(k.id, '2026-02-01T00:00:00.000Z');
    await expect(consumer.handler([good, recorded(k.id, 'not a timestamp')])).rejects.toThrow();
    expect((await usage('usage-atomic'))[k.id]!.n).toBe(0);
    await consumer.handler([good]);
    expect((await usage('usage-atomic'))[k.id]!.n).toBe(1);
  });
});
