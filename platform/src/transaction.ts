import type pg from 'pg';

/**
 * Runs `fn` in one transaction on a client of the pool (`begin read only` with `readOnly`): commits what
 * it returns, rolls back on any error (and rethrows), and always gives the client back. A body that
 * decides to write nothing simply returns: committing an empty transaction is the same as rolling it back.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>, opts: { readOnly?: boolean } = {}): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(opts.readOnly ? 'begin read only' : 'begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
