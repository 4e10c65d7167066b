import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@vat/platform/config';
import { buildEmbeddedTemplate, embeddedTemplateDir, pgliteVersion } from '@vat/platform/embedded-pg-template';
import { build } from '../src/build';
import { buildSeededTemplate } from '../src/seeded-template-build';
import { seededTemplateDir, seededTemplateFingerprint, templatesFor } from '../src/seeded-template';

type Line = { msg: string; service?: string; created?: string; applied?: string[] };

/** The schemas of the services and the gateway. */
const SCHEMAS = ['calculation', 'classification', 'compliance_reports', 'thresholds', 'ledger', 'gateway'];

/**
 * Every table's row count, and a digest of its rows without what differs between two starts by design: times
 * (timestamps, and the ECB publication order, which is the clock in ms), random ids (uuid columns, event ids)
 * and encoded events (outbox payloads carry their event ids and times).
 */
async function snapshot(url: string): Promise<Record<string, string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const cols = await c.query<{ s: string; t: string; cols: string[] }>(
      `select c.table_schema as s, c.table_name as t, array_agg(quote_ident(c.column_name) order by c.ordinal_position) filter (
         where c.data_type not like 'timestamp%' and c.data_type not in ('uuid', 'bytea') and c.column_name not in ('event_id', 'import_id')) as cols
       from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
       where c.table_schema = any($1) and t.table_type = 'BASE TABLE' group by 1, 2 order by 1, 2`,
      [SCHEMAS],
    );
    const out: Record<string, string> = {};
    for (const { s, t, cols: kept } of cols.rows) {
      const list = (kept ?? []).join(', ') || '1';
      const r = await c.query<{ n: number; d: string | null }>(`select count(*)::int as n, md5(string_agg(x::text, '|' order by x::text)) as d from (select ${list} from "${s}"."${t}") x`);
      out[`${s}.${t}`] = `${r.rows[0]!.n} ${r.rows[0]!.d ?? '-'}`;
    }
    return out;
  } finally {
    await c.end();
  }
}

/** Starts `npm start`'s composition on `dataDir`, waits until ready, snapshots the database, stops. */
async function firstStart(dataDir: string): Promise<{ lines: Line[]; snap: Record<string, string> }> {
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  const built = await build('all', loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' }), log);
  try {
    for (const s of built.services) expect((await s.readiness()).ready, `${s.module.name} ready`).toBe(true);
    const ready = await built.gateway!.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    return { lines, snap: await snapshot(built.databaseUrl) };
  } finally {
    await built.stop();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [f]));
}

/**
 * The seeded template (deploy/src/seeded-template.ts): a new DATA_DIR copied from it has nothing to migrate or
 * seed and holds what a DATA_DIR migrated and seeded by its first start holds; without it (other sources, or
 * none built) the first start migrates and seeds as before.
 */
describe('seeded embedded template', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-seeded-'));
  const saved = process.env.EMBEDDED_PG_TEMPLATE_DIR;
  // Private template directories: one with the seeded template, one with the initdb template only.
  const withSeeded = join(root, 'a', `pglite-${pgliteVersion()}`);
  const initdbOnly = join(root, 'b', `pglite-${pgliteVersion()}`);
  beforeAll(async () => {
    const installed = embeddedTemplateDir();
    for (const dir of [withSeeded, initdbOnly]) {
      mkdirSync(join(dir, '..'), { recursive: true });
      // The cluster and its manifest only: the installed template's spare copies (`spare`, `spare.partial-*`) are
      // taken and remade by the other test files' starts meanwhile.
      if (existsSync(join(installed, 'template.json'))) cpSync(installed, dir, { recursive: true, filter: (src) => !/^spare/.test(relative(installed, src)) });
      else await buildEmbeddedTemplate(dir);
    }
  }, 120_000);
  afterAll(() => {
    if (saved === undefined) delete process.env.EMBEDDED_PG_TEMPLATE_DIR;
    else process.env.EMBEDDED_PG_TEMPLATE_DIR = saved;
    rmSync(root, { recursive: true, force: true });
  });

  it('is chosen only for a new DATA_DIR, and only when built from these sources', async () => {
    process.env.EMBEDDED_PG_TEMPLATE_DIR = withSeeded;
    const existing = join(root, 'existing');
    mkdirSync(join(existing, 'pg'), { recursive: true });
    expect(templatesFor(existing)).toBeUndefined();
    expect(templatesFor(join(root, 'new'))).toEqual({ templates: [withSeeded], seeded: false });
    expect(seededTemplateFingerprint()).toMatch(/^[0-9a-f]{64}$/);
    expect(seededTemplateFingerprint()).toBe(seededTemplateFingerprint());
  });

  it('a DATA_DIR copied from it has nothing to migrate or seed, and holds what a first start that migrates and seeds stores', async () => {
    process.env.EMBEDDED_PG_TEMPLATE_DIR = withSeeded;
    const seeded = await buildSeededTemplate();
    expect(seeded).toEqual({ outcome: 'built', dir: seededTemplateDir(seededTemplateFingerprint()) });
    expect(seeded.dir.startsWith(join(root, 'a'))).toBe(true);
    expect((await buildSeededTemplate()).outcome).toBe('exists');
    // No key, no runtime file, no socket: the cluster alone.
    expect(readdirSync(seeded.dir).sort()).toEqual(['pg', 'template.json']);
    expect(filesUnder(seeded.dir).some((f) => /key|runtime\.json|PGSQL/.test(f))).toBe(false);
    expect(JSON.parse(readFileSync(join(seeded.dir, 'template.json'), 'utf8'))).toMatchObject({ pglite: pgliteVersion(), fingerprint: seededTemplateFingerprint() });

    const fromTemplate = join(root, 'from-template', 'data');
    expect(templatesFor(fromTemplate)).toEqual({ templates: [seeded.dir, withSeeded], seeded: true });
    const a = await firstStart(fromTemplate);
    const msgs = (lines: Line[], service?: string) => lines.filter((l) => service === undefined || l.service === service).map((l) => l.msg);
    expect(a.lines.find((l) => l.msg === 'embedded PostgreSQL (PGlite) started')?.created).toBe('seeded template');
    for (const l of a.lines.filter((x) => x.msg.startsWith('migrations'))) expect(l, `${l.service}: nothing to migrate`).toMatchObject({ msg: 'migrations up to date', applied: [] });
    expect(msgs(a.lines, 'calculation')).toEqual(expect.arrayContaining(['VAT rate release already stored', 'ECB reference rates already stored']));

    process.env.EMBEDDED_PG_TEMPLATE_DIR = initdbOnly;
    const migrated = join(root, 'migrated', 'data');
    expect(templatesFor(migrated)).toEqual({ templates: [initdbOnly], seeded: false });
    const b = await firstStart(migrated);
    expect(b.lines.find((l) => l.msg === 'embedded PostgreSQL (PGlite) started')?.created).toBe('initdb template');
    expect(b.lines.filter((l) => l.msg === 'migrations applied').map((l) => l.service).sort()).toEqual(['calculation', 'classification', 'compliance-reports', 'ledger', 'thresholds']);
    expect(msgs(b.lines, 'calculation')).toEqual(expect.arrayContaining(['VAT rate release stored', 'ECB reference rates stored']));

    // Same tables, same rows (the reference data, its projections in ledger, compliance-reports and thresholds,
    // the migrations recorded, the publications and inbox entries).
    expect(Object.keys(a.snap).length).toBeGreaterThan(50);
    expect(a.snap).toEqual(b.snap);
    // 217,555 ECB rates on 6,983 publication days (the shipped history), in calculation and in both projections.
    for (const t of ['calculation.ecb_rate_day', 'ledger.ecb_rate_day_projection', 'compliance_reports.ecb_rate_day_projection']) expect(a.snap[t]!.split(' ')[0]).toBe('6983');

    // Each DATA_DIR made its own data-encryption key at its first start.
    const keyOf = (dataDir: string) => readFileSync(join(dataDir, 'data-encryption.key'), 'utf8');
    expect(keyOf(fromTemplate)).not.toBe(keyOf(migrated));
  }, 600_000);
});
