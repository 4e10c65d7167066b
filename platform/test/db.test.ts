import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { Migration } from '@mikro-orm/migrations';
import { createOrm, migrate, ormPool, pendingMigrations } from '../src/db';
import { loadConfig } from '../src/config';
import { freshDatabase, requireBackends } from '../../test/support/env';

const backends = await requireBackends(['postgres']);
const SCHEMA = 'db_test';

const Thing = defineEntity({ name: 'Thing', tableName: 'thing', properties: { id: p.integer().primary(), label: p.string().nullable() } });

class CreateThing extends Migration {
  override async up() {
    this.addSql(`create table "${SCHEMA}".thing (id int primary key)`);
  }
}
class AddLabel extends Migration {
  override async up() {
    this.addSql(`alter table "${SCHEMA}".thing add column label text null`);
  }
}

describe.skipIf(!backends.ok)('migrations (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
  });
  afterAll(async () => db?.drop());

  const orm = (migrations: (typeof CreateThing)[]) => createOrm({ clientUrl: db.url, schema: SCHEMA, entities: [Thing], migrations });

  it('lists every committed migration as pending before the schema exists, applies them, then has none', async () => {
    const o = await orm([CreateThing]);
    try {
      expect(await pendingMigrations(o)).toEqual(['CreateThing']);
      expect(await migrate(o, db.url, SCHEMA)).toEqual(['CreateThing']);
      expect(await pendingMigrations(o)).toEqual([]);
      expect(await migrate(o, db.url, SCHEMA)).toEqual([]);
    } finally {
      await o.close();
    }
  });

  it('a later release applies only its new migration', async () => {
    const o = await orm([CreateThing, AddLabel]);
    try {
      expect(await pendingMigrations(o)).toEqual(['AddLabel']);
      expect(await migrate(o, db.url, SCHEMA)).toEqual(['AddLabel']);
      await (await ormPool(o)).query(`insert into "${SCHEMA}".thing (id, label) values (1, 'x')`);
      expect(await pendingMigrations(o)).toEqual([]);
    } finally {
      await o.close();
    }
  });

  it('an ORM that found every migration applied does not ask again (the readiness probe of a running process); a new one asks', async () => {
    const seen = await orm([CreateThing, AddLabel]);
    const pool = await ormPool(seen);
    let asked = 0;
    const query = pool.query.bind(pool);
    (pool as { query: unknown }).query = (...args: Parameters<typeof query>) => {
      if (String(args[0]).includes('mikro_orm_migrations')) asked++;
      return query(...args);
    };
    try {
      expect(await pendingMigrations(seen)).toEqual([]);
      expect(asked).toBe(1);
      expect(await pendingMigrations(seen)).toEqual([]);
      expect(await migrate(seen, db.url, SCHEMA)).toEqual([]);
      expect(asked).toBe(1);
      // A code version with a migration the database lacks is asked every time until it is applied.
      class AddNote extends Migration {
        override async up() {
          this.addSql(`alter table "${SCHEMA}".thing add column note text null`);
        }
      }
      const newer = await orm([CreateThing, AddLabel, AddNote]);
      try {
        expect(await pendingMigrations(newer)).toEqual(['AddNote']);
        expect(await pendingMigrations(newer)).toEqual(['AddNote']);
        expect(await migrate(newer, db.url, SCHEMA)).toEqual(['AddNote']);
        expect(await pendingMigrations(newer)).toEqual([]);
      } finally {
        await newer.close();
      }
    } finally {
      (pool as { query: unknown }).query = query;
      await seen.close();
    }
  });
});

describe.skipIf(!backends.ok)('idle pooled connections (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
  });
  afterAll(async () => db?.drop());

  /** The pid of the backend that serves a query on the ORM's pool. */
  const backendPid = async (o: Awaited<ReturnType<typeof createOrm>>) => Number((await (await ormPool(o)).query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  // A new connection is a new backend, whose first large read ran about twice as slow (docs/operations.md,
  // "Database connections"): a server keeps its idle connections for DATABASE_IDLE_MS instead of pg's 10 s.
  it('keeps an idle connection, and its backend, for idleMs; closes it after', async () => {
    const kept = await createOrm({ clientUrl: db.url, schema: SCHEMA, entities: [Thing], migrations: [], idleMs: 60_000 });
    const short = await createOrm({ clientUrl: db.url, schema: SCHEMA, entities: [Thing], migrations: [], idleMs: 1_000 });
    try {
      const keptPid = await backendPid(kept);
      const shortPid = await backendPid(short);
      await sleep(1_600);
      expect((await ormPool(kept)).totalCount).toBe(1);
      expect((await ormPool(short)).totalCount).toBe(0);
      expect(await backendPid(kept)).toBe(keptPid);
      expect(await backendPid(short)).not.toBe(shortPid);
    } finally {
      await kept.close();
      await short.close();
    }
  });

  it('DATABASE_IDLE_MS reaches the servers pools: 10 minutes by default, refused outside 1 s to a day', () => {
    expect(loadConfig({}).databaseIdleMs).toBe(600_000);
    expect(loadConfig({ DATABASE_IDLE_MS: '30000' }).databaseIdleMs).toBe(30_000);
    for (const bad of ['999', '86400001', 'ten', '1.5']) expect(() => loadConfig({ DATABASE_IDLE_MS: bad })).toThrow(/invalid configuration: DATABASE_IDLE_MS/);
  });
});
