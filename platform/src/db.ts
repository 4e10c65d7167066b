import { MikroORM, type EntitySchema, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import { releaseDeadClients } from './dead-clients';
import { guardPool } from './transaction';
import { allowNamedStatements } from './prepared';
import { DeadlineExceeded, READINESS_PROBE_MS, withDeadline } from './deadline';
import { CONNECT_TIMEOUT_MS, IDLE_IN_TRANSACTION_MS, LOCK_WAIT_MS } from './db-limits';
import { MIGRATIONS_TABLE, pendingMigrationNames } from './migration-state';

export type ServiceOrm = MikroORM;

type OrmOptions = {
  clientUrl: string;
  schema: string;
  entities: EntitySchema<any, any>[];
  migrations: (new (...args: any[]) => Migration)[];
  migrationsPath?: string;
  poolMax?: number;
  debug?: boolean;
  /** PostgreSQL `lock_timeout` (default LOCK_WAIT_MS; the configuration's DATABASE_WAIT_MS). */
  lockWaitMs?: number;
  /** Named statements on this pool where its connections are sessions of their own (default true; platform/src/prepared.ts). */
  namedStatements?: boolean;
  /** How long an idle connection stays open (ms; the configuration's DATABASE_IDLE_MS for servers; default: pg's 10 s). */
  idleMs?: number;
};

export { CONNECT_TIMEOUT_MS, IDLE_IN_TRANSACTION_MS, LOCK_WAIT_MS } from './db-limits';

/** One ORM per service, its default schema being the service's own PostgreSQL schema. */
export async function createOrm(o: OrmOptions): Promise<ServiceOrm> {
  const options: Options = {
    clientUrl: o.clientUrl,
    schema: o.schema,
    entities: o.entities,
    extensions: [Migrator],
    pool: { min: 0, max: o.poolMax ?? 10, ...(o.idleMs !== undefined ? { idleTimeoutMillis: o.idleMs } : {}) },
    driverOptions: {
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // PostgreSQL ends a session left idle inside a transaction, and a statement waiting for a lock gives
      // up (55P03, answered 503): a stuck holder cannot stall every other caller for ever.
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
      lock_timeout: o.lockWaitMs ?? LOCK_WAIT_MS,
      // Names the service in pg_stat_activity (and the ingestion bench's PostgreSQL CPU per service).
      application_name: `vat-${o.schema}`,
      onPoolCreated: (pool: pg.Pool) => {
        releaseDeadClients(pool);
        guardPool(pool);
        if (o.namedStatements !== false) allowNamedStatements(pool, o.clientUrl);
      },
    },
    debug: o.debug ?? false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    migrations: {
      tableName: MIGRATIONS_TABLE,
      schema: o.schema,
      migrationsList: o.migrations,
      path: o.migrationsPath,
      pathTs: o.migrationsPath,
      snapshotName: `.snapshot-${o.schema}`,
      snapshotOnMigrate: false,
      emit: 'ts',
      silent: true,
    },
  };
  return MikroORM.init(options);
}

/** The ORM's own pg pool: the service's one pool, for raw SQL on hot and bulk paths. */
export async function ormPool(orm: ServiceOrm): Promise<pg.Pool> {
  return (await orm.em.getConnection().getNativeClient()) as pg.Pool;
}

function lockKey(schema: string): bigint {
  // Stable 63-bit key derived from the schema name, so each service's migrations lock independently.
  let h = 1469598103934665603n;
  for (const c of Buffer.from(`vat-migrations:${schema}`)) {
    h ^= BigInt(c);
    h = (h * 1099511628211n) & 0x7fffffffffffffffn;
  }
  return h;
}

/**
 * Applies committed migrations while holding a PostgreSQL advisory lock on a dedicated session,
 * so two replicas starting together never run the same migration twice. When every committed
 * migration is already recorded (every start but the first after an upgrade) it costs one query.
 */
export async function migrate(orm: ServiceOrm, clientUrl: string, schema: string): Promise<string[]> {
  if ((await pendingMigrations(orm)).length === 0) return [];
  const lock = new pg.Client({ connectionString: clientUrl });
  await lock.connect();
  const key = lockKey(schema).toString();
  try {
    await lock.query('select pg_advisory_lock($1::bigint)', [key]);
    await orm.em.getConnection().execute(`create schema if not exists "${schema}"`);
    const applied = await orm.migrator.up();
    atCodeVersion.add(orm);
    return applied.map((m) => m.name);
  } finally {
    await lock.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
    await lock.end().catch(() => undefined);
  }
}

/**
 * ORMs whose committed migrations were all found applied. They stay applied: nothing in the product undoes a
 * migration (there is no `down` command), so once a process has seen its schema at its code's version, the readiness
 * probe answers "applied" without asking again (a `/ready` used to cost every ORM this query, the first one after a
 * start ≈ 10 ms of it). Another replica's newer migrations are not pending for this process's code.
 */
const atCodeVersion = new WeakSet<ServiceOrm>();

/** Names of committed migrations that are not yet applied (one query on the schema's migrations table, until none is). */
export async function pendingMigrations(orm: ServiceOrm): Promise<string[]> {
  if (atCodeVersion.has(orm)) return [];
  const committed = (orm.config.get('migrations').migrationsList ?? []).map((m) => m.name);
  const pending = await pendingMigrationNames(await ormPool(orm), orm.config.get('schema'), committed);
  if (pending.length === 0) atCodeVersion.add(orm);
  return pending;
}

/**
 * The readiness probes of one ORM's database (`<name>.database`, `<name>.migrations`), each answered within
 * `READINESS_PROBE_MS`: a database that does not answer in time (stuck, or its single embedded session
 * held) is "not ready" at once instead of hanging `/ready`.
 */
export async function databaseProbes(orm: ServiceOrm, name: string): Promise<{ name: string; ok: boolean; detail: string }[]> {
  const answered = await withDeadline(orm.em.getConnection().execute('select 1'), READINESS_PROBE_MS, 'select 1').then(
    () => ({ ok: true, detail: 'answers' }),
    (err: Error) => ({ ok: false, detail: err instanceof DeadlineExceeded ? err.message : 'not reachable' }),
  );
  const database = { name: `${name}.database`, ...answered };
  if (!answered.ok) return [database, { name: `${name}.migrations`, ok: false, detail: 'pending: unknown' }];
  const pending = await withDeadline(pendingMigrations(orm), READINESS_PROBE_MS, 'migrations').catch(() => ['unknown']);
  return [database, { name: `${name}.migrations`, ok: pending.length === 0, detail: pending.length ? `pending: ${pending.join(', ')}` : 'applied' }];
}
