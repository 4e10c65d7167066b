import type pg from 'pg';

/**
 * pg-pool keeps a client checked out until its holder releases it, and Kysely (under MikroORM) never
 * releases a transaction's client when `begin`, `commit` or `rollback` fails, which is what happens
 * when the connection drops. Every outage would leak clients until the pool is exhausted (every call
 * then waits forever, and closing the ORM never returns). A client whose connection ended while
 * checked out is therefore released with an error after `graceMs`, which removes it from the pool.
 * A connection error that reaches a client with no query to fail (one the pool is ending, or one
 * checked out between statements) is only logged by the pool's own handlers: without a listener of
 * its own the client would throw it as an uncaught exception and end the process.
 */
export function releaseDeadClients(pool: pg.Pool, graceMs = 2_000): void {
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    client.once('end', () => {
      setTimeout(() => {
        const held = client as pg.PoolClient;
        if (!checkedOut.delete(held)) return;
        held.release(new Error('connection ended while checked out'));
      }, graceMs).unref();
    });
  });
}
