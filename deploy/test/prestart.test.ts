import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@vat/platform/config';
import { startEmbeddedDatabase, type StartedEmbedded } from '../src/embedded-database';
import { prestart, takePrestarted } from '../src/prestart';

const log = pino({ level: 'silent' });

describe("npm start's early start of the embedded database (deploy/src/prestart.ts)", () => {
  const root = mkdtempSync(join(tmpdir(), 'vat-prestart-'));
  const opened: StartedEmbedded[] = [];

  afterAll(async () => {
    for (const s of opened) await s.embedded.stop().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  });

  it('starts nothing for a service process, the gateway, or a process given DATABASE_URL', () => {
    prestart(['node', 'main.mjs', 'ledger'], { DATA_DIR: join(root, 'a') });
    prestart(['node', 'main.mjs', 'gateway'], { DATA_DIR: join(root, 'a') });
    prestart(['node', 'main.mjs', 'all'], { DATA_DIR: join(root, 'a'), DATABASE_URL: 'postgresql://127.0.0.1/test' });
    expect(takePrestarted()).toBeUndefined();
    expect(existsSync(join(root, 'a'))).toBe(false);
  });

  it('`all` on the embedded database: the main start takes over the database prestart opened, once, and configures it', async () => {
    const dataDir = join(root, 'b');
    prestart(['node', 'main.mjs'], { DATA_DIR: dataDir });
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_WAIT_MS: '300' });
    const started = await startEmbeddedDatabase(config, log, takePrestarted());
    opened.push(started);
    expect(takePrestarted()).toBeUndefined();
    expect(started.embedded.dataDir).toBe(dataDir);
    // A new DATA_DIR, created from a template (the seeded one when postinstall built it for these sources).
    expect(['seeded template', 'initdb template']).toContain(started.created);
    // DATABASE_WAIT_MS reached the database's thread: a query waiting for the session another connection
    // holds fails after 300 ms (the default would be 20 s).
    const holder = new pg.Client({ connectionString: started.embedded.url });
    const waiter = new pg.Client({ connectionString: started.embedded.url });
    // A connection whose wait failed is closed by the server: no unhandled 'error' event for it.
    waiter.on('error', () => undefined);
    await holder.connect();
    await waiter.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1');
      const t0 = performance.now();
      const err = await waiter.query('select 2').then(() => undefined, (e: unknown) => e as { code?: string });
      expect(err?.code).toBe('55P03');
      expect(performance.now() - t0).toBeLessThan(5_000);
      await holder.query('rollback');
    } finally {
      await holder.end();
      await waiter.end().catch(() => undefined);
    }
  }, 120_000);

  it('should the configuration name another DATA_DIR, the prestarted database is stopped and the named one opened', async () => {
    const early = join(root, 'c-early');
    const named = join(root, 'c-named');
    prestart(['node', 'main.mjs', 'all'], { DATA_DIR: early });
    const taken = takePrestarted()!;
    const started = await startEmbeddedDatabase(loadConfig({ DATA_DIR: named }), log, taken);
    opened.push(started);
    expect(started.embedded.dataDir).toBe(named);
    // The early one is stopped: its runtime.json (written while it runs) is gone.
    const earlyStarted = await taken.started;
    await expect.poll(() => existsSync(join(early, 'runtime.json')), { timeout: 10_000 }).toBe(false);
    await earlyStarted.embedded.stop();
  }, 120_000);
});
