import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { databaseThread, startEmbeddedPostgres, type EmbeddedPostgres } from '../src/embedded-pg';

describe('the embedded database runs on a thread of its own', () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-pg-thread-'));
  let db: EmbeddedPostgres | undefined;
  const clients: pg.Client[] = [];

  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    await db?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  async function client(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: db!.url });
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
    return c;
  }

  it('this thread keeps running its timers while PostgreSQL works through a long statement', async () => {
    db = await startEmbeddedPostgres(join(root, 'data'));
    const c = await client();
    // pg_sleep inside PGlite occupies the thread PostgreSQL runs on for 0.8 s. On this thread a 10 ms
    // timer fires about 80 times meanwhile; were PostgreSQL on this thread, it would not fire at all.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const t0 = performance.now();
    await c.query('select pg_sleep(0.8)');
    const took = performance.now() - t0;
    clearInterval(timer);
    expect(took).toBeGreaterThanOrEqual(750);
    expect(ticks).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('setSessionWaitMs bounds how long a new connection waits for the session another holds (SQLSTATE 55P03)', async () => {
    await db!.setSessionWaitMs(300);
    const holder = await client();
    const waiter = await client();
    await holder.query('begin');
    await holder.query('select 1');
    const t0 = performance.now();
    const err = await waiter.query('select 2').then(() => undefined, (e: unknown) => e as { code?: string });
    const waited = performance.now() - t0;
    await holder.query('rollback');
    expect(err?.code).toBe('55P03');
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(5_000);
  }, 60_000);

  it('stop ends the thread: the socket no longer answers and a new start on the directory works', async () => {
    const url = db!.url;
    for (const c of clients.splice(0)) await c.end().catch(() => undefined);
    // Two stops at once are one stop; a later one is a no-op.
    await Promise.all([db!.stop(), db!.stop()]);
    await db!.stop();
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => undefined);
    await expect(c.connect()).rejects.toThrow();
    db = await startEmbeddedPostgres(join(root, 'data'));
    const again = await client();
    expect((await again.query<{ n: number }>('select 41 + 1 as n')).rows[0]!.n).toBe(42);
  }, 120_000);

  it('a start that fails on the thread rejects with its message and leaves no thread running', async () => {
    await expect(startEmbeddedPostgres(join(root, 'data'))).rejects.toThrow(/DATA_DIR .* is in use by another running process/);
  }, 60_000);
});

describe("the main thread's side of the database thread", () => {
  /** A stand-in for the database thread: posts `started`, answers `configure`, then ends on its own with code 7. */
  const standIn = `
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => { if (m.type === 'configure') parentPort.postMessage({ type: 'configured' }); });
    parentPort.postMessage({ type: 'started', url: 'postgresql://x', socketDir: '/nowhere', phases: { copyMs: 0, openMs: 0, privateMs: 0 } });
    setTimeout(() => process.exit(7), 300);
  `;

  it('a thread that ends on its own after it started is reported to onLost (npm start then logs it and exits 1)', async () => {
    const db = await databaseThread(new Worker(standIn, { eval: true }), '/nowhere/data');
    const lost = new Promise<Error>((resolve) => db.onLost(resolve));
    await db.setSessionWaitMs(1_000);
    expect((await lost).message).toMatch(/the embedded database's thread ended \(exit code 7\)/);
    // Stopping it afterwards does not wait for an answer that cannot come.
    await db.stop();
    await expect(db.setSessionWaitMs(1_000)).rejects.toThrow(/has stopped/);
  }, 30_000);

  it('a thread that ends before it started rejects the start', async () => {
    await expect(databaseThread(new Worker('process.exit(3)', { eval: true }), '/nowhere/data')).rejects.toThrow(/ended while it started \(exit code 3\)/);
  }, 30_000);
});
