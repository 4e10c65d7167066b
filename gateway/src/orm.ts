import { createOrm, migrate } from '@vat/platform/db';
import { gatewayEntities } from './entities';
import { GATEWAY_SCHEMA } from './keys';
import { migrations as gatewayMigrations, MIGRATIONS_PATH as GATEWAY_MIGRATIONS_PATH } from './migrations/index';

/**
 * The gateway's ORM on its own schema (accounts, keys, integrations, usage, sessions), not yet connected (MikroORM
 * connects on the first query). A module of its own so the admin CLI's key commands load the ORM and the key store,
 * not the HTTP gateway.
 */
export function createGatewayOrm(databaseUrl: string, poolMax: number, lockWaitMs?: number, idleMs?: number) {
  return createOrm({ clientUrl: databaseUrl, schema: GATEWAY_SCHEMA, entities: gatewayEntities, migrations: gatewayMigrations, migrationsPath: GATEWAY_MIGRATIONS_PATH, poolMax, lockWaitMs, idleMs });
}

/** {@link createGatewayOrm}, migrated. */
export async function openGatewayOrm(databaseUrl: string, poolMax: number, lockWaitMs?: number, idleMs?: number) {
  const orm = await createGatewayOrm(databaseUrl, poolMax, lockWaitMs, idleMs);
  await migrate(orm, databaseUrl, GATEWAY_SCHEMA);
  return orm;
}

/** Applies the gateway's pending migrations (the ORM is made for that and closed). */
export async function migrateGateway(databaseUrl: string): Promise<void> {
  await (await openGatewayOrm(databaseUrl, 1)).close();
}
