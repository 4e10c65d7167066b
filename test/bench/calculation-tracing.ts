import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { freshDatabase } from '../support/env';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { backendCpu, cpuSeconds } from './process-cpu';
import { freePort, NODE, runAdmin, spawnMain, spawnProcess, stopProcess, waitReady } from '../support/processes';
import { persistedCalculation } from './requests';

/**
 * Issue 25: persisted `POST /v1/vat/calculate` (fresh Idempotency-Key per request), one process (`all`)
 * on PostgreSQL, with tracing off (the default) and on (OTLP over HTTP to a local sink that accepts
 * and discards), runs interleaved so the shared machine's load hits both alike. `BENCH_CALC_MODES`
 * (default `off,on,off,on`) picks the runs; BENCH_SECONDS (10) and BENCH_CALC_CONNECTIONS (64).
 * Each run also reports CPU milliseconds per request of the server process and of the database's
 * PostgreSQL backends: unlike req/s, that hardly depends on what else the machine is doing.
 * `base` in BENCH_CALC_MODES runs the server of another checkout (BENCH_CALC_BASELINE_ROOT, built with
 * `npm install`; tracing off) for an A/B against this one in the same invocation, e.g.
 * `BENCH_CALC_MODES=base,off,base,off,base,off`. `unprepared` is `off` with DATABASE_PREPARED_STATEMENTS=off (every
 * statement unnamed), e.g. `BENCH_CALC_MODES=unprepared,off,unprepared,off`. Alone with `npm run bench -- calculation`.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CALC_CONNECTIONS ?? 64);
const MODES = (process.env.BENCH_CALC_MODES ?? 'off,on,off,on').split(',').map((m) => m.trim()) as ('off' | 'on' | 'base' | 'unprepared')[];
/** `BENCH_CALC_ROUTE=sources` loads the authenticated `GET /v1/sources` instead of the calculation. */
const ROUTE = process.env.BENCH_CALC_ROUTE ?? 'calculate';
const BASELINE_ROOT = process.env.BENCH_CALC_BASELINE_ROOT;
/**
 * `BENCH_CALC_DATABASE=embedded`: the server as `npm start` runs it by default, on the embedded database (a new
 * DATA_DIR per run, its key made through the running server); the PostgreSQL CPU column is then 0 (PGlite's work
 * is inside the server process and counted there).
 */
const EMBEDDED = process.env.BENCH_CALC_DATABASE === 'embedded';
if (MODES.includes('base') && !BASELINE_ROOT) throw new Error('BENCH_CALC_MODES has base: set BENCH_CALC_BASELINE_ROOT to the other checkout');

type Run = { mode: string; rps: number; p50: number; p99: number; errors: number; non2xx: number; serverCpuMs: number; pgCpuMs: number };


const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};

/** An OTLP/HTTP endpoint that reads and drops every export (what the SDK pays is the cost measured). */
async function otlpSink(): Promise<{ url: string; exports: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}/v1/traces`, exports: () => count, close: () => new Promise((r) => server.close(() => r())) };
}

const db = await freshDatabase({ prefix: 'vat_bench_calc' });
const sink = await otlpSink();
const runId = Date.now().toString(36);
const runs: Run[] = [];
const sql = new pg.Client({ connectionString: db.url });
await sql.connect();
try {
  let key = EMBEDDED ? '' : (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'bench', '--scope', 'full'], { DATABASE_URL: db.url })).json.key;
  for (const mode of MODES) {
    const dataDir = EMBEDDED ? mkdtempSync(join(tmpdir(), 'vat-calc-bench-')) : undefined;
    const port = await freePort();
    const tracing = mode === 'on' ? { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' } : {};
    const prepared = mode === 'unprepared' ? { DATABASE_PREPARED_STATEMENTS: 'off' } : {};
    const env = { ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: db.url }), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', ...tracing, ...prepared };
    // A baseline from before the compiled entry points runs its TypeScript through tsx, as its `npm start` did.
    const baselineArgs = () => (existsSync(join(BASELINE_ROOT!, 'deploy/bin/main.mjs')) ? ['deploy/bin/main.mjs', 'all'] : ['--import', 'tsx', 'deploy/src/main.ts', 'all']);
    const proc = mode === 'base' ? spawnProcess('main all (baseline)', NODE, baselineArgs(), { env, cwd: BASELINE_ROOT }) : spawnMain('all', env);
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitReady(base, [proc], 180_000);
      if (dataDir) key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'bench', '--scope', 'full'], { DATA_DIR: dataDir })).json.key;
      // A short warm-up (JIT, pools), not counted.
      await autocannon({ url: `${base}/health`, duration: 2, connections: 8 });
      const cpu0 = cpuSeconds(proc.pid);
      const pg0 = await backendCpu(sql);
      const r = await autocannon({
        url: base,
        duration: SECONDS,
        connections: CONNECTIONS,
        requests: ROUTE === 'sources' ? [{ method: 'GET', path: '/v1/sources', headers: { 'x-api-key': key } }] : [persistedCalculation(key, `calc-${runId}`)],
      });
      const pg1 = await backendCpu(sql);
      const served = r.requests.total;
      const pgUsed = [...pg1].reduce((sum, [pid, cpu]) => sum + (Number.isNaN(cpu) ? 0 : cpu - (pg0.get(pid) ?? 0)), 0);
      runs.push({ mode, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, serverCpuMs: ((cpuSeconds(proc.pid) - cpu0) * 1000) / served, pgCpuMs: (pgUsed * 1000) / served });
    } finally {
      await stopProcess(proc);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const load = (await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`\n## ${ROUTE === 'sources' ? 'Authenticated GET /v1/sources' : 'Persisted calculation'}, tracing off and on (one process${EMBEDDED ? ' on the embedded database' : ''}, ${CONNECTIONS} connections, ${SECONDS}s per run, load ${load})\n`);
  console.log('| run | tracing | req/s | p50 ms | p99 ms | errors | non-2xx | server CPU ms / request | PostgreSQL CPU ms / request |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  runs.forEach((r, i) => console.log(`| ${i + 1} | ${r.mode === 'base' ? `off (baseline ${BASELINE_ROOT})` : r.mode} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.serverCpuMs.toFixed(3)} | ${r.pgCpuMs.toFixed(3)} |`));
  for (const mode of ['base', 'unprepared', 'off', 'on'] as const) {
    const of = runs.filter((r) => r.mode === mode);
    if (of.length) console.log(`${mode}: median req/s ${median(of.map((r) => r.rps)).toFixed(0)}, median server CPU ${median(of.map((r) => r.serverCpuMs)).toFixed(3)} ms / request, PostgreSQL ${median(of.map((r) => r.pgCpuMs)).toFixed(3)} ms / request`);
  }
  const cpuOf = (mode: string) => median(runs.filter((r) => r.mode === mode).map((r) => r.serverCpuMs + r.pgCpuMs));
  if (runs.some((r) => r.mode === 'base') && runs.some((r) => r.mode === 'off')) console.log(`tracing off vs baseline: CPU per request (server + PostgreSQL, medians) ${(((cpuOf('off') - cpuOf('base')) / cpuOf('base')) * 100).toFixed(1)} %`);
  if (runs.some((r) => r.mode === 'unprepared') && runs.some((r) => r.mode === 'off')) console.log(`named statements on vs off: CPU per request (server + PostgreSQL, medians) ${(((cpuOf('off') - cpuOf('unprepared')) / cpuOf('unprepared')) * 100).toFixed(1)} %`);
  const off = median(runs.filter((r) => r.mode === 'off').map((r) => r.rps));
  const on = median(runs.filter((r) => r.mode === 'on').map((r) => r.rps));
  if (Number.isFinite(off) && Number.isFinite(on)) console.log(`\nmedian req/s: off ${off.toFixed(0)}, on ${on.toFixed(0)}: tracing on costs ${(((off - on) / off) * 100).toFixed(1)} % (OTLP exports received: ${sink.exports()})`);
  else console.log(`\nmedian req/s: ${Number.isFinite(off) ? `off ${off.toFixed(0)}` : `on ${on.toFixed(0)}`}`);
} finally {
  await sql.end().catch(() => undefined);
  await sink.close();
  await db.drop();
}
process.exit(0);
