import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertStatement, keysetBatches, pgTimestamp, Where } from '../src/sql';

describe('sql helpers', () => {
  it('insertStatement binds one placeholder per column, in column order, with casts', () => {
    const s = insertStatement('"s".t', { a: 1, b: 'x', c: '{}' }, { c: 'jsonb' });
    expect(s.text).toBe('insert into "s".t (a, b, c) values ($1, $2, $3::jsonb)');
    expect(s.values).toEqual([1, 'x', '{}']);
  });

  it('insertStatement: any record gives as many placeholders as columns and keeps the values', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z_]{1,12}$/), fc.oneof(fc.integer(), fc.string())), (row) => {
        const s = insertStatement('t', row);
        expect(s.values).toEqual(Object.values(row));
        expect((s.text.match(/\$\d+/g) ?? []).length).toBe(Object.keys(row).length);
      }),
    );
  });

  it('Where numbers its placeholders in the order conditions and params are added', () => {
    const w = new Where().and('a = ?', 1).and('b is null').and('c < ?', 3);
    const limit = w.param(10);
    expect(w.sql).toBe('a = $1 and b is null and c < $2');
    expect(limit).toBe('$3');
    expect(w.values).toEqual([1, 3, 10]);
    expect(new Where().sql).toBe('true');
  });

  it('pgTimestamp reads the pool text form and Dates, and refuses garbage', () => {
    expect(pgTimestamp('2026-03-01 00:00:00+00').toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(pgTimestamp('2026-03-01 01:30:00.25+01').toISOString()).toBe('2026-03-01T00:30:00.250Z');
    const d = new Date(0);
    expect(pgTimestamp(d)).toBe(d);
    expect(() => pgTimestamp('yesterday')).toThrow(/not a timestamp/);
  });

  it('keysetBatches pages by the last key until an empty batch, and stops when aborted', async () => {
    const data = Array.from({ length: 7 }, (_, i) => ({ k: String(i + 1) }));
    const seen: (string | undefined)[] = [];
    const fetch = async (after: string | undefined) => {
      seen.push(after);
      return data.filter((r) => after === undefined || Number(r.k) > Number(after)).slice(0, 3);
    };
    const batches: string[][] = [];
    for await (const b of keysetBatches(fetch, (r) => r.k)) batches.push(b.map((r) => r.k));
    expect(batches).toEqual([['1', '2', '3'], ['4', '5', '6'], ['7']]);
    expect(seen).toEqual([undefined, '3', '6', '7']);
    const ac = new AbortController();
    const it2 = keysetBatches(fetch, (r) => r.k, ac.signal);
    await it2.next();
    ac.abort();
    await expect(it2.next()).rejects.toThrow();
  });
});
