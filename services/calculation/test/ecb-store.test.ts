import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrm, migrate, ormPool, pendingMigrations } from '@vat/platform/db';
import { canonicalRateDecimal, EcbRateTable } from '@vat/platform/fx';
import { detectAndParseEcb, parseEcbXml } from '@vat/seeds/ecb';
import { calculationModule } from '../src/module';
import { ecbDaysOf } from '../src/reference/ecb-days';
import { importEcbFile } from '../src/reference/ecb-import';
import { ecbState, loadEcbDays, loadEcbTable } from '../src/repositories/ecb-rates';
import { FxStore } from '../src/reference/fx-store';
import { SHIPPED_ECB_FILE, seedEcbRates } from '../src/reference/seed';
import { ecbXml } from '../../../test/support/ecb-xml';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { endPool, servicePool } from '../../../test/support/pools';

const backends = await requireBackends(['postgres']);

const SHIPPED = readFileSync(SHIPPED_ECB_FILE, 'utf8');
const HIST_XML = ecbXml({
  '2026-04-13': { USD: '1.1684', JPY: '186.75', GBP: '0.87058' },
  '2026-04-10': { USD: '1.1711', JPY: '186.43', GBP: '0.87105' },
});
const DAILY_XML = ecbXml({ '2026-04-14': { USD: '1.1702', JPY: '187.02', GBP: '0.87111', ISK: '143.5' } });

/** Counts the statements run on clients checked out with `await pool.connect()` (imports run on one such client). */
function countStatements(pool: pg.Pool): () => number {
  let n = 0;
  const connect = pool.connect.bind(pool) as (...a: unknown[]) => unknown;
  pool.connect = ((...a: unknown[]) => {
    if (a.length > 0) return connect(...a); // pool.query's own callback-style checkout
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const query = client.query.bind(client) as (...q: unknown[]) => unknown;
      client.query = ((...q: unknown[]) => {
        n++;
        return query(...q);
      }) as typeof client.query;
      return client;
    });
  }) as typeof pool.connect;
  return () => n;
}

describe('ecbDaysOf', () => {
  it('groups by day, oldest first, canonical rates; equal duplicates collapse', () => {
    const days = ecbDaysOf([
      { date: '2026-04-13', currency: 'USD', rate: '1.168400' },
      { date: '2026-04-10', currency: 'USD', rate: '1.1711' },
      { date: '2026-04-13', currency: 'USD', rate: '1.1684' },
    ]);
    expect(days).toEqual([
      { date: '2026-04-10', rates: { USD: '1.1711' } },
      { date: '2026-04-13', rates: { USD: '1.1684' } },
    ]);
  });

  it('stores every positive decimal in the one canonical spelling (property)', () => {
    const decimal = fc
      .tuple(fc.stringMatching(/^\d{1,6}$/), fc.option(fc.stringMatching(/^\d{1,7}$/), { nil: undefined }))
      .map(([i, f]) => (f === undefined ? i : `${i}.${f}`))
      .filter((t) => /[1-9]/.test(t));
    fc.assert(
      fc.property(decimal, (rate) => {
        expect(ecbDaysOf([{ date: '2026-04-13', currency: 'USD', rate }])[0]!.rates.USD).toBe(canonicalRateDecimal(rate));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [{ date: '2026-02-29', currency: 'USD', rate: '1.1' }, /invalid date/],
    [{ date: '2026-04-13', currency: 'EUR', rate: '1' }, /invalid currency/],
    [{ date: '2026-04-13', currency: 'usd', rate: '1.1' }, /invalid currency/],
    [{ date: '2026-04-13', currency: 'USD', rate: '0.000' }, /invalid rate/],
    [{ date: '2026-04-13', currency: 'USD', rate: '1.2e3' }, /invalid rate/],
    [{ date: '2026-04-13', currency: 'USD', rate: '1.18' }, /conflicting rates 1.17 and 1.18/],
  ])('refuses %j', (bad, message) => {
    expect(() => ecbDaysOf([{ date: '2026-04-13', currency: 'USD', rate: '1.17' }, bad])).toThrow(message);
  });
});

describe.skipIf(!backends.ok)('ECB rates stored by publication day (PostgreSQL, migrated schema)', () => {
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
  // Each test starts from an empty store (the template database holds the shipped history).
  beforeEach(async () => {
    await pool.query(`truncate "calculation".ecb_rate_day, "calculation".ecb_rate_snapshot`);
    await pool.query(`delete from "calculation".reference_release where kind = 'ecb'`);
  });

  const table = async () => EcbRateTable.fromDays(await loadEcbDays(pool));

  it('imports a file with progress and records it; the same file again changes nothing', async () => {
    const progress: [number, number][] = [];
    const first = await importEcbFile(pool, 'eurofxref-hist.xml', HIST_XML, (d, t) => progress.push([d, t]));
    expect(first).toMatchObject({ total: 6, inserted: 6, updated: 0, unchanged: 0, firstDate: '2026-04-10', lastDate: '2026-04-13', currencies: ['GBP', 'JPY', 'USD'] });
    expect(progress).toEqual([[6, 6]]);
    expect((await table()).rateOn('GBP', '2026-04-10')?.decimal).toBe('0.87105');
    const state = await ecbState(pool, first.digest);
    expect(state.imported).toBe(true);

    const again = await importEcbFile(pool, 'eurofxref-hist.xml', HIST_XML);
    expect(again).toMatchObject({ total: 6, inserted: 0, updated: 0, unchanged: 6 });
    expect((await ecbState(pool)).marker).toBe(state.marker);
    expect(await loadEcbDays(pool)).toEqual(ecbDaysOf(parseEcbXml(HIST_XML)));
  });

  it('a newer daily file adds its day; a correction replaces one rate and keeps the others of that day', async () => {
    await importEcbFile(pool, 'eurofxref-hist.xml', HIST_XML);
    const before = (await ecbState(pool)).marker;
    const daily = await importEcbFile(pool, 'eurofxref-daily.xml', DAILY_XML);
    expect(daily).toMatchObject({ total: 4, inserted: 4, updated: 0, unchanged: 0, firstDate: '2026-04-14' });
    expect((await ecbState(pool)).marker).not.toBe(before);
    const corrected = await importEcbFile(pool, 'eurofxref-daily.xml', ecbXml({ '2026-04-13': { USD: '1.1685', JPY: '186.750' } }));
    expect(corrected).toMatchObject({ total: 2, inserted: 0, updated: 1, unchanged: 1 });
    const t = await table();
    expect(t.rateOn('USD', '2026-04-13')?.decimal).toBe('1.1685');
    expect(t.rateOn('GBP', '2026-04-13')?.decimal).toBe('0.87058');
    expect(t.lastPublicationDate()).toBe('2026-04-14');
    expect(t.size).toBe(10);
  });

  /** `pool` as the repository sees it, counting the statements it runs. */
  const counted = () => {
    const sql: string[] = [];
    const db = { query: (text: string, values?: unknown[]) => (sql.push(text), pool.query(text, values)) } as unknown as pg.Pool;
    return { db, sql };
  };

  it('an import stores the snapshot of the history it leaves; a start loads it with one statement', async () => {
    await importEcbFile(pool, 'eurofxref-hist.xml', HIST_XML);
    await importEcbFile(pool, 'eurofxref-daily.xml', DAILY_XML);
    const { marker } = await ecbState(pool);
    // one snapshot, the current marker's: the first import's went with the second import
    expect((await pool.query(`select marker from "calculation".ecb_rate_snapshot`)).rows).toEqual([{ marker }]);
    const { db, sql } = counted();
    const loaded = await loadEcbTable(db);
    expect(sql).toHaveLength(1);
    expect(loaded.marker).toBe(marker);
    expect(loaded.table.snapshot()).toBe((await table()).snapshot());
    expect(loaded.table.rateOn('ISK', '2026-04-14')?.decimal).toBe('143.5');
    expect(loaded.table.rateOn('ISK', '2026-04-13')).toBeUndefined();
    expect(loaded.table.size).toBe(10);
    // a correction of a stored day replaces the snapshot too
    await importEcbFile(pool, 'eurofxref-daily.xml', ecbXml({ '2026-04-13': { USD: '1.1685' } }));
    const corrected = await loadEcbTable(pool);
    expect(corrected.marker).not.toBe(marker);
    expect(corrected.table.rateOn('USD', '2026-04-13')?.decimal).toBe('1.1685');
    expect(corrected.table.rateOn('GBP', '2026-04-13')?.decimal).toBe('0.87058');
  });

  it('without a snapshot of the current marker (a database from before them) the days are read and their snapshot stored', async () => {
    await importEcbFile(pool, 'eurofxref-hist.xml', HIST_XML);
    await pool.query(`delete from "calculation".ecb_rate_snapshot`);
    const first = counted();
    const loaded = await loadEcbTable(first.db);
    // the snapshot looked for, the days with the marker (one statement), the snapshot stored
    expect(first.sql).toHaveLength(3);
    expect(loaded.table.snapshot()).toBe((await table()).snapshot());
    const second = counted();
    const again = await loadEcbTable(second.db);
    expect(second.sql).toHaveLength(1);
    expect(again).toEqual({ marker: loaded.marker, table: expect.anything() });
    expect(again.table.snapshot()).toBe(loaded.table.snapshot());
    // an empty store has an empty table
    await pool.query(`truncate "calculation".ecb_rate_day`);
    await pool.query(`delete from "calculation".reference_release where kind = 'ecb'`);
    expect((await loadEcbTable(pool)).table.size).toBe(0);
  });

  it('a stored snapshot that does not read back fails the load: no partial table', async () => {
    await importEcbFile(pool, 'eurofxref-hist.xml', HIST_XML);
    await pool.query(`update "calculation".ecb_rate_snapshot set body = replace(body, '0.87105', '0,87105')`);
    await expect(loadEcbTable(pool)).rejects.toThrow(/rate/);
    await expect(new FxStore(pool).current()).rejects.toThrow(/rate/);
  });

  it('a file with one bad value writes nothing', async () => {
    await importEcbFile(pool, 'eurofxref-hist.xml', HIST_XML);
    const marker = (await ecbState(pool)).marker;
    const bad = ecbXml({ '2026-04-15': { USD: '1.17', JPY: '1,87' } });
    await expect(importEcbFile(pool, 'eurofxref-daily.xml', bad)).rejects.toThrow(/invalid rate "1,87"/);
    expect((await ecbState(pool)).marker).toBe(marker);
    expect((await table()).lastPublicationDate()).toBe('2026-04-13');
  });

  it('stores the whole shipped history in a handful of statements and reads every rate back exactly', async () => {
    const statements = countStatements(pool);
    const obs = detectAndParseEcb('eurofxref-hist.csv', SHIPPED);
    const progress: number[] = [];
    const first = await importEcbFile(pool, 'eurofxref-hist.csv', SHIPPED, (d) => progress.push(d));
    expect(first).toMatchObject({ total: obs.length, inserted: obs.length, updated: 0, firstDate: '1999-01-04', lastDate: '2026-04-13' });
    expect(first.currencies).toHaveLength(41);
    expect(progress.at(-1)).toBe(obs.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // begin, lock, read the stored range, 7 writes of 1,000 days, the days held (announced with the publication), the release row,
    // the history read back and its snapshot written, commit
    expect(statements()).toBeLessThanOrEqual(15);
    expect((await pool.query(`select count(*)::int as n from "calculation".ecb_rate_day`)).rows[0].n).toBe(ecbDaysOf(obs).length);

    const fromDb = await table();
    const fromFile = new EcbRateTable(obs);
    expect(fromDb.size).toBe(obs.length);
    expect(obs.filter((o) => fromDb.rateOn(o.currency, o.date)?.decimal !== fromFile.rateOn(o.currency, o.date)?.decimal)).toEqual([]);
    expect(fromDb.rateOnOrNextPublication('USD', '2024-03-29')?.rateDate).toBe('2024-04-02');

    const second = await importEcbFile(pool, 'eurofxref-hist.csv', SHIPPED);
    expect(second).toMatchObject({ inserted: 0, updated: 0, unchanged: obs.length });
  }, 120_000);
});

describe.skipIf(!backends.ok)('the shipped history at start', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let svc: Awaited<ReturnType<typeof servicePool>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await freshDatabase();
    svc = await servicePool(db.url, calculationModule);
    pool = svc.pool;
    await pool.query(`truncate "calculation".ecb_rate_day`);
    await pool.query(`delete from "calculation".reference_release where kind = 'ecb'`);
  });
  afterAll(async () => {
    await svc?.close();
    await db?.drop();
  });

  it('is imported once; the first import is held without reading it back, unless another import came in between', async () => {
    const seeded = await seedEcbRates(pool);
    expect(seeded.loaded).toBe(true);
    const held = await new FxStore(pool).holdFirstImport(seeded.everything!);
    const read = await new FxStore(pool).current();
    expect(held.size).toBe(read.size);
    expect(held.publicationDates()).toEqual(read.publicationDates());
    expect(held.rateOn('USD', '2026-04-13')).toEqual(read.rateOn('USD', '2026-04-13'));
    expect(await seedEcbRates(pool)).toEqual({ loaded: false });

    await importEcbFile(pool, 'eurofxref-daily.xml', ecbXml({ '2026-04-14': { USD: '1.17' } }));
    const late = await new FxStore(pool).holdFirstImport(seeded.everything!);
    expect(late.lastPublicationDate()).toBe('2026-04-14');
  }, 120_000);
});

describe.skipIf(!backends.ok)('upgrading a database that holds rates one per row', () => {
  it('moves every stored rate to its publication day, canonical', async () => {
    const db = await freshDatabase({ empty: true });
    const mod = calculationModule;
    const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations });
    try {
      await orm.em.getConnection().execute(`create schema "${mod.schema}"`);
      await orm.migrator.up({ to: 'Migration20261122131152' });
      await orm.em.getConnection().execute(
        `insert into "calculation".ecb_rate (currency, rate_date, rate) values ('USD', '2026-04-13', 1.1684), ('JPY', '2026-04-13', 186.75), ('TRL', '1999-01-04', 372274)`,
      );
      expect(await pendingMigrations(orm)).toHaveLength(mod.migrations.length - 1);
      await migrate(orm, db.url, mod.schema);
      const pool = await ormPool(orm);
      expect(await loadEcbDays(pool)).toEqual([
        { date: '1999-01-04', rates: { TRL: '372274' } },
        { date: '2026-04-13', rates: { JPY: '186.75', USD: '1.1684' } },
      ]);
      expect((await pool.query(`select to_regclass('"calculation".ecb_rate') as t`)).rows[0].t).toBeNull();
    } finally {
      await endPool(await ormPool(orm), () => orm.close());
      await db.drop();
    }
  });
});
