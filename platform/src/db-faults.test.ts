import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient, createRouterTransport } from '@connectrpc/connect';
import { DriverException } from '@mikro-orm/core';
import pg, { DatabaseError } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalculationService, ExportTransactionsResponseSchema } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { GetReadinessResponseSchema, ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { freshDatabase, PG_SERVER_URL, requireBackends } from '../../test/support/env';
import { databaseFaultInterceptor, isDatabaseUnavailable } from './db-faults';
import { reasonOf } from './rpc-errors';

const backends = await requireBackends(['postgres']);

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

/** A server error as pg reports it (pg-protocol's DatabaseError with code and severity). */
function serverError(code: string, severity: string, message: string): unknown {
  return Object.assign(new DatabaseError(message, message.length, 'error'), { code, severity });
}

/** Real driver errors, each produced the way an outage produces it. */
const faults: Record<string, () => Promise<unknown>> = {
  'connection refused': () => caught(new pg.Client({ host: '127.0.0.1', port: 1, user: 'postgres' }).connect()),
  'connection refused, wrapped by MikroORM': async () => new DriverException((await caught(new pg.Client({ host: '127.0.0.1', port: 1, user: 'postgres' }).connect())) as Error),
  'server terminating the session (57P01)': async () => {
    const c = new pg.Client({ connectionString: PG_SERVER_URL });
    c.on('error', () => undefined);
    await c.connect();
    const err = await caught(c.query('select pg_terminate_backend(pg_backend_pid())'));
    await c.end().catch(() => undefined);
    return err;
  },
  'query on a connection the server dropped': async () => {
    const c = new pg.Client({ connectionString: PG_SERVER_URL });
    c.on('error', () => undefined);
    await c.connect();
    await caught(c.query('select pg_terminate_backend(pg_backend_pid())'));
    return caught(c.query('select 1'));
  },
  'database not accepting connections (55000, allow_connections false)': async () => {
    const db = await freshDatabase({ prefix: 'vat_faults', empty: true });
    const admin = new pg.Client({ connectionString: PG_SERVER_URL });
    await admin.connect();
    await admin.query(`alter database ${db.name} allow_connections false`);
    const err = await caught(new pg.Client({ connectionString: db.url }).connect());
    await admin.query(`alter database ${db.name} allow_connections true`);
    await admin.end();
    await db.drop();
    return err;
  },
  'database not accepting connections, wrapped by MikroORM': async () => {
    const db = await freshDatabase({ prefix: 'vat_faults', empty: true });
    const admin = new pg.Client({ connectionString: PG_SERVER_URL });
    await admin.connect();
    await admin.query(`alter database ${db.name} allow_connections false`);
    const err = await caught(new pg.Client({ connectionString: db.url }).connect());
    await admin.query(`alter database ${db.name} allow_connections true`);
    await admin.end();
    await db.drop();
    return new DriverException(err as Error);
  },
  // Errors the shared test server cannot be made to produce without disturbing others, as PostgreSQL sends them.
  'too many clients (53300)': async () => serverError('53300', 'FATAL', 'sorry, too many clients already'),
  'starting up (57P03)': async () => serverError('57P03', 'FATAL', 'the database system is starting up'),
  'shutting down (57P01, ERROR severity as a pooler relays it)': async () => serverError('57P01', 'ERROR', 'terminating connection due to administrator command'),
  'database dropped under the session (57P04)': async () => serverError('57P04', 'FATAL', 'terminating connection because the database was dropped'),
  'connection failure (08006)': async () => serverError('08006', 'ERROR', 'connection failure'),
  'no pooled connection in time': async () => {
    const pool = new pg.Pool({ connectionString: PG_SERVER_URL, max: 1, connectionTimeoutMillis: 50 });
    const held = await pool.connect();
    const err = await caught(pool.query('select 1'));
    held.release();
    await pool.end();
    return err;
  },
};

/** Errors that are the statement's fault, not the database's absence. */
const notFaults: Record<string, () => Promise<unknown>> = {
  'syntax error (42601)': async () => {
    const c = new pg.Client({ connectionString: PG_SERVER_URL });
    await c.connect();
    const err = await caught(c.query('selec 1'));
    await c.end();
    return err;
  },
  'unique violation (23505), wrapped by MikroORM': async () => {
    const c = new pg.Client({ connectionString: PG_SERVER_URL });
    await c.connect();
    await c.query('create temp table t (x int primary key); insert into t values (1)');
    const err = await caught(c.query('insert into t values (1)'));
    await c.end();
    return new DriverException(err as Error);
  },
  'object not in prerequisite state inside a statement (55000, ERROR)': async () => {
    const c = new pg.Client({ connectionString: PG_SERVER_URL });
    await c.connect();
    await c.query('create temp sequence s');
    const err = await caught(c.query(`select currval('s')`));
    await c.end();
    return err;
  },
  'an ordinary bug': async () => new TypeError('cannot read properties of undefined'),
};

describe.skipIf(!backends.ok)('database faults', () => {
  const made = new Map<string, unknown>();
  beforeAll(async () => {
    for (const [name, make] of [...Object.entries(faults), ...Object.entries(notFaults)]) made.set(name, await make());
  });

  it.each(Object.keys(faults))('recognises %s as the database being unavailable', (name) => {
    expect(isDatabaseUnavailable(made.get(name)), String(made.get(name))).toBe(true);
  });

  it.each(Object.keys(notFaults))('does not take %s for an outage', (name) => {
    expect(isDatabaseUnavailable(made.get(name)), String(made.get(name))).toBe(false);
  });

  describe('interceptor', () => {
    let failWith: unknown;
    const transport = createRouterTransport(
      (router) => {
        router.service(ReadinessService, {
          async getReadiness() {
            if (failWith !== undefined) throw failWith;
            return create(GetReadinessResponseSchema, { service: 'x', ready: true });
          },
        });
        router.service(CalculationService, {
          async *exportTransactions() {
            yield create(ExportTransactionsResponseSchema, { csvChunk: 'header\n' });
            throw failWith;
          },
        });
      },
      { router: { interceptors: [databaseFaultInterceptor()] } },
    );
    afterAll(() => {
      failWith = undefined;
    });

    it.each(Object.keys(faults))('answers Unavailable service_unavailable for %s (unary), and the next call works', async (name) => {
      failWith = made.get(name);
      const err = ConnectError.from(await caught(createClient(ReadinessService, transport).getReadiness({})));
      expect(err.code).toBe(Code.Unavailable);
      expect(reasonOf(err)).toBe('service_unavailable');
      expect(err.rawMessage).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|terminat/i);
      failWith = undefined;
      expect((await createClient(ReadinessService, transport).getReadiness({})).ready).toBe(true);
    });

    it('answers Unavailable when a stream fails part-way', async () => {
      failWith = made.get('server terminating the session (57P01)');
      const chunks: string[] = [];
      const err = ConnectError.from(
        await caught(
          (async () => {
            for await (const m of createClient(CalculationService, transport).exportTransactions({})) chunks.push(m.csvChunk);
          })(),
        ),
      );
      expect(chunks).toEqual(['header\n']);
      expect(err.code).toBe(Code.Unavailable);
      expect(reasonOf(err)).toBe('service_unavailable');
    });

    it.each(Object.keys(notFaults))('leaves %s as it was', async (name) => {
      failWith = made.get(name);
      const err = ConnectError.from(await caught(createClient(ReadinessService, transport).getReadiness({})));
      expect(err.code).not.toBe(Code.Unavailable);
      expect(reasonOf(err)).toBeUndefined();
    });
  });
});
