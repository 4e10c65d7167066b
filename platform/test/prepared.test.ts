import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedUrl, startEmbeddedPostgres, type EmbeddedPostgres } from '../src/embedded-pg';
import { allowNamedStatements, preparedStatement, reachesOverTcp } from '../src/prepared';
import { PG_SERVER_URL, requireBackends } from '../../test/support/env';

const backends = await requireBackends(['postgres']);

describe('which databases get named statements', () => {
  it('a TCP host does; a Unix socket directory (the embedded database, or a local socket) does not', () => {
    expect(reachesOverTcp('postgresql://postgres@127.0.0.1:5432/test')).toBe(true);
    expect(reachesOverTcp('postgres://u:p@db.internal/vat?sslmode=require')).toBe(true);
    expect(reachesOverTcp(embeddedUrl('/home/me/.vat/run'))).toBe(false);
    expect(reachesOverTcp('postgresql://postgres@localhost/test?host=/var/run/postgresql')).toBe(false);
    expect(reachesOverTcp('not a url')).toBe(false);
  });

  it('preparedStatement names the statement only for an allowed pool', () => {
    const tcp = {};
    const socket = {};
    allowNamedStatements(tcp, 'postgresql://postgres@127.0.0.1:5432/test');
    allowNamedStatements(socket, embeddedUrl('/tmp/x/run'));
    expect(preparedStatement(tcp, 's1', 'select $1::int', [1])).toEqual({ name: 's1', text: 'select $1::int', values: [1] });
    expect(preparedStatement(socket, 's1', 'select $1::int', [1])).toEqual({ text: 'select $1::int', values: [1] });
  });
});

describe.runIf(backends.ok)('named statements on PostgreSQL', () => {
  it('are prepared once per connection and reused', async () => {
    const pool = new pg.Pool({ connectionString: PG_SERVER_URL, max: 1 });
    allowNamedStatements(pool, PG_SERVER_URL);
    try {
      for (const n of [1, 2, 3]) {
        const res = await pool.query(preparedStatement(pool, 'prepared_test_add', 'select $1::int + 1 as n', [n]));
        expect(res.rows[0].n).toBe(n + 1);
      }
      const listed = await pool.query(`select name from pg_prepared_statements where name = 'prepared_test_add'`);
      expect(listed.rows).toEqual([{ name: 'prepared_test_add' }]);
    } finally {
      await pool.end();
    }
  });
});

describe('the embedded database serves every connection from one session', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-prepared-'));
  let db: EmbeddedPostgres | undefined;
  afterAll(async () => {
    await db?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('so two connections naming the same statement collide there, and its pools get plain statements', async () => {
    db = await startEmbeddedPostgres(join(root, 'data'));
    const a = new pg.Client({ connectionString: db.url });
    const b = new pg.Client({ connectionString: db.url });
    await a.connect();
    await b.connect();
    try {
      // Why the helper refuses names here: the second connection's Parse finds the first one's statement.
      await a.query({ name: 'collide', text: 'select 1 as n', values: [] });
      await expect(b.query({ name: 'collide', text: 'select 1 as n', values: [] })).rejects.toThrow(/prepared statement "collide" already exists/);
    } finally {
      await a.end();
      await b.end();
    }
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    allowNamedStatements(pool, db.url);
    try {
      const clients = await Promise.all([pool.connect(), pool.connect()]);
      const results = await Promise.all(clients.map((c, i) => c.query(preparedStatement(pool, 'embedded_add', 'select $1::int + 1 as n', [i]))));
      for (const c of clients) c.release();
      expect(results.map((r) => r.rows[0].n)).toEqual([1, 2]);
    } finally {
      await pool.end();
    }
  }, 120_000);
});
