import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { MIGRATION_NAMES } from '../src/migrations/names';
import { openKeyAdmin } from '../src/key-admin';
import { parseKey, secretMatches } from '../src/keys';
import { migrateGateway } from '../src/orm';

const backends = await requireBackends(['postgres']);
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.skipIf(!backends.ok)('the admin CLI key store (SQL on a pool of its own; the ORM only to migrate)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('migrates a new database through the gateway ORM, then creates, lists and revokes keys', async () => {
    const admin = await openKeyAdmin(db.url, migrateGateway);
    try {
      const applied = await pool.query<{ name: string }>('select name from gateway.mikro_orm_migrations order by name');
      expect(applied.rows.map((r) => r.name)).toEqual([...MIGRATION_NAMES]);
      const before = Date.now();
      const created = await admin.keys.create('cli-acct', 'read-only', false, 'ops');
      expect(created).toMatchObject({ account: 'cli-acct', kind: 'v2', scope: 'read-only' });
      expect(created.created_at).toMatch(ISO_MS);
      expect(Date.parse(created.created_at)).toBeGreaterThanOrEqual(before - 1);
      const parsed = parseKey(created.key)!;
      const stored = await admin.keys.findByPublicId(parsed.publicId);
      expect(stored).toEqual({ id: BigInt(created.id), accountId: BigInt(created.account_id), kind: 'v2', scope: 'read-only', revoked: false, secretHash: stored!.secretHash });
      expect(secretMatches(parsed.secret, stored!.secretHash)).toBe(true);
      const legacy = await admin.keys.create('cli-acct', '', true);
      expect(legacy).toMatchObject({ kind: 'legacy', scope: 'legacy', account_id: created.account_id });
      await expect(admin.keys.create('cli-acct', 'everything', false)).rejects.toThrow(/unknown scope everything/);

      expect(await admin.keys.revoke(BigInt(created.id))).toBe(true);
      const firstRevocation = (await admin.keys.list('cli-acct'))[0]!.revoked_at;
      expect(firstRevocation).toMatch(ISO_MS);
      // A second revocation keeps the first time.
      expect(await admin.keys.revoke(BigInt(created.id))).toBe(true);
      expect(await admin.keys.revoke(999_999n)).toBe(false);
      const listed = await admin.keys.list('cli-acct');
      expect(listed).toEqual([
        { id: created.id, account: 'cli-acct', kind: 'v2', scope: 'read-only', key_prefix: `vat_${parsed.publicId}_…`, created_at: created.created_at, revoked_at: firstRevocation, calculation_count: '0', last_calculation_at: null },
        { id: legacy.id, account: 'cli-acct', kind: 'legacy', scope: 'legacy', key_prefix: `vat_${parseKey(legacy.key)!.publicId}_…`, created_at: legacy.created_at, revoked_at: null, calculation_count: '0', last_calculation_at: null },
      ]);
      expect((await admin.keys.findById(BigInt(created.id)))!.revoked).toBe(true);
      expect(await admin.keys.list('no-such-account')).toEqual([]);
      expect(await admin.keys.findAccount('no-such-account')).toBeUndefined();

      const integration = await admin.keys.createIntegration('cli-acct', 'shop');
      expect(integration).toMatchObject({ account: 'cli-acct', name: 'shop' });
      expect(integration.created_at).toMatch(ISO_MS);
      expect(await admin.keys.integrationOwnedBy(BigInt(integration.id), BigInt(created.account_id))).toBe(true);
      const other = await admin.keys.ensureAccount('cli-other');
      expect(await admin.keys.integrationOwnedBy(BigInt(integration.id), other.id)).toBe(false);
    } finally {
      await admin.close();
    }
  });

  it('creates an account once when keys for it are made concurrently', async () => {
    const admin = await openKeyAdmin(db.url, migrateGateway);
    try {
      const made = await Promise.all(Array.from({ length: 8 }, () => admin.keys.create('cli-race', 'full', false)));
      expect(new Set(made.map((k) => k.account_id)).size).toBe(1);
      expect(new Set(made.map((k) => k.id)).size).toBe(8);
      expect((await pool.query(`select count(*)::int as n from gateway.account where name = 'cli-race'`)).rows[0].n).toBe(1);
    } finally {
      await admin.close();
    }
  });

  it("asks for a migration only when the gateway schema is not at the code's version: a current one costs no ORM", async () => {
    const asked: string[] = [];
    const refuse = async (url: string) => {
      asked.push(url);
      throw new Error('no migration here');
    };
    const admin = await openKeyAdmin(db.url, refuse);
    try {
      expect((await admin.keys.create('cli-lean', 'full', false)).account).toBe('cli-lean');
    } finally {
      await admin.close();
    }
    expect(asked).toEqual([]);
    const fresh = await freshDatabase({ empty: true });
    try {
      await expect(openKeyAdmin(fresh.url, refuse)).rejects.toThrow(/no migration here/);
      expect(asked).toEqual([fresh.url]);
      // A schema one migration behind (an upgrade not yet started) is migrated too.
      await migrateGateway(fresh.url);
      const behind = new pg.Client({ connectionString: fresh.url });
      await behind.connect();
      await behind.query('delete from gateway.mikro_orm_migrations where name = $1', [MIGRATION_NAMES.at(-1)]);
      await behind.end();
      await expect(openKeyAdmin(fresh.url, refuse)).rejects.toThrow(/no migration here/);
      expect(asked).toEqual([fresh.url, fresh.url]);
    } finally {
      await fresh.drop();
    }
  });
});
