import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { loadConfig } from '@vat/platform/config';
import { buildEvent } from '@vat/platform/events';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { waitFor } from '../../test/support/processes';
import { build } from '../src/build';

const backends = await requireBackends(['postgres']);

/**
 * The composition root subscribes every consumer of the process before any relay publishes: events
 * already in an outbox when the process starts reach the gateway's usage consumer.
 */
describe.skipIf(!backends.ok)('start order: consumers first, then the bus opens, then the relays', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let sql: pg.Client;
  const config = () => loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '10', DATABASE_URL: db.url });
  beforeAll(async () => {
    db = await freshDatabase();
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('events pending in the outbox at start-up are all counted by the usage consumer', async () => {
    const first = await build('all', config(), pino({ level: 'silent' }));
    const key = await first.gateway!.keys.create('start-order', 'full', false);
    await first.stop();
    const N = 40;
    for (let i = 0; i < N; i++) {
      const ev = buildEvent(CalculationRecordedSchema, { calculationId: randomUUID(), accountId: BigInt(key.account_id), apiKeyId: BigInt(key.id), recordedAt: new Date().toISOString() });
      await sql.query('insert into calculation.outbox (id, subject, payload, created_at, attempts) values ($1, $2, $3, now(), 0)', [ev.id, ev.subject, Buffer.from(ev.payload)]);
    }
    const second = await build('all', config(), pino({ level: 'silent' }));
    try {
      const state = async () => {
        const { rows } = await sql.query<{ n: string; pending: number }>(
          'select (select calculation_count::text from gateway.api_key where id = $1) as n, (select count(*)::int from calculation.outbox where published_at is null) as pending',
          [key.id],
        );
        return rows[0]!;
      };
      const drained = await waitFor('the outbox drained', async () => {
        const s = await state();
        return s.pending === 0 ? s : undefined;
      }, { timeoutMs: 15_000, intervalMs: 50 });
      expect(Number(drained.n)).toBe(N);
    } finally {
      await second.stop();
    }
  });
});
