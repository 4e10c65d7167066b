import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTaxClasses, loadVatRates } from '@vat/seeds/vat-rates';
import { approveCurrentRateRelease } from '../src/reference/approve';
import { latestRateRelease, storeRateRelease } from '../src/repositories/rate-releases';
import { RateStore } from '../src/reference/rate-store';
import { seedVatRates } from '../src/reference/seed';
import { calculationModule } from '../src/module';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { servicePool } from '../../../test/support/pools';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('VAT rate release in PostgreSQL (migrated, seeded schema)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let svc: Awaited<ReturnType<typeof servicePool>>;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await freshDatabase();
    svc = await servicePool(db.url, calculationModule);
    pool = svc.pool;
  });
  afterAll(async () => {
    await svc?.close();
    await db?.drop();
  });

  it('the seeded release holds every class in published order and every window of the seed files', async () => {
    const snap = await new RateStore(pool).refresh();
    const classes = loadTaxClasses();
    const files = loadVatRates();
    expect(snap.classes.map((c) => c.id)).toEqual(classes.classes.map((c) => c.id));
    expect(snap.classes).toHaveLength(37);
    expect(snap.windows).toHaveLength(files.reduce((n, f) => n + f.rates.length, 0));
    expect(snap.windows).toHaveLength(855);
    const de = files.find((f) => f.country === 'DE')!.rates.find((r) => r.tax_class_id === 'standard' && r.valid_to === null)!;
    const stored = snap.windowAt('DE', 'standard', '2026-03-01')!;
    expect(stored).toMatchObject({ rateBps: de.rate_bps, validFrom: de.valid_from, validTo: null, conditional: false, reviewStatus: de.review_status });
    expect(stored.sources.map((s) => s.source_id)).toEqual(de.source_ids);
    expect(typeof stored.id).toBe('bigint');
  });

  /** `pool` as the seed sees it, recording the statements run through `pool.query`. */
  const counted = () => {
    const sql: string[] = [];
    const db = new Proxy(pool, { get: (target, key) => (key === 'query' ? (text: string, values?: unknown[]) => (sql.push(text), target.query(text, values)) : Reflect.get(target, key)) });
    return { db, sql };
  };

  it('seeding the same files again stores nothing, and recognises them by their bytes with one statement', async () => {
    const before = await latestRateRelease(pool);
    const { db, sql } = counted();
    const again = await seedVatRates(db, new Date());
    expect(again).toEqual({ digest: before!.digest, loaded: false });
    expect(sql).toHaveLength(1);
    expect((await latestRateRelease(pool))!.id).toBe(before!.id);
  });

  it('a release stored before its files were recorded is found by its content, and its files recorded once', async () => {
    const before = (await latestRateRelease(pool))!;
    await pool.query(`delete from "calculation".rate_release_seed_files`);
    const first = counted();
    expect(await seedVatRates(first.db, new Date())).toEqual({ digest: before.digest, loaded: false });
    // the files' bytes not known, the release found by its canonical digest, the files recorded
    expect(first.sql).toHaveLength(3);
    const second = counted();
    expect(await seedVatRates(second.db, new Date())).toEqual({ digest: before.digest, loaded: false });
    expect(second.sql).toHaveLength(1);
  });

  it('changed files are parsed and validated again: a new release, or a refusal that stores nothing', async () => {
    const seeds = fileURLToPath(new URL('../../../seeds/', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'vat-seeds-'));
    try {
      const dirs = { classes: join(dir, 'tax-classes'), rates: join(dir, 'vat-rates') };
      cpSync(join(seeds, 'tax-classes'), dirs.classes, { recursive: true });
      cpSync(join(seeds, 'vat-rates'), dirs.rates, { recursive: true });
      const before = (await latestRateRelease(pool))!;
      // the same content in other bytes (indentation): the same release, its new bytes recorded
      const de = join(dirs.rates, 'DE.json');
      writeFileSync(de, JSON.stringify(JSON.parse(readFileSync(de, 'utf8')), null, 4));
      expect(await seedVatRates(pool, new Date(), dirs)).toEqual({ digest: before.digest, loaded: false });
      const recorded = await pool.query(`select release_digest from "calculation".rate_release_seed_files order by recorded_at`);
      expect(recorded.rows.map((r) => r.release_digest)).toEqual([before.digest, before.digest]);
      // an invalid file: refused before anything is stored or recorded
      const broken = JSON.parse(readFileSync(de, 'utf8'));
      broken.rates[0].rate_bps = -1;
      writeFileSync(de, JSON.stringify(broken));
      await expect(seedVatRates(pool, new Date(), dirs)).rejects.toThrow(/VAT rate seed data is invalid/);
      expect((await latestRateRelease(pool))!.id).toBe(before.id);
      expect((await pool.query(`select count(*)::int as n from "calculation".rate_release_seed_files`)).rows[0].n).toBe(2);
      // a changed rate: a new release
      const changed = JSON.parse(readFileSync(join(seeds, 'vat-rates', 'DE.json'), 'utf8'));
      changed.rates[0].note = 'changed by the test';
      writeFileSync(de, JSON.stringify(changed));
      const next = await seedVatRates(pool, new Date(), dirs);
      expect(next.loaded).toBe(true);
      expect(next.digest).not.toBe(before.digest);
      expect((await latestRateRelease(pool))!.digest).toBe(next.digest);
      expect(await seedVatRates(pool, new Date(), dirs)).toEqual({ digest: next.digest, loaded: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two starts storing one new release at once store it once', async () => {
    const snap = await new RateStore(pool).refresh();
    const release = { digest: 'sha256:concurrent-test', version: 'test', loadedAt: new Date(), classes: snap.classes, windows: snap.windows.slice(0, 5) };
    const results = await Promise.all([storeRateRelease(pool, release), storeRateRelease(pool, release)]);
    expect(results.sort()).toEqual([false, true]);
    const latest = (await latestRateRelease(pool))!;
    expect(latest.digest).toBe('sha256:concurrent-test');
    const windows = await pool.query(`select count(*)::int as n from "calculation".vat_rate where release_id = $1`, [latest.id.toString()]);
    expect(windows.rows[0].n).toBe(5);
  });

  it('an approval names the reviewer once; the store picks it up', async () => {
    const store = new RateStore(pool, 0);
    expect((await store.current()).release.approvedBy).toBeNull();
    const now = new Date('2026-11-23T10:00:00Z');
    const first = await approveCurrentRateRelease(pool, '  Ada Reviewer ', now);
    expect(first).toMatchObject({ kind: 'vat_rates', approved_by: 'Ada Reviewer', approved_at: now.toISOString() });
    const second = await approveCurrentRateRelease(pool, 'Someone Else', new Date());
    expect(second).toEqual(first);
    expect((await store.refresh()).release).toMatchObject({ approvedBy: 'Ada Reviewer', approvedAt: now });
    await expect(approveCurrentRateRelease(pool, ' ', now)).rejects.toThrow(/reviewer/);
  });
});
