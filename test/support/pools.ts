import type pg from 'pg';
import { createOrm, ormPool, type ServiceOrm } from '@vat/platform/db';
import type { AnyServiceModule } from '@vat/platform/service-module';

/**
 * Closes a pool (by default `pool.end()`) and waits until every connection is closed: `end()` resolves before the
 * sockets do, and a database dropped `with (force)` in between would kill them with an unhandled error.
 */
export async function endPool(pool: pg.Pool, end: () => Promise<unknown> = () => pool.end()): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      if (++closed === open) resolve();
    });
  });
  await end();
  await allClosed;
}

/** A service's own pool on `url` (the ORM's, with its type parsers), as its repositories get it in production. */
export async function servicePool(url: string, mod: Pick<AnyServiceModule, 'schema' | 'entities' | 'migrations'>): Promise<{ orm: ServiceOrm; pool: pg.Pool; close(): Promise<void> }> {
  const orm = await createOrm({ clientUrl: url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, poolMax: 4 });
  const pool = await ormPool(orm);
  return { orm, pool, close: () => endPool(pool, () => orm.close()) };
}
