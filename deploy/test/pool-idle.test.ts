import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, SERVICE_NAMES } from '@vat/platform/config';
import { ormPool } from '@vat/platform/db';
import { openGatewayOrm } from '@vat/gateway/orm';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { serviceOrm } from '../src/compose';
import { MODULES } from '../src/modules';

const backends = await requireBackends(['postgres']);

/** Every server's pool keeps idle connections for DATABASE_IDLE_MS (docs/operations.md, "Database connections"). */
describe.skipIf(!backends.ok)('servers keep idle database connections for DATABASE_IDLE_MS', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
  });
  afterAll(async () => db?.drop());

  it('each service ORM and the gateway ORM take the configured idle time', async () => {
    const config = loadConfig({ DATABASE_URL: db.url, DATABASE_IDLE_MS: '123000' });
    for (const name of SERVICE_NAMES) {
      const orm = await serviceOrm(MODULES[name], config, db.url, 2);
      try {
        expect((await ormPool(orm)).options.idleTimeoutMillis, name).toBe(123_000);
      } finally {
        await orm.close();
      }
    }
    const gateway = await openGatewayOrm(db.url, 2, config.databaseWaitMs, config.databaseIdleMs);
    try {
      expect((await ormPool(gateway)).options.idleTimeoutMillis).toBe(123_000);
    } finally {
      await gateway.close();
    }
  }, 60_000);
});
