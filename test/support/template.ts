import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import pino from 'pino';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const INPUTS = ['gateway/src/migrations', 'services', 'seeds'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === 'node_modules') return [];
    return statSync(p).isDirectory() ? files(p) : /migrations\/Migration|seeds\/.*\.(json|csv)$/.test(p) ? [p] : [];
  });
}

/** Name of the template database for the current migrations and seed data. */
export function templateName(): string {
  const h = createHash('sha256');
  for (const f of INPUTS.flatMap((d) => files(join(ROOT, d))).sort()) h.update(f).update(readFileSync(f));
  return `vat_tpl_${h.digest('hex').slice(0, 16)}`;
}

/** Creates (once) a database with every schema migrated and all reference data seeded. */
export async function ensureTemplate(serverUrl: string): Promise<string> {
  const name = templateName();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return name;
    // Templates of older migrations/seeds are never used again: drop them (skipping any in use). Only in CI:
    // locally, several work trees may share one PostgreSQL server, each with its own template.
    const stale = await admin.query(`select datname from pg_database where datname ~ '^vat_tpl_[0-9a-f]{16}$' and datname <> $1`, [name]);
    if (process.env.CI === 'true') for (const row of stale.rows as { datname: string }[]) await admin.query(`drop database if exists ${row.datname}`).catch(() => undefined);
    const building = `${name}_b${process.pid}`;
    await admin.query(`create database ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    const { build } = await import('@vat/deploy/build');
    const { loadConfig } = await import('@vat/platform/config');
    const built = await build('all', loadConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: 'silent', PORT: '0' }), pino({ level: 'silent' }));
    await built.stop();
    await admin.query(`alter database ${building} rename to ${name}`).catch(async () => {
      await admin.query(`drop database if exists ${building} with (force)`);
    });
    return name;
  } finally {
    await admin.end();
  }
}
