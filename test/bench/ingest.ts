import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { freshDatabase } from '../support/env';
import { entryScript, scriptNodeFlags, freePort, NODE, ROOT, runAdmin, spawnProcess, startPrivateNats, stopProcess, waitFor, type Proc, serviceUrlEnv } from '../support/processes';
import { supplyEvent, writeSupplyFile } from '../support/supply-files';
import { summarizeCpuProfile } from './cpu-profile';
import { backendCpu, backendCpuByApp, cpuSeconds, statusMb } from './process-cpu';
import { deployedNodeOptions } from '../support/deployed-node-options';

/**
 * Issue 8: supply-event ingestion in distributed mode (five services and the gateway as separate
 * processes on PostgreSQL, a private NATS), so every process's peak RSS is its own:
 * REST batches of 1,000 from several clients, then the projections catching up, then the admin
 * CSV import of the same events for another account through the ledger process.
 */

const EVENTS = Number(process.env.BENCH_INGEST_EVENTS ?? 1_000_000);
const CLIENTS = Number(process.env.BENCH_INGEST_CLIENTS ?? 6);
const BATCH = 1000;
/**
 * BENCH_INGEST_PROFILE=1: the ledger process (and the CLI) runs under the V8 CPU profiler and the summary is
 * printed; a comma-separated list of process names (`ledger,thresholds,compliance-reports,gateway`) profiles those.
 */
const PROFILE_SPEC = process.env.BENCH_INGEST_PROFILE ?? '';
const PROFILED = PROFILE_SPEC === '1' ? ['ledger'] : PROFILE_SPEC.split(',').map((x) => x.trim()).filter((x) => x && x !== '0');
const PROFILE = PROFILED.length > 0;
/** Where to keep the profile (default: a temporary directory, removed after the summary). */
const PROFILE_DIR = process.env.BENCH_INGEST_PROFILE_DIR;
/** Extra Node flags for the processes the ingestion exercises (ledger, gateway, admin CLI), e.g. `--max-old-space-size=128`. */
const NODE_FLAGS = (process.env.BENCH_INGEST_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** Node flags of one process by name (V8 flags too), e.g. BENCH_INGEST_FLAGS_THRESHOLDS='--max-semi-space-size=16'. */
const flagsOf = (name: string) => (process.env[`BENCH_INGEST_FLAGS_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').split(' ').filter(Boolean);
/** NODE_OPTIONS of a service process or the gateway: by default the heap caps it is deployed with (docker-compose.yml, deploy/k8s). */
const nodeOptionsOf = (name: string) => process.env.BENCH_INGEST_NODE_OPTIONS ?? deployedNodeOptions(name);
const PROJECTION_TABLES = ['thresholds.supply_projection_position', 'compliance_reports.supply_projection_position'];

/** Peak resident set size (VmHWM) in MB; undefined once the process is gone. */
function peakRssMb(pid: number): number | undefined {
  try {
    const mb = statusMb(pid, 'VmHWM');
    return Number.isNaN(mb) ? undefined : mb;
  } catch {
    return undefined;
  }
}


/**
 * CPU seconds per 1,000 events of each process over `phase`, and of the database's PostgreSQL
 * backends (independent of how loaded the machine is; backends that ended during it are missed).
 */
async function cpuPer1000<T>(pids: [string, number][], sql: pg.Client, events: () => number, phase: () => Promise<T>): Promise<{ result: T; cpu: string }> {
  const before = pids.map(([, pid]) => cpuSeconds(pid));
  const pgBefore = await backendCpu(sql);
  const self = process.cpuUsage();
  const result = await phase();
  const selfUsed = process.cpuUsage(self);
  const pgAfter = await backendCpuByApp(sql);
  const per1000 = (seconds: number) => ((seconds * 1000) / events()).toFixed(3);
  const used = pids.map(([name, pid], i) => `${name} ${per1000(cpuSeconds(pid) - before[i]!)}`);
  // PostgreSQL in all, then by the service whose pool the backend serves (application_name).
  const byApp = new Map<string, number>();
  for (const [pid, { app, cpu }] of pgAfter) if (!Number.isNaN(cpu)) byApp.set(app, (byApp.get(app) ?? 0) + cpu - (pgBefore.get(pid) ?? 0));
  const pgTotal = [...byApp.values()].reduce((a, b) => a + b, 0);
  used.push(`postgres ${per1000(pgTotal)} (${[...byApp].sort((a, b) => b[1] - a[1]).map(([app, cpu]) => `${app.replace(/^vat-/, '')} ${per1000(cpu)}`).join(', ')})`);
  used.push(`bench client ${per1000((selfUsed.user + selfUsed.system) / 1e6)}`);
  return { result, cpu: used.join(', ') };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** The request body of batch `b` (events b·1000+1 …), built as text: the client must not be the bottleneck. */
function batchBody(b: number, prefix: string): string {
  const parts: string[] = [];
  for (let n = b * BATCH + 1; n <= Math.min(EVENTS, (b + 1) * BATCH); n++) parts.push(JSON.stringify(supplyEvent(n, prefix)));
  return `{"events":[${parts.join(',')}]}`;
}

async function restIngest(base: string, key: string, prefix: string): Promise<{ seconds: number; errors: string[] }> {
  const batches = Math.ceil(EVENTS / BATCH);
  let next = 0;
  const errors: string[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let b = next++; b < batches; b = next++) {
        const res = await fetch(`${base}/v1/supply-events`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: batchBody(b, prefix) });
        const text = await res.text();
        if (res.status !== 201 && errors.length < 5) errors.push(`batch ${b}: ${res.status} ${text.slice(0, 300)}`);
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, errors };
}

/** How long the section waits for the relay and the projections before it reports them as behind. */
const WAIT_MS = Number(process.env.BENCH_INGEST_WAIT_MINUTES ?? 10) * 60_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits (bounded) until every projection table that exists reports the ledger head of the account. */
async function projectionsCaughtUp(sql: pg.Client, accountId: string): Promise<{ present: string[]; seconds: number; behind?: string }> {
  const present: string[] = [];
  for (const t of PROJECTION_TABLES) if ((await sql.query<{ r: string | null }>('select to_regclass($1)::text as r', [t])).rows[0]!.r) present.push(t);
  const t0 = performance.now();
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const head = (await sql.query<{ s: string }>('select coalesce((select sequence from ledger.ledger_head where account_id = $1), 0)::text as s', [accountId])).rows[0]!.s;
    const lagging: string[] = [];
    for (const t of present) {
      const applied = (await sql.query<{ a: string | null }>(`select applied::text as a from ${t} where account_id = $1`, [accountId])).rows[0]?.a ?? '0';
      if (applied !== head) lagging.push(`${t} at ${applied} of ${head}`);
    }
    const seconds = (performance.now() - t0) / 1000;
    if (!lagging.length) return { present, seconds };
    if (Date.now() > deadline) return { present, seconds, behind: lagging.join(', ') };
    await sleep(100);
  }
}

type Drain = { seconds: number; left: number; published: number };

/** How long after `after` the projections reached the ledger head: the outbox's drain, then their catch-up. */
function catchUpText(drained: Drain, p: Awaited<ReturnType<typeof projectionsCaughtUp>>, after: string, naming: boolean): string {
  if (!p.present.length) return 'projections: not present';
  const seconds = drained.seconds + p.seconds;
  if (p.behind) return `still behind ${seconds.toFixed(0)} s after ${after}: ${p.behind}`;
  return `${seconds.toFixed(1)} s after ${after}${naming ? ` (${p.present.join(', ')})` : ''}`;
}

const unpublished = async (sql: pg.Client) => (await sql.query<{ n: number }>('select count(*)::int as n from ledger.outbox where published_at is null')).rows[0]!.n;

/** Waits (bounded) until the ledger outbox is empty: every SupplyCommitted published. */
async function outboxDrained(sql: pg.Client): Promise<Drain> {
  const t0 = performance.now();
  const before = await unpublished(sql);
  const deadline = Date.now() + WAIT_MS;
  // A cheap probe while waiting (a count over a large backlog is itself a load on the database).
  while ((await sql.query<{ e: boolean }>('select exists (select 1 from ledger.outbox where published_at is null) as e')).rows[0]!.e) {
    if (Date.now() > deadline) {
      const left = await unpublished(sql);
      return { seconds: (performance.now() - t0) / 1000, left, published: before - left };
    }
    await sleep(500);
  }
  return { seconds: (performance.now() - t0) / 1000, left: 0, published: before };
}

function drainText(d: Drain): string {
  const rate = d.seconds > 0 ? ` (${fmt(d.published / d.seconds)} events/s)` : '';
  return d.left ? `not drained after ${d.seconds.toFixed(0)} s: ${fmt(d.left)} still unpublished${rate}` : `${d.seconds.toFixed(1)} s${rate}`;
}

/** The admin CLI as a child process (as `npm run --silent admin` runs it); its VmHWM is sampled until it exits. */
async function adminImport(args: string[], env: Record<string, string>, started: (pid: number) => void, profileDir?: string): Promise<{ summary: any; peakMb: number; cpuSeconds?: number; code: number | string; stderr: string }> {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  // As `npm run admin` runs it (its script's flags: heap cap), the compiled bundle when it is fresh.
  const child = spawn(NODE, [...scriptNodeFlags('admin'), ...NODE_FLAGS, ...profile, ...entryScript('admin'), 'supply', 'import', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)));
  started(child.pid!);
  let peakMb = 0;
  let cpu: number | undefined;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, peakRssMb(child.pid!) ?? 0);
    const c = cpuSeconds(child.pid!);
    if (!Number.isNaN(c)) cpu = c;
  }, 100);
  // 'close' (stdio read to the end), not 'exit', which can come before the last output.
  const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
  clearInterval(sampler);
  let summary: any;
  try {
    summary = JSON.parse(stdout);
  } catch {
    summary = undefined;
  }
  return { summary, peakMb, cpuSeconds: cpu, code: code ?? signal ?? 'unknown', stderr };
}

/** Runs the section and returns its markdown. */
export async function ingestBench(): Promise<string> {
  const db = await freshDatabase({ prefix: 'vat_bench_ingest' });
  const nats = await startPrivateNats();
  const dir = mkdtempSync(join(tmpdir(), 'vat-bench-ingest-'));
  const profileDir = PROFILE ? (PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'vat-prof-ledger-'))) : undefined;
  const cliProfileDir = profileDir ? join(profileDir, 'cli') : undefined;
  const procs = new Map<string, Proc>();
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  try {
    const ports = {} as Record<ServiceName, number>;
    for (const n of SERVICE_NAMES) ports[n] = await freePort([1000]);
    const gatewayPort = await freePort();
    const env: Record<string, string> = {
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      INTERNAL_TOKEN: `bench-ingest-${Date.now().toString(36)}-token`,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOG_LEVEL: 'warn',
      ...serviceUrlEnv(ports),
    };
    // The services as `npm run start:service` runs them: the compiled bundle when it is fresh (what ships), else the sources.
    const serviceEntry = entryScript('main');
    const start = (mode: string, e: Record<string, string>, flags: string[] = []) =>
      spawnProcess(mode, NODE, [...(mode === 'ledger' || mode === 'gateway' ? NODE_FLAGS : []), ...flagsOf(mode), ...flags, ...serviceEntry, mode], { env: { HOST: '127.0.0.1', NODE_OPTIONS: nodeOptionsOf(mode), ...e } });
    const profiling = (n: string) => (profileDir && PROFILED.includes(n) ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, n)] : []);
    for (const n of SERVICE_NAMES) procs.set(n, start(n, { ...env, SERVICE_PORT: String(ports[n]) }, profiling(n)));
    procs.set('gateway', start('gateway', { ...env, PORT: String(gatewayPort) }, profiling('gateway')));
    const base = `http://127.0.0.1:${gatewayPort}`;
    const csvFile = join(dir, 'events.csv');
    const [, restKey] = await Promise.all([
      waitFor(`${base}/ready`, async () => {
        for (const p of procs.values()) if (p.exited()) throw new Error(`${p.name} exited:\n${p.output()}`);
        return (await fetch(`${base}/ready`).catch(() => undefined))?.ok;
      }, { timeoutMs: 300_000, intervalMs: 200 }),
      runAdmin<{ key: string; account_id: string }>(['keys', 'create', '--account', 'bench-rest', '--scope', 'full'], { DATABASE_URL: db.url }).then((r) => r.json),
      runAdmin(['keys', 'create', '--account', 'bench-csv', '--scope', 'full'], { DATABASE_URL: db.url }),
      runAdmin(['keys', 'create', '--account', 'bench-local', '--scope', 'full'], { DATABASE_URL: db.url }),
      writeSupplyFile(csvFile, EVENTS, { prefix: 'bench' }),
    ]);
    const atReady = new Map([...procs].map(([n, p]) => [n, peakRssMb(p.pid) ?? NaN]));
    console.log(`\ningest: ${fmt(EVENTS)} events, distributed mode, ${CLIENTS} REST clients, pids ${[...procs].map(([n, p]) => `${n}=${p.pid}`).join(' ')}`);

    const busy = (): [string, number][] => ['gateway', 'ledger', 'compliance-reports', 'thresholds'].map((n) => [n, procs.get(n)!.pid]);
    // The CPU window closes once the outbox is drained: it counts committing and publishing.
    let drained: Drain = { seconds: 0, left: 0, published: 0 };
    const { result: rest, cpu: restCpu } = await cpuPer1000(busy(), sql, () => EVENTS, async () => {
      const r = await restIngest(base, restKey.key, 'bench');
      console.log(`ingest REST: ${fmt(EVENTS)} events in ${r.seconds.toFixed(1)} s = ${fmt(EVENTS / r.seconds)} events/s${r.errors.length ? `; errors: ${r.errors.join(' | ')}` : ''}`);
      drained = await outboxDrained(sql);
      return r;
    });
    console.log(`ingest REST: CPU s per 1,000 events (commit and publish): ${restCpu}`);
    const restRate = EVENTS / rest.seconds;
    const stored = (await sql.query<{ n: number }>('select count(*)::int as n from ledger.supply_event where account_id = $1', [restKey.account_id])).rows[0]!.n;
    const projections = await projectionsCaughtUp(sql, restKey.account_id);
    const projectionText = catchUpText(drained, projections, 'the last response', true);
    console.log(`ingest: ledger outbox after the last response: ${drainText(drained)}; ${projectionText}`);

    let cliPid = 0;
    let csvDrained: Drain = { seconds: 0, left: 0, published: 0 };
    const { result: csv, cpu: csvCpu } = await cpuPer1000(busy(), sql, () => EVENTS, async () => {
      const r = await adminImport(['--account', 'bench-csv', csvFile], { DATABASE_URL: db.url, LEDGER_URL: env.LEDGER_URL!, INTERNAL_TOKEN: env.INTERNAL_TOKEN! }, (pid) => (cliPid = pid), cliProfileDir);
      csvDrained = await outboxDrained(sql);
      return r;
    });
    // Issue 24's CSV row: the projections at the ledger head within 2 s of the import's end (the CLI's exit).
    const csvAccount = (await sql.query<{ id: string }>('select id::text from "gateway".account where name = $1', ['bench-csv'])).rows[0]?.id;
    const csvProjectionText = csvAccount ? catchUpText(csvDrained, await projectionsCaughtUp(sql, csvAccount), 'the import ended', false) : 'projections: not present';
    console.log(`ingest CSV: ledger outbox after the import ended: ${drainText(csvDrained)}; ${csvProjectionText}`);
    console.log(`ingest CSV: CPU s per 1,000 events: ${csvCpu.replace(/, bench client.*/, '')}, admin CLI ${csv.cpuSeconds === undefined ? '?' : ((csv.cpuSeconds * 1000) / EVENTS).toFixed(3)} (pid ${cliPid})`);
    const csvRate = csv.summary ? csv.summary.lines_read / csv.summary.elapsed_seconds : 0;
    console.log(`ingest CSV (admin supply import via LEDGER_URL): ${csv.summary ? `${fmt(csv.summary.committed)} committed in ${csv.summary.elapsed_seconds} s = ${fmt(csvRate)} events/s` : `failed (${csv.code}): ${csv.stderr.slice(-2000)}`}`);

    // The same file again, for a third account, with the ledger module inside the CLI (no LEDGER_URL).
    const local = await adminImport(['--account', 'bench-local', csvFile], { DATABASE_URL: db.url, INTERNAL_TOKEN: env.INTERNAL_TOKEN!, DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY! }, () => undefined);
    const localRate = local.summary ? local.summary.lines_read / local.summary.elapsed_seconds : 0;
    console.log(`ingest CSV (admin supply import, ledger in-process): ${local.summary ? `${fmt(local.summary.committed)} committed in ${local.summary.elapsed_seconds} s = ${fmt(localRate)} events/s` : `failed (${local.code}): ${local.stderr.slice(-2000)}`}`);
    await outboxDrained(sql);

    const rss = [...procs].map(([n, p]) => [n, peakRssMb(p.pid) ?? NaN] as const);
    rss.push(['admin supply import (LEDGER_URL)', csv.peakMb], ['admin supply import (in-process)', local.peakMb]);
    let profileText = '';
    if (profileDir) {
      for (const n of PROFILED) if (procs.has(n)) await stopProcess(procs.get(n)!);
      const profileOf = (d: string) => (existsSync(d) ? readdirSync(d).find((f) => f.endsWith('.cpuprofile')) : undefined);
      const cliProf = cliProfileDir ? profileOf(cliProfileDir) : undefined;
      profileText = [
        ...PROFILED.map((n) => {
          const prof = profileOf(join(profileDir, n));
          return prof ? `\n### CPU profile of the ${n} process (REST ingest, then the CSV import)\n\n${summarizeCpuProfile(join(profileDir, n, prof), 20)}` : '';
        }),
        cliProf ? `\n### CPU profile of the admin supply import process\n\n${summarizeCpuProfile(join(cliProfileDir!, cliProf), 15)}` : '',
      ].join('\n');
    }
    const worst = Math.max(...rss.map(([, v]) => v));
    return [
      `\n## Issue 8: supply-event ingestion (distributed mode: five services + gateway + the admin CLI as separate processes, PostgreSQL, private NATS; ${fmt(EVENTS)} events)\n`,
      '| scenario | measured | target |',
      '|---|---|---|',
      `| POST /v1/supply-events, batches of 1,000, ${CLIENTS} concurrent clients | ${fmt(restRate)} events/s (${fmt(stored)} stored in ${rest.seconds.toFixed(1)} s${rest.errors.length ? `, ${rest.errors.length}+ failed batches` : ''}) | ≥ 20,000 events/s (PostgreSQL ≤ 0.05 CPU s per 1,000) |`,
      `| SupplyCommitted all published (ledger outbox empty) after the last response | ${drainText(drained)} | — |`,
      `| projections at the ledger head (applied = head) | ${projectionText} | caught up within 2 s |`,
      `| admin supply import of the same events as CSV (another account, LEDGER_URL) | ${csv.summary ? `${fmt(csvRate)} events/s (${fmt(csv.summary.committed)} committed, ${csv.summary.rejected} rejected)` : 'failed'}; projections at the ledger head ${csvProjectionText} | ≥ 50,000 events/s, projections caught up within 2 s |`,
      `| the same with the ledger module inside the CLI (no LEDGER_URL; a third account) | ${local.summary ? `${fmt(localRate)} events/s (${fmt(local.summary.committed)} committed)` : 'failed'} | — |`,
      `| CPU seconds per 1,000 events, REST ingest (until the outbox is drained) | ${restCpu} | — |`,
      `| CPU seconds per 1,000 events, CSV import (until the outbox is drained) | ${csvCpu.replace(/, bench client.*/, '')}, admin CLI ${csv.cpuSeconds === undefined ? '?' : ((csv.cpuSeconds * 1000) / EVENTS).toFixed(3)} | — |`,
      `| peak RSS (VmHWM) per process (at /ready → after the run) | ${rss.map(([n, v]) => `${n} ${atReady.has(n) ? `${atReady.get(n)!.toFixed(0)} → ` : ''}${v.toFixed(0)} MB`).join(', ')} | ≤ 150 MB idle, ≤ 256 MB peak per service process; CLI ≤ 256 MB (worst ${worst.toFixed(0)} MB) |`,
      profileText,
    ].join('\n');
  } finally {
    await sql.end().catch(() => undefined);
    for (const p of procs.values()) await stopProcess(p).catch(() => undefined);
    await nats.stop().catch(() => undefined);
    if (process.env.BENCH_INGEST_KEEP_DB === '1') console.log(`kept database ${db.url}`);
    else await db.drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    if (profileDir && !PROFILE_DIR) rmSync(profileDir, { recursive: true, force: true });
  }
}
