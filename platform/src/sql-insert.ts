import type pg from 'pg';

/** Anything that runs a parameterised statement: the service's pool or one of its checked-out clients. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** Column name → PostgreSQL type of its parameter (`json`/`jsonb` cells are sent as JSON text). */
export type ColumnTypes = Readonly<Record<string, string>>;

/** PostgreSQL binds at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 65_535;

/**
 * One multi-row `insert ... values (...), (...)` statement built from a column list: each row is an object read
 * by column name, never by position. `suffix` is appended (e.g. an `on conflict` clause).
 */
export function insertStatement(table: string, columns: ColumnTypes, rows: readonly Readonly<Record<string, unknown>>[], suffix = ''): { text: string; values: unknown[] } {
  const names = Object.keys(columns);
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const cells = names.map((name) => {
      const type = columns[name]!;
      const cell = row[name];
      values.push((type === 'json' || type === 'jsonb') && cell !== null && cell !== undefined ? JSON.stringify(cell) : (cell ?? null));
      return `$${values.length}::${type}`;
    });
    return `(${cells.join(', ')})`;
  });
  const text = `insert into ${table} (${names.map((n) => `"${n}"`).join(', ')}) values ${tuples.join(', ')}${suffix ? ` ${suffix}` : ''}`;
  return { text, values };
}

/** Inserts rows with as few {@link insertStatement}s as the parameter limit allows; returns the statements run. */
export async function insertRows(db: Queryable, table: string, columns: ColumnTypes, rows: readonly Readonly<Record<string, unknown>>[], suffix = ''): Promise<number> {
  const perStatement = Math.floor(MAX_PARAMETERS / Object.keys(columns).length);
  let statements = 0;
  for (let i = 0; i < rows.length; i += perStatement) {
    const { text, values } = insertStatement(table, columns, rows.slice(i, i + perStatement), suffix);
    await db.query(text, values);
    statements++;
  }
  return statements;
}
