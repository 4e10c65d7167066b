/**
 * `npm start`'s memory under the persisted-calculation load, alone (the full bench's "npm start under load" line):
 * `npx tsx test/bench/embedded-load.ts [runs]` starts the one-process server on a new DATA_DIR as `npm start` runs it,
 * creates a key, runs 10 s of persisted calculations at 64 connections, and prints req/s, the server's CPU per request, its p99 and its peak RSS (VmHWM);
 * EMBEDDED_LOAD_FLAGS adds Node flags (an A/B of a setting runs the two alternately); with EMBEDDED_LOAD_REPLACE=1 they
 * replace `npm start`'s own flags instead of coming before them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { entryArgs, entryScript, freePort, NODE, runAdmin, spawnProcess, stopProcess, waitReady } from '../support/processes';
import { cpuSeconds, statusMb } from './process-cpu';
import { persistedCalculation } from './requests';

const runs = Number(process.argv[2] ?? 1);
const variants = (process.env.EMBEDDED_LOAD_FLAGS ?? '').split('|').map((v) => v.split(' ').filter(Boolean));
for (let i = 0; i < runs; i++) {
  for (const flags of variants) {
    const dataDir = mkdtempSync(join(tmpdir(), 'vat-embedded-load-'));
    const port = await freePort();
    const entry = process.env.EMBEDDED_LOAD_REPLACE === '1' ? entryScript('main') : entryArgs('main');
    const proc = spawnProcess('main all', NODE, [...flags, ...entry, 'all'], { env: { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' } });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitReady(base, [proc], 120_000);
      const atReady = statusMb(proc.pid, 'VmHWM');
      const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'load', '--scope', 'full'], { DATA_DIR: dataDir })).json.key;
      const cpuBefore = cpuSeconds(proc.pid);
      const r = await autocannon({
        url: base,
        duration: 10,
        connections: 64,
        requests: [persistedCalculation(key, `load-${Date.now()}`)],
      });
      const cpuMs = (1000 * (cpuSeconds(proc.pid) - cpuBefore)) / r.requests.total;
      console.log(`[${flags.join(' ') || 'as npm start'}] ${r.requests.average.toFixed(0)} req/s, ${cpuMs.toFixed(2)} CPU ms/request, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; peak at ready ${atReady.toFixed(0)} MB, under load ${statusMb(proc.pid, 'VmHWM').toFixed(0)} MB, RSS after ${statusMb(proc.pid, 'VmRSS').toFixed(0)} MB`);
    } finally {
      await stopProcess(proc);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
