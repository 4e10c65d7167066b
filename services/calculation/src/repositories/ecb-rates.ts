/**
 * The ECB aggregate's SQL, all of it: publication days (`ecb_rate_day`, one row per day with its rates as a `json`
 * object), the whole history's snapshot text per import marker (`ecb_rate_snapshot`, what a start loads) and the
 * import bookkeeping (`reference_release` rows of kind `ecb`, one per imported file digest).
 * Everything runs through the service's one pool; rows are mapped by column name.
 */
import type pg from 'pg';
import { ECB_DAYS_TEXT, parseEcbDays, selectEcbDays } from '@vat/platform/ecb-day-rows';
import { EcbRateTable } from '@vat/platform/fx';
import { insertRows, type Queryable } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';
import { planEcbImport, type EcbDay } from '../reference/ecb-days';
import { recordEcbImport } from './reference-publications';

const DAYS = '"calculation".ecb_rate_day';
const RELEASES = '"calculation".reference_release';
const SNAPSHOTS = '"calculation".ecb_rate_snapshot';
/** The import marker ({@link EcbMarker}): an aggregate over the `ecb` release rows. */
const MARKER_OF_RELEASES = `coalesce(max(id), 0)::text || ':' || count(*)::text`;
/** The marker as a scalar subquery, so that a statement reads it with what it reads. */
const MARKER = `(select ${MARKER_OF_RELEASES} from ${RELEASES} where kind = 'ecb')`;
/** Days per write statement (about 30,000 rates): the whole history is seven statements. */
const DAYS_PER_STATEMENT = 1000;

/** Changes whenever an import is recorded; a reader holding the same marker holds the same data. */
export type EcbMarker = string;

/**
 * One cheap query: the current import marker, whether the file with `digest` is already imported, and how many
 * imports are recorded (days only ever arrive with an import recorded in the same transaction).
 */
export async function ecbState(db: Queryable, digest = ''): Promise<{ marker: EcbMarker; imported: boolean; imports: number }> {
  const res = await db.query<{ marker: string; imported: boolean; imports: number }>(
    `select ${MARKER_OF_RELEASES} as marker, coalesce(bool_or(digest = $1), false) as imported, count(*)::int as imports
     from ${RELEASES} where kind = 'ecb'`,
    [digest],
  );
  return res.rows[0]!;
}

/**
 * The stored history as a table, with the import marker it is at: the snapshot made at the current marker (one
 * row, split and validated: ≈ 20 ms for the whole history), else the days (one aggregate, the marker read by the
 * same statement), whose snapshot is then stored for the next reader (kept if one is there already: an import
 * writes its own in its transaction).
 */
export async function loadEcbTable(db: Queryable): Promise<{ marker: EcbMarker; table: EcbRateTable }> {
  const snap = await db.query<{ marker: string; body: string | null }>(
    `select m.marker, s.body from (select ${MARKER} as marker) m left join ${SNAPSHOTS} s on s.marker = m.marker`,
  );
  const { marker, body } = snap.rows[0]!;
  if (body !== null) return { marker, table: EcbRateTable.fromSnapshot(body) };
  const res = await db.query<{ marker: string; days: string | null }>(`select ${MARKER} as marker, ${ECB_DAYS_TEXT} as days from ${DAYS}`);
  const at = res.rows[0]!;
  const table = EcbRateTable.fromDays(parseEcbDays(at.days));
  await db.query(`insert into ${SNAPSHOTS} (marker, body, created_at) values ($1, $2, now()) on conflict (marker) do nothing`, [at.marker, table.snapshot()]);
  return { marker: at.marker, table };
}

/** Every stored publication day, oldest first. */
export async function loadEcbDays(db: Queryable): Promise<EcbDay[]> {
  return selectEcbDays(db, DAYS);
}

type EcbRelease = { digest: string; version: string; rowCount: number };
export type EcbStoreResult = { inserted: number; updated: number; unchanged: number };

/**
 * Stores imported days in one transaction, one import at a time (a table lock that leaves readers alone): reads
 * the stored days in the imported range, writes only the days that change (stored rates of other currencies are
 * kept), and records the file's release row. `onProgress(done, total)` counts imported rates after each batch.
 */
export async function storeEcbImport(pool: pg.Pool, days: readonly EcbDay[], release: EcbRelease, onProgress?: (done: number, total: number) => void): Promise<EcbStoreResult> {
  return inTransaction(pool, async (client) => {
    await client.query(`lock table ${DAYS} in share row exclusive mode`);
    const stored = await storedDaysBetween(client, days[0]?.date, days.at(-1)?.date);
    const result: EcbStoreResult = { inserted: 0, updated: 0, unchanged: 0 };
    const changed: EcbDay[] = [];
    let done = 0;
    for (let i = 0; i < days.length; i += DAYS_PER_STATEMENT) {
      const batch = days.slice(i, i + DAYS_PER_STATEMENT);
      const plan = planEcbImport(stored, batch);
      const rows = plan.changed.map((d) => ({ rate_date: d.date, rates: d.rates }));
      await insertRows(client, DAYS, { rate_date: 'date', rates: 'json' }, rows, 'on conflict (rate_date) do update set rates = excluded.rates');
      changed.push(...plan.changed);
      result.inserted += plan.inserted;
      result.updated += plan.updated;
      result.unchanged += plan.unchanged;
      done += plan.inserted + plan.updated + plan.unchanged;
      onProgress?.(done, release.rowCount);
    }
    // One statement records the import and, when it is new, publishes the changed days (merged with what was
    // stored) to the other services' projections and records that publication.
    await recordEcbImport(client, release, changed, new Date());
    // The snapshot of the history as this import leaves it, named by the marker it leaves; older ones go.
    const table = EcbRateTable.fromDays(await selectEcbDays(client, DAYS));
    await client.query(
      `with older as (delete from ${SNAPSHOTS} where marker <> ${MARKER})
       insert into ${SNAPSHOTS} (marker, body, created_at) values (${MARKER}, $1, now()) on conflict (marker) do update set body = excluded.body, created_at = excluded.created_at`,
      [table.snapshot()],
    );
    return result;
  });
}

async function storedDaysBetween(db: Queryable, from: string | undefined, to: string | undefined): Promise<Map<string, Record<string, string>>> {
  if (from === undefined || to === undefined) return new Map();
  const res = await db.query<{ rate_date: string; rates: Record<string, string> }>(
    `select rate_date::text as rate_date, rates from ${DAYS} where rate_date between $1::date and $2::date`,
    [from, to],
  );
  return new Map(res.rows.map((r) => [r.rate_date, r.rates]));
}
