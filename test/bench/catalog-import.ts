/**
 * Catalog import benchmark: the official CN 2021, CN 2022 and CPA 2.1 files of ../shared/data/classification
 * imported as candidates through the operator workflow on a fresh PostgreSQL database (parse, validate, diff,
 * raw bytes and rows stored), `BENCH_CATALOG_RUNS` times each (default 3), median wall time printed.
 * `npx tsx test/bench/catalog-import.ts` (needs PostgreSQL at TEST_PG_URL or 127.0.0.1:5432).
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { FieldCipher } from '@vat/platform/crypto';
import { createOrm, migrate, ormPool } from '@vat/platform/db';
import { adminDeps } from '@vat/classification/admin/admin-deps';
import { importCatalog } from '@vat/classification/admin/catalogs';
import { createOperator } from '@vat/classification/admin/operators';
import { MODULES } from '@vat/deploy/modules';
import { dataFile, EDITIONS } from '../../services/classification/test/support';
import { freshDatabase } from '../support/env';

const runs = Number(process.env.BENCH_CATALOG_RUNS ?? 3);
const db = await freshDatabase({ prefix: 'vat_bench_catalog', empty: true });
const mod = MODULES.classification;
const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations, migrationsPath: mod.migrationsPath, poolMax: 2 });
try {
  await migrate(orm, db.url, mod.schema);
  const deps = adminDeps(await ormPool(orm), new FieldCipher(randomBytes(32)));
  await createOperator(deps, 'bench');
  for (const which of ['cn2021', 'cn2022', 'cpa21'] as const) {
    const e = EDITIONS[which];
    const bytes = dataFile(e.fileName);
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const r = await importCatalog(deps, { scheme: e.scheme, edition: e.edition, fileName: e.fileName, bytes, legalFrom: e.legalFrom, legalTo: e.legalTo, act: e.act, sourceUrl: e.sourceUrl, operator: 'bench' });
      times.push(performance.now() - t);
      rows = r.row_count;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    pino().info({ file: e.fileName, rows, runs, median_ms: Math.round(median), rows_per_second: Math.round((rows * 1000) / median) }, 'catalog import');
  }
} finally {
  await orm.close();
  await db.drop();
}
