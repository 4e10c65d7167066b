import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { jsonRowsSelect, type JsonRowColumn } from '../src/sql';

const backends = await requireBackends(['postgres']);

const COLUMNS: JsonRowColumn[] = [
  ['t', 'text'], ['b', 'bigint'], ['i', 'int'], ['f', 'boolean'], ['ts', 'timestamptz'], ['u', 'uuid'], ['j', 'jsonb'], ['bin', 'bytea'], ['n', 'numeric'],
];

/** A value of each column as the services send it (bigints and numerics as decimal text, bytea as `\x` hex), or null. */
const cell = (a: fc.Arbitrary<unknown>) => fc.option(a, { nil: null, freq: 4 });
const row = fc.tuple(
  // Any text PostgreSQL can hold (no NUL), with quotes, backslashes, control characters and astral code points.
  cell(fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\u0000'))),
  cell(fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n).map(String)),
  cell(fc.integer()),
  cell(fc.boolean()),
  cell(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString())),
  cell(fc.uuid()),
  cell(fc.jsonValue({ maxDepth: 2 }).filter((v) => v !== null && !JSON.stringify(v).includes('\\u0000'))),
  cell(fc.uint8Array({ maxLength: 8 }).map((b) => `\\x${Buffer.from(b).toString('hex')}`)),
  cell(fc.bigInt(-(10n ** 30n), 10n ** 30n).map(String)),
);

describe.skipIf(!backends.ok)('jsonRowsSelect (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let client: pg.Client;
  beforeAll(async () => {
    db = await freshDatabase({ empty: true });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('reads positional rows exactly as json_to_recordset reads the same rows as objects, in order (property)', async () => {
    const positional = `select * from (${jsonRowsSelect('$1', COLUMNS)}) r`;
    const objects = `select * from json_to_recordset($1::json) as r(${COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})`;
    let nonNull = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 20 }), async (rows) => {
        const a = await client.query(positional, [JSON.stringify(rows)]);
        // The object form leaves a null out (json_to_recordset reads an absent key as NULL), as the services did.
        const b = await client.query(objects, [JSON.stringify(rows.map((r) => Object.fromEntries(COLUMNS.flatMap(([c], i) => (r[i] === null ? [] : [[c, r[i]]])))))]);
        expect(a.rows).toEqual(b.rows);
        expect(a.rows.length).toBe(rows.length);
        nonNull += a.rows.filter((r) => r.t !== null && r.j !== null && r.bin !== null).length;
      }),
      { numRuns: 150 },
    );
    // Not vacuous: rows with text, JSON and bytes were compared.
    expect(nonNull).toBeGreaterThan(50);
  });

  it('an empty array is no rows; a JSON null in a jsonb column is SQL NULL', async () => {
    expect((await client.query(`select * from (${jsonRowsSelect('$1', COLUMNS)}) r`, ['[]'])).rows).toEqual([]);
    const r = await client.query(`select j is null as j_null, t from (${jsonRowsSelect('$1', [['t', 'text'], ['j', 'jsonb']])}) r`, ['[["a\\"b\\\\c", null]]']);
    expect(r.rows).toEqual([{ j_null: true, t: 'a"b\\c' }]);
  });
});
