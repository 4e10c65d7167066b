import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouterTransport } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import pg from 'pg';
import { GetReadinessResponseSchema, ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { InProcessBus } from '../src/bus';
import { createClients } from '../src/clients';
import { guardPool, inTransaction, insideTransaction, OpenTransactionError } from '../src/transaction';
import { freshDatabase, requireBackends } from '../../test/support/env';

const backends = await requireBackends(['postgres']);

/**
 * The mechanical guard of issue 27: inside `inTransaction`'s body only the transaction's own client may
 * be used. An RPC, a bus publish, another connection of the pool or a second transaction is refused at
 * once (on the embedded database's single session each of them would wait for ever).
 */
describe.skipIf(!backends.ok)('no call, publish or other connection while a transaction is open', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  let served = 0;
  const clients = createClients(() =>
    createRouterTransport((router) =>
      router.service(ReadinessService, {
        async getReadiness() {
          served++;
          return create(GetReadinessResponseSchema, { service: 'ledger', ready: true, checks: [] });
        },
      }),
    ),
  );

  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
    pool = guardPool(new pg.Pool({ connectionString: db.url, max: 4 }));
    await pool.query('create table t (n int not null)');
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** Runs `body` inside a transaction that first inserts a row; returns what it threw and whether the row survived. */
  async function attempt(body: () => Promise<unknown>): Promise<{ err: unknown; rows: number }> {
    await pool.query('delete from t');
    const err = await inTransaction(pool, async (client) => {
      await client.query('insert into t values (1)');
      expect(insideTransaction()).toBe(true);
      await body();
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const rows = (await pool.query('select count(*)::int as n from t')).rows[0].n as number;
    return { err, rows };
  }

  it('an RPC to another service is refused and the transaction rolled back; the service never sees the call', async () => {
    const { err, rows } = await attempt(() => clients.readiness.ledger.getReadiness({}));
    expect(err).toBeInstanceOf(OpenTransactionError);
    expect((err as Error).message).toMatch(/calling vat\.platform\.v1\.ReadinessService\/GetReadiness .*while a database transaction is open/);
    expect(served).toBe(0);
    expect(rows).toBe(0);
    // Outside a transaction the same call goes through.
    expect((await clients.readiness.ledger.getReadiness({})).ready).toBe(true);
    expect(served).toBe(1);
  });

  it('publishing to the bus is refused', async () => {
    const bus = new InProcessBus();
    bus.open();
    const { err, rows } = await attempt(() => bus.publish([{ id: 'e1', subject: 'vat.test.v1.x', data: new Uint8Array() }]));
    expect(err).toBeInstanceOf(OpenTransactionError);
    expect((err as Error).message).toMatch(/publishing to the event bus/);
    expect(rows).toBe(0);
    expect(await bus.publish([{ id: 'e1', subject: 'vat.test.v1.x', data: new Uint8Array() }])).toEqual(['e1']);
  });

  it('another connection of the pool (pool.query or pool.connect) is refused', async () => {
    const viaQuery = await attempt(() => pool.query('select 1'));
    expect(viaQuery.err).toBeInstanceOf(OpenTransactionError);
    expect((viaQuery.err as Error).message).toMatch(/taking another connection from the pool/);
    expect(viaQuery.rows).toBe(0);
    const viaConnect = await attempt(() => pool.connect());
    expect(viaConnect.err).toBeInstanceOf(OpenTransactionError);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('a second transaction inside the first is refused', async () => {
    const { err, rows } = await attempt(() => inTransaction(pool, async (c) => c.query('select 1')));
    expect(err).toBeInstanceOf(OpenTransactionError);
    expect((err as Error).message).toMatch(/opening a second transaction/);
    expect(rows).toBe(0);
  });

  it('the transaction\'s own client works, and work merely scheduled inside runs freely after commit', async () => {
    let later: Promise<number> | undefined;
    const n = await inTransaction(pool, async (client) => {
      await client.query('insert into t values (2)');
      later = new Promise((resolve, reject) => setTimeout(() => pool.query('select count(*)::int as n from t where n = 2').then((r) => resolve(r.rows[0].n), reject), 20));
      return (await client.query('select count(*)::int as n from t where n = 2')).rows[0].n as number;
    });
    expect(n).toBe(1);
    expect(insideTransaction()).toBe(false);
    expect(await later).toBe(1);
  });
});
