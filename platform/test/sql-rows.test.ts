import { describe, expect, it } from 'vitest';
import { insertRows, insertRowsStatement } from '../src/sql';

describe('insertRowsStatement', () => {
  it('reads cells by column name, casts each parameter, sends JSON columns as JSON text', () => {
    const { text, values } = insertRowsStatement(
      't',
      { id: 'int', tags: 'jsonb', note: 'text' },
      [
        { note: 'a', id: 1, tags: ['x'] },
        { id: 2, tags: null },
      ],
      'on conflict do nothing',
    );
    expect(text).toBe('insert into t ("id", "tags", "note") values ($1::int, $2::jsonb, $3::text), ($4::int, $5::jsonb, $6::text) on conflict do nothing');
    expect(values).toEqual([1, '["x"]', 'a', 2, null, null]);
  });
});

describe('insertRows', () => {
  it('splits rows so that no statement binds more than 65,535 parameters', async () => {
    const statements: number[] = [];
    const db = { query: async (_text: string, values: unknown[]) => statements.push(values.length) };
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ a: i, b: i }));
    const n = await insertRows(db as never, 't', { a: 'int', b: 'int' }, rows);
    expect(n).toBe(2);
    expect(statements).toEqual([65_534, 80_000 - 65_534]);
    expect(await insertRows(db as never, 't', { a: 'int' }, [])).toBe(0);
  });
});
