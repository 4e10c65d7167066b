import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { SERVICE_NAMES, loadConfig } from '@vat/platform/config';
import { buildEvent } from '@vat/platform/events';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { waitFor } from '../../test/support/processes';
import { build } from '../src/build';

const backends = await requireBackends(['postgres']);

/**
 * The one process's start on PostgreSQL (deploy/src/build.ts). The composition root subscribes every consumer of the
 * process before any relay publishes: events already in an outbox when the process starts reach the gateway's usage
 * consumer. The five services start side by side; one that fails to start (here the thresholds service: a migration
 * of its schema that PostgreSQL refuses) fails the whole start with its own error, and leaves nothing behind: neither
 * its own pool nor those of the services that started beside it.
 */
describe.skipIf(!backends.ok)('one process on PostgreSQL: its start', () => {
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
  const sessions = async () => (await sql.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [db.name])).rows[0]!.n;

  it('consumers first, then the bus opens, then the relays: events pending in the outbox at start-up are all counted by the usage consumer', async () => {
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

  it('every service runs, in the order of SERVICE_NAMES, and answers from its schema', async () => {
    const built = await build('all', config(), pino({ level: 'silent' }));
    try {
      expect(built.services.map((s) => s.module.name)).toEqual([...SERVICE_NAMES]);
      for (const s of built.services) expect((await s.readiness()).ready, s.module.name).toBe(true);
    } finally {
      await built.stop();
    }
  });

  it('a service that fails to start fails the start with its error, and no pool is left open', async () => {
    // One of its migrations counted as not applied: running it again meets the table it created.
    const migration = 'Migration20261201112518';
    expect((await sql.query('delete from thresholds.mikro_orm_migrations where name = $1', [migration])).rowCount).toBe(1);
    try {
      const failure = await build('all', config(), pino({ level: 'silent' })).then(
        async (built) => {
          await built.stop();
          return 'started';
        },
        (err: unknown) => String(err),
      );
      expect(failure).toMatch(/article59c_rate_doc" already exists/);
      await waitFor('every session of the failed start closed', async () => ((await sessions()) === 0 ? true : undefined), { timeoutMs: 5_000, intervalMs: 50 });
      expect(await sessions()).toBe(0);
    } finally {
      await sql.query('insert into thresholds.mikro_orm_migrations (name, executed_at) values ($1, now())', [migration]);
    }
    // Repaired, the same database starts.
    const built = await build('all', config(), pino({ level: 'silent' }));
    await built.stop();
  });
});
