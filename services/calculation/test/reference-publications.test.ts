import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferencePublications } from '../src/repositories/reference-publications';
import { freshDatabase, requireBackends } from '../../../test/support/env';

const backends = await requireBackends(['postgres']);

/**
 * `allRecorded` (services/calculation/src/module.ts's start): one read says whether every publication a start makes
 * is recorded already; each missing record on its own makes it say no, so the start goes the way of the four
 * publications (each under the publications' lock) whenever one of them has something to do.
 */
describe.skipIf(!backends.ok)('ReferencePublications.allRecorded', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  let publications: ReferencePublications;
  let release: bigint;

  beforeAll(async () => {
    db = await freshDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    publications = new ReferencePublications(pool);
    // The template was started once: the current release, every ECB import and both replays are recorded.
    const r = await pool.query<{ id: string }>(`select max(id)::text as id from calculation.reference_release where kind = 'vat_rates'`);
    release = BigInt(r.rows[0]!.id);
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** Runs `change` in a transaction rolled back afterwards, and returns what allRecorded answered inside it. */
  async function within(change: string, releaseId = release): Promise<boolean> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      if (change) await client.query(change);
      // The same read allRecorded makes, on the transaction's connection (it sees the uncommitted change).
      const probe = new ReferencePublications({ query: client.query.bind(client) } as unknown as pg.Pool);
      return await probe.allRecorded(releaseId);
    } finally {
      await client.query('rollback');
      client.release();
    }
  }

  it('says yes on a database whose start published everything', async () => {
    expect(await publications.allRecorded(release)).toBe(true);
    expect(await within('')).toBe(true);
  });

  it('says no when the current release is not recorded as published (another release id, or its record gone)', async () => {
    expect(await within('', release + 1000n)).toBe(false);
    expect(await within(`delete from calculation.reference_publication where kind = 'vat_rates' and release_id = ${release}`)).toBe(false);
  });

  it('says no when an ECB import is not recorded as published', async () => {
    const ecb = `insert into calculation.reference_release (kind, digest, version, row_count, loaded_at) values ('ecb', 'sha256:${'0'.repeat(64)}', 'test', 1, now())`;
    expect(await within(ecb)).toBe(false);
    expect(await within(`delete from calculation.reference_publication where kind = 'ecb'`)).toBe(false);
  });

  it('says no when either one-off replay (calculations, source profiles) is not recorded', async () => {
    expect(await within(`delete from calculation.reference_publication where kind = 'calculations'`)).toBe(false);
    expect(await within(`delete from calculation.reference_publication where kind = 'source_profiles'`)).toBe(false);
    // Nothing was kept: the rollbacks leave every record.
    expect(await publications.allRecorded(release)).toBe(true);
  });
});
