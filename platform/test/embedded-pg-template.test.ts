import { PGlite } from '@electric-sql/pglite';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/embedded-pg';
import { buildEmbeddedTemplate, hasEmbeddedTemplate, replenishSpare, seedFromEmbeddedTemplate } from '../src/embedded-pg-template';

describe('embedded database template cluster', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-pg-template-'));
  const template = join(root, 'template');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is built once, and a copy opens as an ordinary fresh cluster that keeps its own data', async () => {
    expect(hasEmbeddedTemplate(template)).toBe(false);
    expect(seedFromEmbeddedTemplate(join(root, 'none'), template)).toBeUndefined();
    expect(existsSync(join(root, 'none'))).toBe(false);
    expect(await buildEmbeddedTemplate(template)).toBe('built');
    expect(await buildEmbeddedTemplate(template)).toBe('exists');

    const a = join(root, 'a', 'pg');
    const b = join(root, 'b', 'pg');
    mkdirSync(join(root, 'a'));
    mkdirSync(join(root, 'b'));
    expect(seedFromEmbeddedTemplate(a, template)).toBe('copy');
    expect(seedFromEmbeddedTemplate(b, template)).toBe('copy');
    // An existing directory is never overwritten.
    expect(seedFromEmbeddedTemplate(a, template)).toBeUndefined();

    const dbA = await PGlite.create({ dataDir: a });
    await dbA.exec('create table t (v int); insert into t values (42)');
    await dbA.close();
    const dbB = await PGlite.create({ dataDir: b });
    expect((await dbB.query(`select count(*)::int as n from pg_tables where tablename = 't'`)).rows).toEqual([{ n: 0 }]);
    await dbB.close();
    const again = await PGlite.create({ dataDir: a });
    expect((await again.query('select v from t')).rows).toEqual([{ v: 42 }]);
    await again.close();
    // The template itself is untouched by its copies.
    const t = await PGlite.create({ dataDir: join(template, 'pg') });
    expect((await t.query(`select count(*)::int as n from pg_tables where tablename = 't'`)).rows).toEqual([{ n: 0 }]);
    await t.close();
  }, 120_000);

  it('a spare copy is made once, taken by one new data directory with a rename, and made again; stale partial copies go', async () => {
    expect(await replenishSpare(template)).toBe(true);
    expect(await replenishSpare(template)).toBe(false); // there is one
    const spareInode = statSync(join(template, 'spare')).ino;
    // Partial copies: of a process that is gone (removed at the next replenish), of a live one recent (kept: it
    // is still copying) and old (removed: a pid reused long after).
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = join(template, `spare.partial-${gone}-dead`);
    const recent = join(template, `spare.partial-${process.pid}-busy`);
    const old = join(template, `spare.partial-${process.pid}-old`);
    for (const p of [stale, recent, old]) mkdirSync(p);
    const longAgo = new Date(Date.now() - 11 * 60_000);
    utimesSync(old, longAgo, longAgo);

    const d = join(root, 'd', 'pg');
    mkdirSync(join(root, 'd'));
    expect(seedFromEmbeddedTemplate(d, template)).toBe('spare');
    // Moved, not copied: the same directory, and the template has no spare until one is made again.
    expect(statSync(d).ino).toBe(spareInode);
    expect(existsSync(join(template, 'spare'))).toBe(false);
    const e = join(root, 'e', 'pg');
    mkdirSync(join(root, 'e'));
    expect(seedFromEmbeddedTemplate(e, template)).toBe('copy');

    expect(await replenishSpare(template)).toBe(true);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(readdirSync(template).sort()).toEqual(['pg', 'spare', `spare.partial-${process.pid}-busy`, 'template.json']);
    rmSync(recent, { recursive: true });
    // A cluster made from the spare opens as an ordinary fresh one.
    const db = await PGlite.create({ dataDir: d });
    expect((await db.query(`select count(*)::int as n from pg_tables where tablename = 't'`)).rows).toEqual([{ n: 0 }]);
    await db.close();
  }, 120_000);

  it('the embedded database on a new data directory takes the spare, and has made the next one when it has stopped', async () => {
    expect(existsSync(join(template, 'spare'))).toBe(true);
    const db = await startEmbeddedPostgres(join(root, 'f'), { templates: [template] });
    expect(db.createdFrom).toBe(template);
    expect(db.createdBy).toBe('spare');
    await db.stop();
    expect(existsSync(join(template, 'spare', 'PG_VERSION'))).toBe(true);
    expect(readdirSync(template).filter((n) => n.startsWith('spare.partial-'))).toEqual([]);
    // While it runs, the next spare is made once the start is over (here after 100 ms instead of 5 s).
    const g = await startEmbeddedPostgres(join(root, 'g'), { templates: [template], spareAfterMs: 100 });
    expect(g.createdBy).toBe('spare');
    await expect.poll(() => existsSync(join(template, 'spare', 'PG_VERSION')), { timeout: 30_000 }).toBe(true);
    await g.stop();
    // Opened again (nothing to create), it takes nothing.
    const again = await startEmbeddedPostgres(join(root, 'f'), { templates: [template] });
    expect(again.createdBy).toBeUndefined();
    await again.stop();
  }, 120_000);

  it('an incomplete template (no marker: a build that died) is never copied', async () => {
    const partial = join(root, 'partial');
    mkdirSync(join(partial, 'pg'), { recursive: true });
    writeFileSync(join(partial, 'pg', 'PG_VERSION'), '17\n');
    expect(hasEmbeddedTemplate(partial)).toBe(false);
    // Nor is a spare made for it or taken from it.
    expect(seedFromEmbeddedTemplate(join(root, 'c'), partial)).toBeUndefined();
    expect(existsSync(join(root, 'c'))).toBe(false);
    expect(await replenishSpare(partial)).toBe(false);
    expect(existsSync(join(partial, 'spare'))).toBe(false);
  });
});
