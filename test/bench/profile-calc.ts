/**
 * CPU profile of the one-process server under persisted `POST /v1/vat/calculate` (fresh Idempotency-Key per
 * request, 64 connections), as `npm start` runs it (the bundle): `npx tsx test/bench/profile-calc.ts [seconds]`
 * prints req/s and the profile summary; PROFILE_CALC_KEEP=<dir> keeps the .cpuprofile. `--distributed` runs the
 * distributed mode instead (five services and the gateway, private NATS) and profiles the gateway and calculation;
 * PROFILE_CALC_CONNECTIONS sets the connections (64). PROFILE_CALC_PERF=1 runs the profiled processes with
 * `--perf-basic-prof` instead of V8's profiler and prints their pids, for `perf record -g -p <pid>` (the real CPU view:
 * V8's sampler counts a thread that waits for the CPU as busy in its last frame); PROFILE_CALC_FLAGS="<node flags>"
 * runs them with those flags instead (e.g. "--trace-deopt --redirect-code-traces --redirect-code-traces-to=/tmp/deopt-{name}.txt"; `{name}` is the process's).
 * `--embedded` runs the one process as `npm start` does by default (the embedded database in a new DATA_DIR, on its own
 * thread): the CPU per request is then given per thread (the main thread, the database's), and V8's profiler writes a
 * profile of each thread.
 */
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { deployedNodeOptions } from '../support/deployed-node-options';
import { freshDatabase } from '../support/env';
import { randomBytes } from 'node:crypto';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { entryArgs, freePort, NODE, runAdmin, serviceUrlEnv, spawnMain, spawnProcess, startPrivateNats, stopProcess, waitFor, type Proc } from '../support/processes';
import { summarizeCpuProfile } from './cpu-profile';
import { backendCpuByApp, cpuSeconds, threadCpuSeconds } from './process-cpu';
import pg from 'pg';
import { persistedCalculation } from './requests';

const distributed = process.argv.includes('--distributed');
const embedded = !distributed && process.argv.includes('--embedded');
const seconds = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 10);
const db = await freshDatabase({ prefix: 'vat_prof_calc' });
const dir = mkdtempSync(join(tmpdir(), 'vat-prof-calc-'));
const dataDir = mkdtempSync(join(tmpdir(), 'vat-prof-calc-data-'));
const port = await freePort();
const database: Record<string, string> = embedded ? { DATA_DIR: dataDir } : { DATABASE_URL: db.url };
const env = { ...database, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' };

const perf = process.env.PROFILE_CALC_PERF === '1' || !!process.env.PROFILE_CALC_FLAGS;
const perfFlags = process.env.PROFILE_CALC_FLAGS?.split(' ').filter(Boolean) ?? ['--perf-basic-prof'];
const profiled = (name: string, mode: string, e: Record<string, string>) => {
  const p = spawnProcess(`${name} (profiled)`, NODE, [...(perf ? perfFlags.map((f) => f.replaceAll('{name}', name)) : ['--cpu-prof', '--cpu-prof-dir', join(dir, name)]), ...entryArgs('main', mode), mode], { env: e });
  if (perf) console.log(`${name} pid ${p.pid}`);
  return p;
};
const procs: Proc[] = [];
const nats = distributed ? await startPrivateNats() : undefined;
if (distributed) {
  const ports = {} as Record<ServiceName, number>;
  for (const n of SERVICE_NAMES) ports[n] = await freePort([1000]);
  const { PORT: _gatewayPort, ...serviceEnv } = env;
  const shared = { ...serviceEnv, NATS_URL: nats!.url, INTERNAL_TOKEN: `prof-internal-${Date.now()}-token`, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...serviceUrlEnv(ports) };
  // Each process with its deployed NODE_OPTIONS (docker-compose.yml; spawnMain gives them to the others).
  const own = (n: string, e: Record<string, string>) => ({ ...shared, NODE_OPTIONS: deployedNodeOptions(n), ...e });
  for (const n of SERVICE_NAMES) procs.push(n === 'calculation' ? profiled(n, n, own(n, { SERVICE_PORT: String(ports[n]) })) : spawnMain(n, { ...shared, SERVICE_PORT: String(ports[n]) }));
  procs.push(profiled('gateway', 'gateway', own('gateway', { PORT: String(port) })));
} else {
  procs.push(profiled('main', 'all', env));
}
const runId = Date.now().toString(36);
try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor('/ready', async () => (await fetch(`${base}/ready`).catch(() => undefined))?.ok, { timeoutMs: 180_000, intervalMs: 100 });
  const key = (await runAdmin<{ key: string }>(['keys', 'create', '--account', 'prof', '--scope', 'full'], database)).json.key;
  const load = (duration: number) =>
    autocannon({
      url: base,
      duration,
      connections: Number(process.env.PROFILE_CALC_CONNECTIONS ?? 64),
      requests: [persistedCalculation(key, `prof-${runId}`)],
    });
  await load(2);
  // CPU per request of each process, PostgreSQL's backends by pool and NATS, from /proc over the measured load.
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  const owners: [string, number][] = [...procs.map((p): [string, number] => [p.name.replace(' (profiled)', ''), p.pid]), ...(nats ? [['nats', nats.proc.pid] as [string, number]] : [])];
  const before = owners.map(([, pid]) => cpuSeconds(pid));
  const threadsBefore = embedded ? threadCpuSeconds(procs[0]!.pid) : undefined;
  const pgBefore = await backendCpuByApp(sql);
  const r = await load(seconds);
  const pgAfter = await backendCpuByApp(sql);
  const threadsAfter = embedded ? threadCpuSeconds(procs[0]!.pid) : undefined;
  const perRequest = (s: number) => ((1000 * s) / r.requests.total).toFixed(3);
  const byApp = new Map<string, number>();
  for (const [pid, b] of pgAfter) byApp.set(b.app, (byApp.get(b.app) ?? 0) + b.cpu - (pgBefore.get(pid)?.cpu ?? 0));
  await sql.end();
  console.log(`persisted calculation: ${r.requests.average.toFixed(0)} req/s, ${r.requests.total} requests, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
  const postgres = byApp.size > 0 ? `; PostgreSQL ${[...byApp].map(([app, s]) => `${app} ${perRequest(s)}`).join(', ')}` : '';
  console.log(`CPU ms per request: ${owners.map(([name, pid], i) => `${name} ${perRequest(cpuSeconds(pid) - before[i]!)}`).join(', ')}${postgres}`);
  if (threadsBefore && threadsAfter) {
    // By thread name: MainThread, the database's WorkerThread, V8's helpers (V8Worker: concurrent marking, scavenges), libuv's pool.
    const byName = new Map<string, number>();
    for (const [tid, t] of threadsAfter) byName.set(t.name, (byName.get(t.name) ?? 0) + t.cpu - (threadsBefore.get(tid)?.cpu ?? 0));
    console.log(`CPU ms per request by thread: ${[...byName].filter(([, s]) => s > 0).map(([n, s]) => `${n} ${perRequest(s)}`).join(', ')} (${((100 * (byName.get('WorkerThread') ?? 0)) / seconds).toFixed(0)} % of a core in the database's thread)`);
  }
} finally {
  for (const p of procs) await stopProcess(p);
  await nats?.stop();
  await db.drop();
}
for (const name of perf ? [] : readdirSync(dir)) {
  // One profile per thread (the embedded database's thread writes its own).
  const profs = readdirSync(join(dir, name)).filter((f) => f.endsWith('.cpuprofile'));
  if (profs.length === 0) console.log(`\n### ${name}\n\nno profile written`);
  for (const prof of profs) {
    console.log(`\n### ${name} (${prof})\n`);
    console.log(summarizeCpuProfile(join(dir, name, prof), 30));
    if (process.env.PROFILE_CALC_KEEP) renameSync(join(dir, name, prof), join(process.env.PROFILE_CALC_KEEP, `${name}-${prof}`));
  }
}
rmSync(dir, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
