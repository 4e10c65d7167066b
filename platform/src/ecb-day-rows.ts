import type { EcbPublicationDay } from './fx';
import type { Queryable } from './sql';

/**
 * Every ECB publication day of `table` (columns `rate_date`, `rates` json or jsonb), oldest first, read as one
 * JSON text made by the database and parsed once. The whole history is about 7,000 rows of 30-odd rates: as
 * rows, the driver parses each row's JSON on its own, which cost two to three times as much CPU at every start
 * as this single text (measured on the embedded database, docs/benchmarks.md "Start time").
 */
export async function selectEcbDays(db: Queryable, table: string): Promise<EcbPublicationDay[]> {
  const res = await db.query<{ days: string | null }>(
    `select ${ECB_DAYS_TEXT} as days from ${table}`,
  );
  return parseEcbDays(res.rows[0]?.days ?? null);
}

/** The SQL expression (an aggregate over a table of `rate_date`, `rates`) of {@link selectEcbDays}'s one text. */
export const ECB_DAYS_TEXT = `'[' || string_agg('["' || rate_date::text || '",' || rates::text || ']', ',' order by rate_date) || ']'`;

/** The days of that text (null: no day). */
export function parseEcbDays(text: string | null): EcbPublicationDay[] {
  if (!text) return [];
  return (JSON.parse(text) as [string, Record<string, string>][]).map(([date, rates]) => ({ date, rates }));
}
