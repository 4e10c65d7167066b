import type { KeyStore } from '@vat/gateway/keys';
import { config, database, need, out, type AdminArgs } from './admin-cli';
import { UsageError } from './usage';

/**
 * The key commands (`keys create|list|revoke`, `integrations create`): the configuration, the database and the
 * gateway's key store on a pool of its own (no ORM while the gateway's schema is current: gateway/src/key-admin.ts).
 * `migrateGateway` brings a new or older database's gateway schema to this code's version first. Also bundled alone
 * (./admin-keys-main), so `admin keys create` loads none of the other commands' code.
 */
export async function keyCommand({ values, positionals }: AdminArgs, migrateGateway: (databaseUrl: string) => Promise<void>): Promise<number | undefined> {
  const [group, action] = positionals;
  const withKeys = <T>(fn: (keys: KeyStore) => Promise<T>) => withKeyStore(migrateGateway, fn);
  if (group === 'keys' && action === 'create') {
    const account = need(values.account, 'account');
    if (!values.legacy) need(values.scope, 'scope');
    out(await withKeys((k) => k.create(account, values.scope ?? '', values.legacy ?? false, values.label)));
    return 0;
  }
  if (group === 'keys' && action === 'list') {
    const account = need(values.account, 'account');
    out(await withKeys((k) => k.list(account)));
    return 0;
  }
  if (group === 'keys' && action === 'revoke') {
    const id = need(values.id, 'id');
    if (!/^\d{1,18}$/.test(id)) throw new UsageError('--id must be a key id');
    const ok = await withKeys((k) => k.revoke(BigInt(id)));
    if (!ok) {
      process.stderr.write(`no key with id ${id}\n`);
      return 1;
    }
    out({ id, revoked: true });
    return 0;
  }
  if (group === 'integrations' && action === 'create') {
    const account = need(values.account, 'account');
    const name = need(values.name, 'name');
    out(await withKeys((k) => k.createIntegration(account, name)));
    return 0;
  }
  return undefined;
}

async function withKeyStore<T>(migrateGateway: (databaseUrl: string) => Promise<void>, fn: (keys: KeyStore) => Promise<T>): Promise<T> {
  const db = await database(await config());
  try {
    const admin = await (await import('@vat/gateway/key-admin')).openKeyAdmin(db.url, migrateGateway);
    try {
      return await fn(admin.keys);
    } finally {
      await admin.close();
    }
  } finally {
    await db.close();
  }
}
