import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/embedded-pg';
import { EmbeddedStatistics } from '../src/embedded-maintenance';

/** The embedded database has no autovacuum: its statistics are refreshed by the process itself. */
describe('embedded database planner statistics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vat-stats-'));
  let db: EmbeddedPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await startEmbeddedPostgres(join(dir, 'data'));
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await db?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const estimate = async () => {
    const { rows } = await pool.query(`explain (format json) select * from grows where k > 100`);
    return (rows[0]['QUERY PLAN'] as [{ Plan: { 'Plan Rows': number } }])[0].Plan['Plan Rows'];
  };

  it('a table that grew after its last ANALYZE gets current estimates after the scheduled pass', async () => {
    await pool.query('create table grows (k int primary key, v text)');
    await pool.query(`insert into grows select g, 'x' from generate_series(1, 100) g`);
    await pool.query('analyze grows');
    await pool.query(`insert into grows select g, 'x' from generate_series(101, 20100) g`);
    // Stale: the histogram ends at 100, so "k > 100" looks nearly empty although 20,000 rows match.
    expect(await estimate()).toBeLessThan(100);
    const stats = new EmbeddedStatistics(pool, pino({ level: 'silent' }), { firstMs: 10, everyMs: 60_000 });
    stats.start();
    const deadline = Date.now() + 10_000;
    while ((await estimate()) < 10_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await stats.stop();
    expect(await estimate()).toBeGreaterThan(15_000);
  }, 30_000);
});
