import pg from 'pg';
import { CONNECT_TIMEOUT_MS, IDLE_IN_TRANSACTION_MS, LOCK_WAIT_MS } from '@vat/platform/db-limits';
import { pendingMigrationNames } from '@vat/platform/migration-state';
import { MIGRATION_NAMES } from './migrations/names';
import { GATEWAY_SCHEMA, KeyStore } from './keys';

/**
 * The key store for the admin CLI (`keys …`, `integrations create`, `supply import`'s account lookup) on a pool of its
 * own. When the gateway's schema is current (one query) no ORM is made: MikroORM's metadata discovery and the
 * loading of its modules were a third of `admin keys create` (docs/benchmarks.md). A database that is new, or older
 * than this code, is first given to `migrate` (the gateway's ORM migrates it, as the gateway's start would: ./orm's
 * `migrateGateway`); this module does not load the ORM itself, so the key commands' bundle holds none of it.
 */
export async function openKeyAdmin(databaseUrl: string, migrate: (databaseUrl: string) => Promise<void>): Promise<{ keys: KeyStore; close(): Promise<void> }> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 2,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    lock_timeout: LOCK_WAIT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    application_name: `vat-${GATEWAY_SCHEMA}-admin`,
  });
  // An idle connection the server ends is dropped from the pool; the next statement reports a lasting failure.
  pool.on('error', () => undefined);
  try {
    if ((await pendingMigrationNames(pool, GATEWAY_SCHEMA, MIGRATION_NAMES)).length > 0) await migrate(databaseUrl);
  } catch (err) {
    await pool.end();
    throw err;
  }
  return { keys: new KeyStore(pool), close: () => pool.end() };
}
