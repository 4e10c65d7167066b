import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEntity, p } from '@mikro-orm/postgresql';
import { Migration } from '@mikro-orm/migrations';
import { createOrm, migrate, ormPool, pendingMigrations } from '../src/db';
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
});
