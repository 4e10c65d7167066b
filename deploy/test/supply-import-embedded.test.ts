import { runningEmbeddedUrl } from '@vat/platform/embedded-pg-runtime';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, http, runAdmin, spawnMain, stopAll, stopProcess, waitFor, waitReady } from '../../test/support/processes';
import { runSupplyImportCli, writeSupplyFile } from '../../test/support/supply-files';

/**
 * The embedded mode. Without a running `npm start` the CLI opens DATA_DIR itself, runs the ledger
 * module in-process (its migrations included) and leaves the outbox for the next start; while
 * `npm start` runs it reaches that process's database and its relay publishes the events.
 */
describe('admin supply import on the embedded database (DATA_DIR)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vat-import-emb-'));
  let key = '';
  afterAll(async () => {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('npm start not running: commits a file, and a second run skips all of it', async () => {
    const env = { DATA_DIR: dataDir };
    key = (await runAdmin(['keys', 'create', '--account', 'emb-shop', '--scope', 'full'], env, 120_000)).json.key;
    const file = await writeSupplyFile(join(dataDir, 'events.csv'), 400, { prefix: 'emb' });
    const first = await runSupplyImportCli(['--account', 'emb-shop', file], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ ledger: 'in-process', complete: true, lines_read: 400, committed: 400, skipped: 0, rejected: 0 });
    const again = await runSupplyImportCli(['--account', 'emb-shop', file], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ committed: 0, skipped: 400 });
  }, 300_000);

  it('while npm start runs: the import uses its database, the events are readable over REST and its relay publishes them', async () => {
    const port = await freePort();
    const server = spawnMain('all', { DATA_DIR: dataDir, PORT: String(port), OUTBOX_POLL_MS: '100' });
    const base = `http://127.0.0.1:${port}`;
    await waitReady(base, [server], 150_000);
    const file = await writeSupplyFile(join(dataDir, 'more.ndjson'), 150, { prefix: 'emb-live', format: 'ndjson' });
    const r = await runSupplyImportCli(['--account', 'emb-shop', file], { DATA_DIR: dataDir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ committed: 150, skipped: 0 });
    const page = await http('GET', `${base}/v1/supply-events?limit=500`, { headers: { 'x-api-key': key } });
    expect(page.status, page.text).toBe(200);
    expect(page.json.items).toHaveLength(500);
    const last = await http('GET', `${base}/v1/supply-events?limit=500&cursor=${encodeURIComponent(page.json.next_cursor)}`, { headers: { 'x-api-key': key } });
    expect(last.json.items.map((e: { sequence: number }) => e.sequence).at(-1)).toBe(550);
    expect(last.json.items.at(-1).event_id).toBe('emb-live-150');
    // The outbox of both imports (the first one was written while nothing ran) drains through the running relay.
    const url = await runningEmbeddedUrl(dataDir);
    if (!url) throw new Error('npm start does not serve its database');
    await waitFor('the ledger outbox drained', async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const { rows } = await c.query<{ n: number }>('select count(*)::int as n from ledger.outbox where published_at is null');
        return rows[0]!.n === 0;
      } finally {
        await c.end();
      }
    }, { timeoutMs: 60_000, intervalMs: 500 });
    await stopProcess(server);
  }, 300_000);
});
