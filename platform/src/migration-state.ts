import type pg from 'pg';

/** PostgreSQL's undefined_table: a schema whose migrations table does not exist yet has applied none. */
const UNDEFINED_TABLE = '42P01';

/** The table MikroORM's migrator records applied migrations in, in each service's schema (./db). */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/**
 * Which of `committed` (migration names in order) are not recorded as applied in `schema`: one query. Kept apart
 * from ./db (which loads MikroORM) so a command that only needs to know the schema is current (the admin CLI's key
 * commands) runs without the ORM.
 */
export async function pendingMigrationNames(pool: Pick<pg.Pool, 'query'>, schema: string, committed: readonly string[]): Promise<string[]> {
  let applied: Set<string>;
  try {
    const res = await pool.query<{ name: string }>(`select name from "${schema}"."${MIGRATIONS_TABLE}"`);
    applied = new Set(res.rows.map((r) => r.name));
  } catch (err) {
    if ((err as { code?: string }).code !== UNDEFINED_TABLE) throw err;
    applied = new Set();
  }
  return committed.filter((name) => !applied.has(name));
}
