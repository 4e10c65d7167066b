import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { adminEntry, bundleProblem, DIST, ROOT } from '../bundle.mjs';
import { MIGRATION_NAMES } from '@vat/gateway/migrations/names';
import { startEmbeddedPostgres } from '@vat/platform/embedded-pg';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { entryScript, runAdmin } from '../../test/support/processes';

const backends = await requireBackends(['postgres']);

describe('the key commands of the admin CLI', () => {
  it('run from their own bundle, chosen by the first word of the command line', () => {
    expect(adminEntry(['keys', 'create', '--account', 'a'])).toBe('admin-keys');
    expect(adminEntry(['integrations', 'create'])).toBe('admin-keys');
    expect(adminEntry(['supply', 'import'])).toBe('admin');
    expect(adminEntry(['--account', 'a', 'keys', 'create'])).toBe('admin');
    expect(adminEntry([])).toBe('admin');
  });

  it('the installed key commands bundle holds no ORM, query builder or other command, and is a fifth of the whole CLI', () => {
    expect(bundleProblem('admin-keys')).toBeUndefined();
    const sources = (JSON.parse(readFileSync(join(DIST, 'admin-keys.js.map'), 'utf8')) as { sources: string[] }).sources.map((s) => resolve(DIST, s));
    expect(sources).toContain(join(ROOT, 'deploy/src/admin-keys.ts'));
    expect(sources).toContain(join(ROOT, 'gateway/src/keys.ts'));
    for (const absent of ['@mikro-orm/', 'kysely/', 'gateway/src/orm.ts', 'deploy/src/admin.ts', 'deploy/src/supply-import.ts', 'services/']) {
      expect(sources.filter((s) => s.includes(absent)), absent).toEqual([]);
    }
    const size = (entry: string) => readFileSync(join(DIST, `${entry}.js`)).length;
    expect(size('admin-keys') * 5).toBeLessThan(size('admin'));
  });

  describe.skipIf(!backends.ok)('on PostgreSQL', () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    beforeAll(async () => {
      db = await freshDatabase({ empty: true });
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('a new database is handed to the whole CLI, which migrates it; then the key bundle alone creates, lists and revokes', async () => {
      expect(entryScript('admin')).toEqual(['deploy/bin/admin.mjs']);
      const env = { DATABASE_URL: db.url };
      const first = await runAdmin<{ id: string; key: string; account: string; scope: string }>(['keys', 'create', '--account', 'cli-bundle', '--scope', 'read-only'], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.json).toMatchObject({ account: 'cli-bundle', scope: 'read-only' });
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const applied = await client.query<{ name: string }>('select name from gateway.mikro_orm_migrations order by name');
        expect(applied.rows.map((r) => r.name)).toEqual([...MIGRATION_NAMES]);
        const second = await runAdmin<{ id: string; key: string }>(['keys', 'create', '--account', 'cli-bundle', '--legacy'], env);
        expect(second.code, second.stderr).toBe(0);
        const revoked = await runAdmin(['keys', 'revoke', '--id', first.json.id], env);
        expect(revoked.json).toEqual({ id: first.json.id, revoked: true });
        await expect(runAdmin(['keys', 'revoke', '--id', '999999'], env)).rejects.toThrow(/exited 1; stderr: no key with id 999999/);
        const listed = await runAdmin<{ id: string; kind: string; revoked_at: string | null }[]>(['keys', 'list', '--account', 'cli-bundle'], env);
        expect(listed.json.map((k) => [k.id, k.kind, k.revoked_at !== null])).toEqual([
          [first.json.id, 'v2', true],
          [second.json.id, 'legacy', false],
        ]);
        const integration = await runAdmin<{ name: string; account: string }>(['integrations', 'create', '--account', 'cli-bundle', '--name', 'shop'], env);
        expect(integration.json).toMatchObject({ account: 'cli-bundle', name: 'shop' });
        await expect(runAdmin(['keys', 'create', '--scope', 'full'], env)).rejects.toThrow(/exited 2; stderr: missing --account\nusage: npm run --silent admin/);
        await expect(runAdmin(['keys', 'rotate'], env)).rejects.toThrow(/exited 2; stderr: unknown command: keys rotate\nusage:/);
        const count = await client.query<{ n: number }>(`select count(*)::int as n from gateway.api_key`);
        expect(count.rows[0]!.n).toBe(2);
      } finally {
        await client.end();
      }
    });
  });

  it('on an embedded DATA_DIR of an older version (no server running), the hand-over migrates it and the key is made', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vat-keys-older-'));
    /** Runs statements on the DATA_DIR's database, opened in this process and closed again. */
    const onDatabase = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
      const db = await startEmbeddedPostgres(dataDir);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        return await fn(client);
      } finally {
        await client.end();
        await db.stop();
      }
    };
    try {
      const env = { DATA_DIR: dataDir };
      const first = await runAdmin<{ id: string }>(['keys', 'create', '--account', 'older', '--scope', 'full'], env);
      // As the DATA_DIR was before the gateway's newest migration (it made the dashboard's session table).
      const newest = MIGRATION_NAMES.at(-1)!;
      expect(newest).toBe('Migration20261128080647');
      await onDatabase(async (c) => {
        await c.query('drop table gateway.web_session');
        await c.query('delete from gateway.mikro_orm_migrations where name = $1', [newest]);
      });
      const second = await runAdmin<{ id: string; kind: string }>(['keys', 'create', '--account', 'older', '--legacy'], env);
      expect(second.json.kind).toBe('legacy');
      await onDatabase(async (c) => {
        const applied = await c.query<{ name: string }>('select name from gateway.mikro_orm_migrations order by name');
        expect(applied.rows.map((r) => r.name)).toEqual([...MIGRATION_NAMES]);
        expect((await c.query(`select to_regclass('gateway.web_session')::text as t`)).rows[0].t).toBe('gateway.web_session');
        const keys = await c.query<{ id: string }>('select id::text from gateway.api_key order by id');
        expect(keys.rows.map((r) => r.id)).toEqual([first.json.id, second.json.id]);
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
