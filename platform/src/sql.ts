/** Small helpers for hand-written SQL: statements built from column lists, never by position. */

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
