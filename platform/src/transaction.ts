import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * The transaction open in the current async context, if any. `open` turns false at commit or rollback, so
 * work that was merely scheduled inside the transaction (a timer, a relay kick) is not refused after it.
 */
type OpenTransaction = { open: boolean };
const current = new AsyncLocalStorage<OpenTransaction>();

/**
 * Thrown when code tries to reach anything but its own transaction's connection while that transaction is
 * open: another service (RPC), the event bus, another connection of a pool, or a second transaction. The
 * embedded database serves one PostgreSQL session, so such a call waits for the transaction that waits for
 * it and the whole process freezes; on PostgreSQL it holds locks across a network call. Fetch what the
 * transaction needs before `begin`, publish through the outbox, and call after `commit`.
 */
export class OpenTransactionError extends Error {
  constructor(what: string) {
    super(`refused: ${what} while a database transaction is open (it would wait for the transaction that waits for it on the embedded database's single session). Do it before the transaction begins or after it commits.`);
    this.name = 'OpenTransactionError';
  }
}

/** True while the calling async context is inside `inTransaction`'s body. */
export function insideTransaction(): boolean {
  return current.getStore()?.open === true;
}

/** Throws `OpenTransactionError` when called inside an open transaction (see there for why). */
export function assertNoOpenTransaction(what: string): void {
  if (insideTransaction()) throw new OpenTransactionError(what);
}

/**
 * Runs `fn` in one transaction on a client of the pool (`begin read only` with `readOnly`): commits what
 * it returns, rolls back on any error (and rethrows), and always gives the client back. A body that
 * decides to write nothing simply returns: committing an empty transaction is the same as rolling it back.
 * While `fn` runs, RPC calls, bus publishes and other connections are refused (`OpenTransactionError`).
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>, opts: { readOnly?: boolean } = {}): Promise<T> {
  assertNoOpenTransaction('opening a second transaction');
  const client = await pool.connect();
  try {
    return await transactionScope(async () => {
      await client.query(opts.readOnly ? 'begin read only' : 'begin');
      const result = await fn(client);
      await client.query('commit');
      return result;
    });
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Marks `body` as running inside an open transaction (the guard of `inTransaction`), for a transaction
 * opened another way (MikroORM's `em.transactional`): RPC calls, publishes and other connections are refused.
 */
export async function transactionScope<T>(body: () => Promise<T>): Promise<T> {
  assertNoOpenTransaction('opening a second transaction');
  const tx: OpenTransaction = { open: true };
  try {
    return await current.run(tx, body);
  } finally {
    tx.open = false;
  }
}

/**
 * Makes `pool` refuse to hand out a connection (`connect`, and so `query`) inside an open transaction:
 * the transaction's own client is the only connection its body may use. Applied to every service's pool.
 */
export function guardPool(pool: pg.Pool): pg.Pool {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    if (insideTransaction()) {
      const err = new OpenTransactionError('taking another connection from the pool');
      const cb = args[0];
      if (typeof cb === 'function') return void cb(err);
      return Promise.reject(err);
    }
    return connect(...args);
  };
  return pool;
}
