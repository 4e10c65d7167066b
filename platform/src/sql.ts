/** Small helpers for hand-written SQL: statements built from column lists, never by position. */
import type pg from 'pg';

/** A parameterized statement for `pg` (`$n` placeholders). */
export type Statement = { text: string; values: unknown[] };

/**
 * `insert into <table> (<columns>) values ($1, …)` from a record of column → value, so no
 * statement binds a long positional list by hand. `casts` adds a `::type` to named columns.
 */
export function insertStatement(table: string, row: Record<string, unknown>, casts: Record<string, string> = {}, offset = 0): Statement {
  const columns = Object.keys(row);
  const placeholders = columns.map((c, i) => `$${i + 1 + offset}${casts[c] ? `::${casts[c]}` : ''}`);
  return { text: `insert into ${table} (${columns.join(', ')}) values (${placeholders.join(', ')})`, values: Object.values(row) };
}

/** `update <table> set <column> = $n, … where <column> = $m and …` from records of column → value. */
export function updateStatement(table: string, set: Record<string, unknown>, where: Record<string, unknown>): Statement {
  const values: unknown[] = [];
  const bind = ([column, value]: [string, unknown]) => {
    values.push(value);
    return `${column} = $${values.length}`;
  };
  const assignments = Object.entries(set).map(bind);
  const conditions = Object.entries(where).map(bind);
  return { text: `update ${table} set ${assignments.join(', ')} where ${conditions.join(' and ')}`, values };
}

/** Collects `and`-joined conditions with their `$n` parameters. */
export class Where {
  private readonly parts: string[] = [];
  readonly values: unknown[] = [];

  /** Adds a condition whose `?` is replaced by the next placeholder. */
  and(condition: string, value?: unknown): this {
    if (!condition.includes('?')) {
      this.parts.push(condition);
      return this;
    }
    this.values.push(value);
    this.parts.push(condition.replace('?', `$${this.values.length}`));
    return this;
  }

  /** The next placeholder for a value appended after the conditions (limits, keyset bounds). */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  get sql(): string {
    return this.parts.length ? this.parts.join(' and ') : 'true';
  }
}

/** A timestamp as the service's pool returns it ('2026-03-01 00:00:00+00' or a Date) to a Date. */
export function pgTimestamp(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v).replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw new Error(`not a timestamp: ${String(v)}`);
  return d;
}

/**
 * Reads a large ordered result in keyset batches, each batch its own short statement (no cursor,
 * no transaction held open), so streaming reads are safe on every database the service runs on,
 * including the embedded one, and other requests interleave between batches.
 */
export async function* keysetBatches<R>(fetch: (after: string | undefined) => Promise<R[]>, keyOf: (row: R) => string, signal?: AbortSignal): AsyncGenerator<R[]> {
  let after: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const rows = await fetch(after);
    if (rows.length === 0) return;
    yield rows;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/** Anything that runs a parameterised statement: the service's pool or one of its checked-out clients. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** Column name → PostgreSQL type of its parameter (`json`/`jsonb` cells are sent as JSON text). */
type ColumnTypes = Readonly<Record<string, string>>;

/** PostgreSQL binds at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 65_535;

/**
 * One multi-row `insert ... values (...), (...)` statement built from a column list: each row is an object read
 * by column name, never by position. `suffix` is appended (e.g. an `on conflict` clause).
 */
export function insertRowsStatement(table: string, columns: ColumnTypes, rows: readonly Readonly<Record<string, unknown>>[], suffix = ''): { text: string; values: unknown[] } {
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

/** Inserts rows with as few {@link insertRowsStatement}s as the parameter limit allows; returns the statements run. */
export async function insertRows(db: Queryable, table: string, columns: ColumnTypes, rows: readonly Readonly<Record<string, unknown>>[], suffix = ''): Promise<number> {
  const perStatement = Math.floor(MAX_PARAMETERS / Object.keys(columns).length);
  let statements = 0;
  for (let i = 0; i < rows.length; i += perStatement) {
    const { text, values } = insertRowsStatement(table, columns, rows.slice(i, i + perStatement), suffix);
    await db.query(text, values);
    statements++;
  }
  return statements;
}

/**
 * `select <columns>` of `table`'s rows whose text column `key` is one of the array parameter `keys` (e.g. `$2`) and
 * that match `scope` (a predicate on the table, e.g. `account_id = $1`): one probe of the table's `(…, key)` index per
 * key, whatever the planner's statistics (the subquery is kept a parameterised probe by `offset 0`). Written as
 * `key = any($2)` the planner, without fresh statistics, can read every row of the scope through another index and
 * filter them (the ledger's duplicate check: 60 ms per batch of 1,000 at 60,000 events, growing with the account).
 */
export function rowsByKeys(table: string, columns: string, scope: string, key: string, keys: string): string {
  return `select r.* from unnest(${keys}::text[]) as k(v) cross join lateral (select ${columns} from ${table} where ${scope} and ${key} = k.v offset 0) r`;
}

/**
 * The distinct JSON documents of one statement, each sent once in a parameter (a JSON array) and turned into jsonb
 * once by `jsonDocsCte`, the rows naming theirs by number (1-based): cheaper than a jsonb per row when many rows carry
 * the same document (the ECB evidence of one day, the rate evidence of one window).
 */
export class JsonDocs {
  private readonly numbers = new Map<unknown, number>();
  private readonly texts: string[] = [];

  /** The number of `doc`: an object is known by identity, a JSON text by its content. */
  ref(doc: object | string): number {
    let n = this.numbers.get(doc);
    if (n === undefined) {
      n = this.texts.push(typeof doc === 'string' ? doc : JSON.stringify(doc));
      this.numbers.set(doc, n);
    }
    return n;
  }

  /** The parameter: the documents as a JSON array, in number order. */
  param(): string {
    return `[${this.texts.join(',')}]`;
  }
}

/** `<name> as materialized (...)`: a JsonDocs parameter as rows (ord, doc jsonb), each document converted once. */
export function jsonDocsCte(name: string, param: string): string {
  return `${name} as materialized (select ord::int as ord, value::jsonb as doc from json_array_elements(${param}::json) with ordinality as e(value, ord))`;
}

/** A column of {@link jsonRowsSelect}: its name and SQL type (`jsonb`: the element itself, any other: its text cast). */
export type JsonRowColumn = readonly [name: string, type: string];

/**
 * Many rows in one parameter: a JSON array of positional arrays (`JSON.stringify([[v0, v1, …], …])`, a JSON
 * null for SQL NULL), read as rows of `columns` in array order. Against `json_to_recordset` of objects, the text
 * is about half as long (no keys), V8 builds it three to four times faster (arrays of primitives take its fast
 * path; no object per row) and PostgreSQL reads 2,000 supply events in 7 ms instead of 15–18 (docs/benchmarks.md).
 * Each value converts as `json_to_recordset` converts it: the JSON text of a string or number through the type's input.
 */
export function jsonRowsSelect(param: string, columns: readonly JsonRowColumn[]): string {
  const cols = columns.map(([c, t], i) => (t === 'jsonb' ? `nullif(v->${i}, 'null'::jsonb) as ${c}` : `(v->>${i})::${t} as ${c}`));
  return `select ${cols.join(', ')} from jsonb_array_elements(${param}::jsonb) as e(v)`;
}
