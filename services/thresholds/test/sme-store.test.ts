import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '@vat/platform/canonical-json';
import { loadSmeThresholds } from '../src/sme/data';
import { seedSmeThresholds, SmeThresholdStore } from '../src/sme-store';
import { thresholdsModule } from '../src/module';
import { ReleaseStore } from '../src/repositories/releases';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { servicePool } from '../../../test/support/pools';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('SME threshold releases in PostgreSQL (migrated, seeded schema)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let svc: Awaited<ReturnType<typeof servicePool>>;
  let pool: pg.Pool;
  const count = async () => (await pool.query(`select count(*)::int as n from "thresholds".sme_threshold_release`)).rows[0].n as number;

  beforeAll(async () => {
    db = await freshDatabase();
    svc = await servicePool(db.url, thresholdsModule);
    pool = svc.pool;
  });
  afterAll(async () => {
    await svc?.close();
    await db?.drop();
  });

  it('the shipped data is stored once, whoever seeds it and how often', async () => {
    expect(await count()).toBe(1);
    const results = await Promise.all([seedSmeThresholds(pool, new Date()), seedSmeThresholds(pool, new Date())]);
    expect(await count()).toBe(1);
    expect(results[0]!.digest).toBe(digestOf(loadSmeThresholds()));
    expect(results[0]!.rows).toHaveLength(loadSmeThresholds().rows.length);
  });

  it('serves the newest release, and picks up a newer one without a restart', async () => {
    const store = new SmeThresholdStore(pool, 0);
    const shipped = loadSmeThresholds();
    expect(await store.rows()).toEqual(shipped.rows);
    const newer = { ...shipped, rows: shipped.rows.map((r, i) => (i === 0 ? { ...r, note: 'corrected note' } : r)) };
    await pool.query(`insert into "thresholds".sme_threshold_release (digest, document, row_count, loaded_at) values ($1, $2::jsonb, $3, now() + interval '1 second')`, [
      digestOf(newer),
      JSON.stringify(newer),
      newer.rows.length,
    ]);
    expect((await store.rows())[0]!.note).toBe('corrected note');
  });

  it('requests that find a store stale together share one re-check (SME thresholds and the Article 59c release)', async () => {
    // A pool that counts the statements the stores send.
    let statements = 0;
    const counting = { query: (...args: Parameters<pg.Pool['query']>) => (statements++, (pool.query as (...a: unknown[]) => unknown)(...args)) } as unknown as pg.Pool;
    const sme = new SmeThresholdStore(counting, 60_000);
    const burst = await Promise.all(Array.from({ length: 32 }, () => sme.rows()));
    expect(new Set(burst).size).toBe(1);
    // One re-check: the current digest, then the document (read once per digest).
    expect(statements).toBe(2);
    statements = 0;
    const releases = new ReleaseStore(counting, 60_000);
    const versions = await Promise.all(Array.from({ length: 32 }, () => releases.current()));
    expect(new Set(versions.map((r) => r.version)).size).toBe(1);
    expect(statements).toBe(2);
    // Within the lifetime, from memory.
    await sme.rows();
    await releases.current();
    expect(statements).toBe(2);
  });
});
