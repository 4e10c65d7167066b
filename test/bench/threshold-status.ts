import autocannon from 'autocannon';
import { freshDatabase } from '../support/env';
import { freePort, runAdmin, spawnMain, stopProcess, waitReady } from '../support/processes';
import { supplyEvent } from '../support/supply-files';

/**
 * Issue 10: `GET /v1/compliance/threshold-status` with BENCH_THRESHOLD_EVENTS (1,000,000) committed events in
 * the year, p99 under BENCH_THRESHOLD_CONNECTIONS (16) concurrent callers (target ≤ 50 ms). One process
 * (`all`) on PostgreSQL; events go in through `POST /v1/supply-events` (batches of 1,000 from 6 clients),
 * then the bench waits until the thresholds projection reports the ledger head. Not part of `npm run bench`:
 * run it alone with `npx tsx test/bench/threshold-status.ts`.
 */

const EVENTS = Number(process.env.BENCH_THRESHOLD_EVENTS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_THRESHOLD_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WAIT_MS = Number(process.env.BENCH_THRESHOLD_WAIT_MINUTES ?? 15) * 60_000;
const P99_TARGET_MS = 50;
const BATCH = 1000;
const CLIENTS = 6;

function batchBody(b: number): string {
  const parts: string[] = [];
  for (let n = b * BATCH + 1; n <= Math.min(EVENTS, (b + 1) * BATCH); n++) parts.push(JSON.stringify(supplyEvent(n, 'thr')));
  return `{"events":[${parts.join(',')}]}`;
}

async function ingest(base: string, key: string): Promise<number> {
  const batches = Math.ceil(EVENTS / BATCH);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let b = next++; b < batches; b = next++) {
        const res = await fetch(`${base}/v1/supply-events`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: batchBody(b) });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`batch ${b}: ${res.status} ${text.slice(0, 300)}`);
      }
    }),
  );
  return (performance.now() - t0) / 1000;
}

async function status(base: string, key: string): Promise<any> {
  const res = await fetch(`${base}/v1/compliance/threshold-status`, { headers: { 'x-api-key': key } });
  if (res.status !== 200) throw new Error(`threshold-status ${res.status}: ${await res.text()}`);
  return res.json();
}

async function main() {
  const db = await freshDatabase({ prefix: 'vat_bench_thr' });
  const port = await freePort();
  const env = { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' };
  const proc = spawnMain('all', env);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, [proc], 180_000);
    const created = await runAdmin<{ key: string }>(['keys', 'create', '--account', 'bench-thresholds', '--scope', 'read-only'], { DATABASE_URL: db.url });
    const write = await runAdmin<{ key: string }>(['keys', 'create', '--account', 'bench-thresholds', '--scope', 'full'], { DATABASE_URL: db.url });
    if (created.code !== 0 || write.code !== 0) throw new Error(`admin keys create failed: ${created.stderr}${write.stderr}`);
    const key = created.json.key;
    console.log(`ingesting ${EVENTS.toLocaleString('en-US')} events …`);
    const ingestSeconds = await ingest(base, write.json.key);
    console.log(`ingested in ${ingestSeconds.toFixed(1)} s (${Math.round(EVENTS / ingestSeconds).toLocaleString('en-US')} events/s); waiting for the thresholds projection …`);
    const t0 = performance.now();
    const deadline = Date.now() + WAIT_MS;
    let s = await status(base, key);
    while (!(s.ledger_head === EVENTS && s.ledger_position === EVENTS)) {
      if (Date.now() > deadline) throw new Error(`projection behind after ${WAIT_MS / 60000} min: ${s.ledger_position} of ${s.ledger_head}`);
      await new Promise((r) => setTimeout(r, 1000));
      s = await status(base, key);
    }
    console.log(`projection caught up ${((performance.now() - t0) / 1000).toFixed(1)} s after ingestion; evidence ${s.evidence_status}, current_minor ${s.checks[0]?.current_minor}, crossing ${s.checks[0]?.current_year_crossing?.event_id ?? '-'}`);
    const r = await autocannon({ url: `${base}/v1/compliance/threshold-status`, headers: { 'x-api-key': key }, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
    const ok = r.latency.p99 <= P99_TARGET_MS && r.non2xx === 0 && r.errors === 0;
    console.log(
      `GET /v1/compliance/threshold-status, ${CONNECTIONS} callers, ${SECONDS} s: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, non-2xx ${r.non2xx}, errors ${r.errors} → ${ok ? 'PASS' : 'FAIL'} (target p99 ≤ ${P99_TARGET_MS} ms)`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stopProcess(proc);
    await db.drop();
  }
}

await main();
