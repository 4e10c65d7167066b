import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, http, runAdmin, spawnMain, stopAll, stopProcess, waitReady, type Proc } from '../support/processes';

const SEEDED = 300;
const ROUNDS = 20;
const EXPORTS_PER_ROUND = 8;
const WRITES_PER_ROUND = 4;
/** Every request must answer within this; a frozen database shows up as a timeout here. */
const ANSWER_MS = 20_000;

/**
 * Issue 14: CSV exports stream through a server-side cursor; on the embedded database every pooled
 * connection shares one PGlite session, and concurrent exports used to answer 500, crash or freeze
 * `npm start`. A real `npm start` process is driven with concurrent exports and writes.
 */
describe('npm start (embedded PGlite): concurrent exports with concurrent writes', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vat-e2e-exports-'));
  let base: string;
  let server: Proc;
  let key: string;
  let stored = 0;

  const calculate = (n: number) =>
    http('POST', `${base}/v1/vat/calculate`, {
      headers: { 'x-api-key': key },
      body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 1000 + n, price_includes_vat: true, transaction_date: `2026-${String((n % 10) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}` },
      timeoutMs: ANSWER_MS,
    });
  const exportCsv = () => http('GET', `${base}/v1/transactions/export?from=2026-01-01&to=2026-12-31`, { headers: { 'x-api-key': key }, timeoutMs: ANSWER_MS });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawnMain('all', { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' });
    await waitReady(base, [server], 60_000);
    key = (await runAdmin(['keys', 'create', '--account', 'exports', '--scope', 'full'], { DATA_DIR: dataDir })).json.key;
    for (let batch = 0; batch < SEEDED; batch += 10) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => calculate(batch + i)));
      for (const a of answers) expect(a.status, a.text).toBe(200);
    }
    stored = SEEDED;
  }, 120_000);

  afterAll(async () => {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it(`${ROUNDS} rounds of ${EXPORTS_PER_ROUND} concurrent exports with concurrent writes: no 5xx, no hang, every export complete`, async () => {
    let slowest = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const before = stored;
      const t0 = Date.now();
      const [exports, writes] = await Promise.all([
        Promise.all(Array.from({ length: EXPORTS_PER_ROUND }, exportCsv)),
        Promise.all(Array.from({ length: WRITES_PER_ROUND }, (_, i) => calculate(SEEDED + round * WRITES_PER_ROUND + i))),
      ]);
      slowest = Math.max(slowest, Date.now() - t0);
      for (const w of writes) expect(w.status, `round ${round}: ${w.text}`).toBe(200);
      stored += WRITES_PER_ROUND;
      for (const e of exports) {
        expect(e.status, `round ${round}: ${e.text.slice(0, 300)}`).toBe(200);
        const rows = e.text.split('\r\n').filter((l) => l !== '');
        expect(rows[0]).toMatch(/^id,created_at,transaction_date,/);
        // Everything stored before the round, and at most the round's own writes besides.
        expect(rows.length - 1).toBeGreaterThanOrEqual(before);
        expect(rows.length - 1).toBeLessThanOrEqual(stored);
      }
    }
    console.log(`[embedded exports e2e] slowest round: ${slowest} ms`);
    const ready = await http('GET', `${base}/ready`, { timeoutMs: 5000 });
    expect(ready.status, ready.text).toBe(200);
    expect(server.exited()).toBe(false);
  }, 120_000);

  it('stops cleanly on SIGTERM afterwards', async () => {
    const t0 = Date.now();
    const code = await stopProcess(server, 'SIGTERM', 20_000);
    expect(code, server.output()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 30_000);
});
