import type pg from 'pg';

/**
 * How statements read an outbox's unpublished rows. Both the relay's claim (./outbox) and the metrics' pending
 * count (./metrics) walk the partial index of unpublished rows (`outbox_unpublished_created_at_idx`) with a plain
 * index scan, which skips the entries of rows published since the last vacuum once a scan has passed them (and
 * marked them dead). The planner otherwise prefers a bitmap scan while its statistics count few unpublished rows,
 * and a bitmap scan reads every such entry and its heap page each time: after 15 s of persisted calculations the
 * claim read 67,710 entries and 2,872 pages, 41 ms, against 1 ms (test/bench/outbox-claim.ts; docs/architecture.md).
 */

/** `set local` for the statement that follows in the same simple-protocol message (one implicit transaction). */
export const OUTBOX_SCAN_SETTINGS = 'set local enable_bitmapscan = off;';

/** The last statement's result of a message led by `set local` settings (node-postgres answers one per statement). */
export function lastResult<R extends pg.QueryResultRow>(res: pg.QueryResult<R> | pg.QueryResult<R>[]): pg.QueryResult<R> {
  return Array.isArray(res) ? res[res.length - 1]! : res;
}

/** How many rows of `schema`'s outbox are unpublished, and the oldest one's age in seconds (0 when none). */
export function outboxPendingSql(schema: string): string {
  return `select count(*)::text as pending, coalesce(extract(epoch from now() - min(created_at)), 0)::text as oldest from "${schema}".outbox where published_at is null`;
}
