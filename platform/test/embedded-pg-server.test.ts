import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedUrl } from '../src/embedded-pg';
import { EmbeddedPgServer, SocketInUse, type EmbeddedPgServerOptions } from '../src/embedded-pg-server';
import { PgliteSession } from '../src/embedded-pg-session';

const SOCKET = '.s.PGSQL.5432';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Several servers below share the one PGlite; each is used only while the others have no clients. */
describe('embedded PostgreSQL server: one PGlite session shared safely by many connections', () => {
  let db: PGlite;
  let root: string;
  let main: { server: EmbeddedPgServer; url: string };
  const opened: { server: EmbeddedPgServer }[] = [];
  const clients: (pg.Client | pg.Pool)[] = [];

  async function serve(name: string, opts: EmbeddedPgServerOptions = {}) {
    const dir = join(root, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const server = await EmbeddedPgServer.listen(join(dir, SOCKET), opts);
    server.serve(db);
    const s = { server, url: embeddedUrl(dir) };
    opened.push(s);
    return s;
  }
  const pool = (url: string, max = 1) => {
    const p = new pg.Pool({ connectionString: url, max });
    p.on('error', () => undefined);
    clients.push(p);
    return p;
  };
  const client = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
    return c;
  };
  /** Kills a client the hard way: its socket vanishes without a Terminate message. */
  const kill = (c: pg.Client) => (c as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
  const within = <T>(ms: number, p: Promise<T>) => Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`no answer within ${ms} ms`)))]);

  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`create table item (id int primary key, owner text not null);
                   create table seq (n int primary key);
                   insert into seq select g from generate_series(1, 5000) g;
                   create table log (conn int not null, i int not null)`);
    root = mkdtempSync(join(tmpdir(), 'vat-pg-server-'));
    main = await serve('main');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    for (const s of opened) await s.server.close();
    await db.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('parameterized queries of 8 connections each get their own answer (3,200 queries, some in transactions)', async () => {
    const wrong: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, conn) => {
        const c = await client(main.url);
        for (let i = 0; i < 400; i++) {
          // The statement text differs per connection, so binding another connection's statement shows in
          // `conn`; some parameters are large enough to arrive in several socket reads.
          const tag = `c${conn}-${i}-${'x'.repeat(i % 50 === 0 ? 300_000 : 1)}`;
          const inTransaction = i % 10 === 0;
          if (inTransaction) await c.query('begin');
          const { rows } = await c.query(`select $1::int as i, md5($2::text) as tag, ${conn} as conn`, [i, tag]);
          if (inTransaction) await c.query('commit');
          const expected = { i, tag: createHash('md5').update(tag).digest('hex'), conn };
          if (JSON.stringify(rows[0]) !== JSON.stringify(expected)) wrong.push(JSON.stringify({ expected, got: rows[0] }));
        }
        await c.end();
      }),
    );
    expect(wrong).toEqual([]);
  }, 120_000);

  it('a transaction on one connection is isolated from the statements of another', async () => {
    const a = await client(main.url);
    const b = await client(main.url);
    await a.query('begin');
    await a.query(`insert into item values (1, 'a')`);
    // b's statements wait for a's transaction to end instead of running inside it.
    const bInsert = b.query(`insert into item values (2, 'b')`);
    const bSees = b.query('select id from item order by id');
    await sleep(50);
    expect((await a.query('select id from item order by id')).rows).toEqual([{ id: 1 }]);
    await a.query('rollback');
    await bInsert;
    expect((await bSees).rows).toEqual([{ id: 2 }]);
    expect((await a.query('select id from item order by id')).rows).toEqual([{ id: 2 }]);
    await a.end();
    await b.end();
  });

  it('a failed transaction keeps the session until it is rolled back', async () => {
    const a = await client(main.url);
    const b = await client(main.url);
    await a.query('begin');
    await a.query(`insert into item values (3, 'a')`);
    await expect(a.query('select no_such_column from item')).rejects.toMatchObject({ code: '42703' });
    let bDone = false;
    const bSees = b.query('select count(*)::int as n from item where id = 3').finally(() => (bDone = true));
    await sleep(50);
    expect(bDone).toBe(false);
    await a.query('rollback');
    expect((await bSees).rows[0].n).toBe(0);
    await a.end();
    await b.end();
  });

  it('waiting connections get the session first come, first served', async () => {
    const session = new PgliteSession(db);
    const [a, b, c] = [{}, {}, {}];
    const order: string[] = [];
    expect(await session.acquire(a)).toBe('granted');
    const granted = Promise.all([session.acquire(c).then(() => order.push('c')), session.acquire(b).then(() => order.push('b'))]);
    session.release(a);
    session.release(c);
    await granted;
    expect(order).toEqual(['c', 'b']);
    expect(session.holds(b)).toBe(true);
    // A connection that leaves the queue is never handed the session.
    const d = {};
    const dGranted = session.acquire(d);
    session.withdraw(d);
    expect(await dGranted).toBe('withdrawn');
    session.release(b);
    expect(session.holds(d)).toBe(false);
  });

  it('a wait for the session held by another connection gives up after its bound; the queue moves on', async () => {
    const session = new PgliteSession(db);
    const [a, b, c] = [{}, {}, {}];
    expect(await session.acquire(a)).toBe('granted');
    const t0 = Date.now();
    const bWait = session.acquire(b, 100);
    const cWait = session.acquire(c);
    expect(await bWait).toBe('timed_out');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(95);
    session.release(a);
    expect(await cWait).toBe('granted');
    expect(session.holds(b)).toBe(false);
    session.release(c);
  });

  it('a client whose query waits past the bound for a session held by an open transaction gets SQLSTATE 55P03', async () => {
    const bounded = await serve('bounded', { sessionWaitMs: 300 });
    const holder = await client(bounded.url);
    const waiter = await client(bounded.url);
    await holder.query('begin');
    await holder.query('select 1');
    const t0 = Date.now();
    const err = await within(5000, waiter.query('select 2')).then(() => undefined, (e: Error & { code?: string }) => e);
    // Connecting waits for the session too: the same bound, the same answer.
    const late = await within(5000, client(bounded.url)).then(() => undefined, (e: Error & { code?: string }) => e);
    await holder.query('commit');
    expect(err?.code, err?.message).toBe('55P03');
    expect(late?.code, late?.message).toBe('55P03');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    // The holder's transaction was undisturbed, and once it ended the session serves others again.
    const other = await client(bounded.url);
    expect((await within(2000, other.query('select 3 as n'))).rows).toEqual([{ n: 3 }]);
  });

  it('a cursor read in batches is undisturbed by other connections\' queries and transactions', async () => {
    const holder = await client(main.url);
    const others = Array.from({ length: 6 }, async (_, conn) => {
      const p = pool(main.url);
      for (let i = 0; i < 20; i++) {
        expect((await p.query(`select $1::int + 1 as next, ${conn} as conn`, [i])).rows).toEqual([{ next: i + 1, conn }]);
        const c = await p.connect();
        await c.query('begin');
        await c.query('insert into log values ($1, $2)', [conn, i]);
        await c.query('commit');
        c.release();
      }
      await p.end();
    });
    const cursor = holder.query(new Cursor('select n from seq order by n'));
    const seen: number[] = [];
    for (;;) {
      const rows = (await cursor.read(250)) as { n: number }[];
      if (rows.length === 0) break;
      seen.push(...rows.map((r) => r.n));
      await sleep(2);
    }
    await cursor.close();
    await Promise.all(others);
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect((await holder.query('select count(*)::int as n from log')).rows[0].n).toBe(120);
    await holder.end();
  }, 60_000);

  it('a client killed in the middle of a transaction does not hang the others; its work is rolled back', async () => {
    const victim = await client(main.url);
    await victim.query('begin');
    await victim.query(`insert into item values (100, 'victim')`);
    const other = pool(main.url);
    const waiting = other.query('select count(*)::int as n from item where id = 100');
    await sleep(50);
    kill(victim);
    expect((await within(5000, waiting)).rows[0].n).toBe(0);
    expect((await other.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('a client killed while holding a cursor releases the session', async () => {
    const victim = await client(main.url);
    const cursor = victim.query(new Cursor('select n from seq order by n'));
    expect(await cursor.read(10)).toHaveLength(10);
    const other = pool(main.url);
    const waiting = other.query('select count(*)::int as n from seq');
    await sleep(50);
    kill(victim);
    expect((await within(5000, waiting)).rows[0].n).toBe(5000);
    const again = await client(main.url);
    const c2 = again.query(new Cursor('select n from seq order by n'));
    expect(((await c2.read(3)) as { n: number }[]).map((r) => r.n)).toEqual([1, 2, 3]);
    await c2.close();
  });

  it('a client holding the session idle is cut off after idleHoldMs and the others go on', async () => {
    const s = await serve('idle', { idleHoldMs: 300 });
    const idler = await client(s.url);
    const cut = new Promise<Error>((resolve) => idler.once('error', resolve));
    await idler.query('begin');
    await idler.query(`insert into item values (200, 'idle')`);
    const t0 = Date.now();
    const other = await within(5000, pool(s.url).query('select count(*)::int as n from item where id = 200'));
    expect(other.rows[0].n).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(await within(5000, cut)).toMatchObject({ code: '25P03' });
  });

  it('refuses connections beyond maxConnections with SQLSTATE 53300', async () => {
    const s = await serve('limit', { maxConnections: 2 });
    const first = await client(s.url);
    await client(s.url);
    await expect(client(s.url)).rejects.toMatchObject({ code: '53300' });
    await first.end();
    const later = await within(5000, (async () => {
      for (;;) {
        const c = await client(s.url).catch(() => undefined);
        if (c) return c;
        await sleep(20);
      }
    })());
    expect((await later.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('answers SSLRequest with N, closes cancel requests, and survives protocol garbage', async () => {
    const raw = (bytes: Buffer) =>
      new Promise<{ data: Buffer; closed: boolean }>((resolve) => {
        const chunks: Buffer[] = [];
        const s = connect(join(root, 'main', SOCKET), () => s.write(bytes));
        s.on('data', (d: Buffer) => chunks.push(d));
        s.on('error', () => undefined);
        s.on('close', () => resolve({ data: Buffer.concat(chunks), closed: true }));
        setTimeout(() => {
          resolve({ data: Buffer.concat(chunks), closed: false });
          s.destroy();
        }, 1000);
      });
    const packet = (code: number, length = 8) => {
      const b = Buffer.alloc(length);
      b.writeInt32BE(length, 0);
      b.writeInt32BE(code, 4);
      return b;
    };
    expect(await raw(packet(80877103))).toEqual({ data: Buffer.from('N'), closed: false });
    expect(await raw(packet(80877102, 16))).toEqual({ data: Buffer.alloc(0), closed: true });
    const garbage = await raw(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    expect(garbage.closed).toBe(true);
    expect(garbage.data.toString()).toContain('C08P01');
    expect((await pool(main.url).query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });

  it('a second server on a live socket is refused; a stale socket file is replaced; close removes it', async () => {
    await expect(EmbeddedPgServer.listen(join(root, 'main', SOCKET))).rejects.toBeInstanceOf(SocketInUse);
    const dir = join(root, 'stale');
    mkdirSync(dir);
    const path = join(dir, SOCKET);
    // A process killed while listening leaves its socket file behind.
    spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    expect(existsSync(path)).toBe(true);
    const server = await EmbeddedPgServer.listen(path);
    server.serve(db);
    const c = await client(embeddedUrl(dir));
    expect((await c.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
    const gone = new Promise((resolve) => c.once('error', resolve));
    await within(5000, server.close());
    await within(5000, gone);
    expect(existsSync(path)).toBe(false);
  });
});
