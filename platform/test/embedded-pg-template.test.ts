import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEmbeddedTemplate, hasEmbeddedTemplate, seedFromEmbeddedTemplate } from '../src/embedded-pg-template';

describe('embedded database template cluster', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-pg-template-'));
  const template = join(root, 'template');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is built once, and a copy opens as an ordinary fresh cluster that keeps its own data', async () => {
    expect(hasEmbeddedTemplate(template)).toBe(false);
    expect(seedFromEmbeddedTemplate(join(root, 'none'), template)).toBe(false);
    expect(existsSync(join(root, 'none'))).toBe(false);
    expect(await buildEmbeddedTemplate(template)).toBe('built');
    expect(await buildEmbeddedTemplate(template)).toBe('exists');

    const a = join(root, 'a', 'pg');
    const b = join(root, 'b', 'pg');
    mkdirSync(join(root, 'a'));
    mkdirSync(join(root, 'b'));
    expect(seedFromEmbeddedTemplate(a, template)).toBe(true);
    expect(seedFromEmbeddedTemplate(b, template)).toBe(true);
    // An existing directory is never overwritten.
    expect(seedFromEmbeddedTemplate(a, template)).toBe(false);

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

  it('an incomplete template (no marker: a build that died) is never copied', () => {
    const partial = join(root, 'partial');
    mkdirSync(join(partial, 'pg'), { recursive: true });
    writeFileSync(join(partial, 'pg', 'PG_VERSION'), '17\n');
    expect(hasEmbeddedTemplate(partial)).toBe(false);
    expect(seedFromEmbeddedTemplate(join(root, 'c'), partial)).toBe(false);
  });
});
