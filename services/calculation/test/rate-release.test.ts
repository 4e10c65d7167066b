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

  it('seeding the same files again stores nothing', async () => {
    const before = await latestRateRelease(pool);
    const again = await seedVatRates(pool, new Date());
    expect(again).toEqual({ digest: before!.digest, loaded: false });
    expect((await latestRateRelease(pool))!.id).toBe(before!.id);
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
