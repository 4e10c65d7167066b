/**
 * CPU profile of the one-process server under persisted `POST /v1/vat/calculate` (fresh Idempotency-Key per
 * request, 64 connections), as `npm start` runs it (the bundle): `npx tsx test/bench/profile-calc.ts [seconds]`
 * prints req/s and the profile summary; PROFILE_CALC_KEEP=<dir> keeps the .cpuprofile.
 */
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freshDatabase } from '../support/env';
import { entryArgs, freePort, NODE, runAdmin, spawnProcess, stopProcess, waitFor } from '../support/processes';
import { summarizeCpuProfile } from './cpu-profile';

const seconds = Number(process.argv[2] ?? 10);
const db = await freshDatabase({ prefix: 'vat_prof_calc' });
const dir = mkdtempSync(join(tmpdir(), 'vat-prof-calc-'));
const port = await freePort();
const env = { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' };
const proc = spawnProcess('main all (profiled)', NODE, ['--cpu-prof', '--cpu-prof-dir', dir, ...entryArgs('main'), 'all'], { env });
const runId = Date.now().toString(36);
let seq = 0;
try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor('/ready', async () => (await fetch(`${base}/ready`).catch(() => undefined))?.ok, { timeoutMs: 120_000, intervalMs: 100 });
  const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'prof', '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
  const load = (duration: number) =>
    autocannon({
      url: base,
      duration,
      connections: 64,
      requests: [{
        method: 'POST',
        path: '/v1/vat/calculate',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01' }),
        setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `prof-${runId}-${seq++}` } }),
      }],
    });
  await load(2);
  const r = await load(seconds);
  console.log(`persisted calculation: ${r.requests.average.toFixed(0)} req/s, ${r.requests.total} requests, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
} finally {
  await stopProcess(proc);
  await db.drop();
}
const prof = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
console.log(prof ? summarizeCpuProfile(join(dir, prof), 30) : 'no profile written');
if (prof && process.env.PROFILE_CALC_KEEP) renameSync(join(dir, prof), join(process.env.PROFILE_CALC_KEEP, prof));
rmSync(dir, { recursive: true, force: true });
