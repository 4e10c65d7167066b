import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { processAlive } from './process-alive';

/**
 * A freshly initialised, cleanly shut down PGlite cluster kept beside the installed packages, so a new
 * data directory starts from a copy (about 0.5 s) instead of running initdb in WebAssembly (about 5 s
 * of CPU). It is built once per PGlite version by `npm ci`/`npm install` (the `postinstall` script runs
 * `buildEmbeddedTemplate`) and holds nothing of ours: no schema, no data, no secret. A PostgreSQL
 * cluster shut down cleanly is relocatable, so every copy is an ordinary fresh cluster. Without a
 * template (for example `npm ci --ignore-scripts`) PGlite initialises the directory itself, as before.
 */

const require = createRequire(import.meta.url);
const MARKER = 'template.json';

/** The installed PGlite version: a data directory (and a backup of one) opens only with the version that wrote it. */
export function pgliteVersion(): string {
  // The package's entry point lives under <package>/dist; its package.json is one level up.
  const entry = require.resolve('@electric-sql/pglite');
  let dir = dirname(entry);
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
  }
  throw new Error(`cannot find the version of @electric-sql/pglite (entry ${entry})`);
}

/** `<node_modules>/.cache/vat-embedded-pg/pglite-<version>`, or EMBEDDED_PG_TEMPLATE_DIR when set. */
export function embeddedTemplateDir(): string {
  const override = process.env.EMBEDDED_PG_TEMPLATE_DIR;
  if (override) return override;
  const entry = require.resolve('@electric-sql/pglite');
  const at = entry.lastIndexOf(`${sep}node_modules${sep}`);
  const modules = at >= 0 ? entry.slice(0, at + '/node_modules'.length) : join(dirname(entry), '..', '..');
  return join(modules, '.cache', 'vat-embedded-pg', `pglite-${pgliteVersion()}`);
}

/** True when a complete template is present (the marker is written last). */
export function hasEmbeddedTemplate(dir = embeddedTemplateDir()): boolean {
  return existsSync(join(dir, MARKER)) && existsSync(join(dir, 'pg', 'PG_VERSION'));
}

/** What a complete template's marker says (the PGlite version, and what else its builder recorded). */
export function embeddedTemplateMarker(dir: string): Record<string, unknown> | undefined {
  if (!hasEmbeddedTemplate(dir)) return undefined;
  try {
    return JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A ready copy of the template's cluster, kept beside it: a new data directory takes it with one rename. */
const SPARE = 'spare';
/** A spare being copied: `spare.partial-<pid>-<random>`, renamed to SPARE when complete. */
const SPARE_PARTIAL = 'spare.partial-';
/** A partial spare of a process that is gone, or this old (its pid reused), was left by a process that stopped while copying it. */
const STALE_PARTIAL_MS = 10 * 60_000;

/**
 * Creates `target` (a PGlite data directory that does not exist yet) from the template: by moving the template's
 * spare copy there (one rename, when there is a spare on the same file system and the directories are writable),
 * else as a copy, made into a sibling first and renamed, so a crash never leaves a half-copied cluster behind.
 * Returns how (`'spare'` or `'copy'`), or undefined (leaving nothing behind) when there is no template, or it
 * could not be copied.
 */
export function seedFromEmbeddedTemplate(target: string, dir = embeddedTemplateDir()): 'spare' | 'copy' | undefined {
  if (!hasEmbeddedTemplate(dir) || existsSync(target)) return undefined;
  try {
    renameSync(join(dir, SPARE), target);
    return 'spare';
  } catch {
    // No spare (taken by another start, not made yet), another file system, or a read-only installation.
  }
  const partial = `${target}.copy-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    cpSync(join(dir, 'pg'), partial, { recursive: true });
  } catch {
    // The template went away meanwhile (a newer one replaced it): the caller takes the next one, or initdb.
    rmSync(partial, { recursive: true, force: true });
    return undefined;
  }
  renameSync(partial, target);
  return 'copy';
}

/**
 * Makes the template's spare copy when it has none (copied beside it under a temporary name, renamed when
 * complete; partial copies left by processes that stopped while copying are removed first). A new data
 * directory then starts with a rename instead of a copy of a thousand-odd files, which on a busy disk took
 * most of a first start. True when it made one; false when there is one already, another process made it
 * meanwhile, or the installation is not writable (nothing is left behind then).
 */
export async function replenishSpare(dir = embeddedTemplateDir()): Promise<boolean> {
  if (!hasEmbeddedTemplate(dir) || existsSync(join(dir, SPARE))) return false;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(SPARE_PARTIAL)) continue;
    const pid = Number(name.slice(SPARE_PARTIAL.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0) continue; // not one of ours
    try {
      if (!processAlive(pid) || Date.now() - statSync(join(dir, name)).mtimeMs > STALE_PARTIAL_MS) rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      /* removed by another process meanwhile */
    }
  }
  const partial = join(dir, `${SPARE_PARTIAL}${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await cp(join(dir, 'pg'), partial, { recursive: true });
    // Fails when another process put a spare there meanwhile.
    renameSync(partial, join(dir, SPARE));
    return true;
  } catch {
    return false;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** Builds the template once (a no-op when it exists); safe when several installs race. */
export async function buildEmbeddedTemplate(dir = embeddedTemplateDir()): Promise<'exists' | 'built'> {
  return buildTemplateWith(dir, {}, async (pgDir) => {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create({ dataDir: pgDir });
    await db.query('select 1');
    await db.close();
  });
}

/**
 * Builds a template at `dir` once (a no-op when a complete one is there): `fill(pgDir)` leaves a cleanly shut
 * down cluster at `pgDir` (inside a work directory beside `dir`), the marker (PGlite version plus `marker`) is
 * written last, and the work directory is renamed into place. Safe when several builders race.
 */
export async function buildTemplateWith(dir: string, marker: Record<string, unknown>, fill: (pgDir: string) => Promise<void>): Promise<'exists' | 'built'> {
  if (hasEmbeddedTemplate(dir)) return 'exists';
  const work = `${dir}.build-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    await fill(join(work, 'pg'));
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  writeFileSync(join(work, MARKER), JSON.stringify({ pglite: pgliteVersion(), ...marker, builtAt: new Date().toISOString() }));
  try {
    if (hasEmbeddedTemplate(dir)) return 'exists'; // another install finished first
    rmSync(dir, { recursive: true, force: true }); // an incomplete one (no marker) is never copied
    renameSync(work, dir);
  } catch (err) {
    if (!hasEmbeddedTemplate(dir)) throw err;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return 'built';
}
