/**
 * Named (server-side prepared) statements for the hottest statements: PostgreSQL parses and plans a named
 * statement once per connection instead of on every call (0.16 ms of planning alone for the calculation's
 * insert, measured with pg_stat_statements' track_planning on the bench).
 *
 * Only on pools that reach PostgreSQL over TCP. The embedded database (`npm start`) serves every client
 * connection from ONE PGlite session over a Unix socket, where two connections preparing the same name would
 * collide; a Unix-socket DATABASE_URL therefore gets unnamed statements too (correct, only a little slower).
 */
import type pg from 'pg';

const namedPools = new WeakSet<object>();

/** True when `url` names a TCP host (not a Unix socket directory), i.e. each pool connection is a session of its own. */
export function reachesOverTcp(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const queryHost = parsed.searchParams.get('host');
  const host = queryHost ?? decodeURIComponent(parsed.hostname);
  return host !== '' && !host.startsWith('/');
}

/** Lets `pool` (created for `url`) run named statements when its connections are sessions of their own. */
export function allowNamedStatements(pool: object, url: string): void {
  if (reachesOverTcp(url)) namedPools.add(pool);
}

/** The query config for `pool`: named (prepared once per connection) where allowed, else the plain statement. */
export function preparedStatement(pool: object, name: string, text: string, values: unknown[]): pg.QueryConfig {
  return namedPools.has(pool) ? { name, text, values } : { text, values };
}
