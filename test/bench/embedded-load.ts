/**
 * `npm start`'s memory under the persisted-calculation load, alone (the full bench's "npm start under load" line):
 * `npx tsx test/bench/embedded-load.ts [runs]` starts the one-process server on a new DATA_DIR as `npm start` runs it,
 * creates a key, runs 10 s of persisted calculations at 64 connections, and prints req/s and the peak RSS (VmHWM);
 * EMBEDDED_LOAD_FLAGS adds Node flags (an A/B of a setting runs the two alternately).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { entryArgs, freePort, NODE, runAdmin, spawnProcess, stopProcess, waitFor } from '../support/processes';

const runs = Number(process.argv[2] ?? 1);
const variants = (process.env.EMBEDDED_LOAD_FLAGS ?? '').split('|').map((v) => v.split(' ').filter(Boolean));
const peak = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
/** utime + stime of a process in seconds. */
const cpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [u, t] = f.slice(f.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
  return (u! + t!) / 100;
};
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
for (let i = 0; i < runs; i++) {
  for (const flags of variants) {
    const dataDir = mkdtempSync(join(tmpdir(), 'vat-embedded-load-'));
    const port = await freePort();
    const proc = spawnProcess('main all', NODE, [...flags, ...entryArgs('main'), 'all'], { env: { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' } });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor('/ready', async () => (await fetch(`${base}/ready`).catch(() => undefined))?.ok, { timeoutMs: 120_000, intervalMs: 100 });
      const atReady = peak(proc.pid);
      const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'load', '--scope', 'full'], { DATA_DIR: dataDir })).json.key;
      let seq = 0;
      const cpuBefore = cpu(proc.pid);
      const r = await autocannon({
        url: base,
        duration: 10,
        connections: 64,
        requests: [
          {
            method: 'POST',
            path: '/v1/vat/calculate',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify({ country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01' }),
            setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `load-${Date.now()}-${seq++}` } }),
          },
        ],
      });
      const cpuMs = (1000 * (cpu(proc.pid) - cpuBefore)) / r.requests.total;
      console.log(`[${flags.join(' ') || 'as npm start'}] ${r.requests.average.toFixed(0)} req/s, ${cpuMs.toFixed(2)} CPU ms/request, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; peak at ready ${atReady.toFixed(0)} MB, under load ${peak(proc.pid).toFixed(0)} MB, RSS after ${rss(proc.pid).toFixed(0)} MB`);
    } finally {
      await stopProcess(proc);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
