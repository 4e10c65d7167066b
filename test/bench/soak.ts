import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { freshDatabase } from '../support/env';
import { entryArgs, freePort, http, NODE, runAdmin, sleep, spawnProcess, startPrivateNats, stopProcess, waitReady, type Proc, serviceUrlEnv } from '../support/processes';
import { deployedNodeOptions } from '../support/deployed-node-options';

/**
 * Issue 23, point 5: a sustained mixed load against the distributed mode (five service processes and the
 * gateway on a fresh PostgreSQL database and a private NATS JetStream). Concurrent clients send persisted
 * calculations, supply-event batches, Union OSS / filing-prep / IOSS / threshold reads, CSV exports and
 * supply-event list pages for BENCH_SOAK_SECONDS; the run passes with 0 errors, a stable p99 per route,
 * RSS growth after the warm-up below 10 % in every process, and the projections counting every committed
 * event once the load stops. `npm run bench -- soak`.
 */

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 8);
/** Target request rate of all clients together; 0 = closed loop (each client sends its next request at once). */
const RPS = Number(process.env.BENCH_SOAK_RPS ?? 40);
const ACCOUNTS = Number(process.env.BENCH_SOAK_ACCOUNTS ?? 4);
/** Batches of 100 events committed per account before the load starts (so the first reads are not of an empty quarter). */
const SEED_BATCHES = Number(process.env.BENCH_SOAK_SEED_BATCHES ?? 5);
const SAMPLE_MS = Number(process.env.BENCH_SOAK_SAMPLE_MS ?? 2000);
const BATCH = 100;
/** Statistics windows: one minute (ten for shorter runs); the warm-up is the first two (2 minutes, or 20 % of a run under 10 minutes). */
const WINDOW_S = Math.min(60, SECONDS / 10);
const WARMUP_S = 2 * WINDOW_S;
const WINDOWS = Math.ceil(SECONDS / WINDOW_S);
const RSS_GROWTH_LIMIT = 0.1;
/**
 * p99 is stable when the p99 of the second half of the post-warm-up windows is at most 1.5 × that of the first
 * half + 25 ms (halves, not single windows: a rare route has few requests a minute, and one slow one is its p99).
 */
const P99_FACTOR = 1.5;
const P99_SLACK_MS = 25;
const REQUEST_TIMEOUT_MS = 60_000;
const CATCH_UP_MS = Number(process.env.BENCH_SOAK_CATCH_UP_SECONDS ?? 180) * 1000;
/** Node options for every service and the gateway; by default the heap cap they are deployed with (deploy/k8s/config.yaml, docker-compose.yml). */
const nodeOptionsOf = (name: string) => process.env.BENCH_SOAK_NODE_OPTIONS ?? deployedNodeOptions(name);
/** V8 flags NODE_OPTIONS does not take (e.g. `--heap-growing-percent=50`), put on each process's command line. */
const NODE_FLAGS = (process.env.BENCH_SOAK_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const spawnMain = (mode: string, env: Record<string, string | undefined>) =>
  spawnProcess(`main ${mode}`, NODE, [...NODE_FLAGS, ...entryArgs('main', mode), mode], { env: { LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env } });

type Json = Record<string, any>;
type Account = { name: string; id: string; key: string; sent: number; acked: number; imported: number; cursor?: string };
type Request = { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string>; account: Account };
type Route = { label: string; path: string; weight: number; build(ctx: Ctx, rnd: () => number): Request; onOk?(json: Json, req: Request): void };
type Ctx = { accounts: Account[]; quarter: string; months: string[]; days: string[]; runId: string; seq: number };
type Cell = { count: number; errors: number; ms: number[] };

/** Standard rates in force in 2026 in the States the sales go to (the ledger checks the rate is in force on the tax point: a change in a later year refuses the batches, an error in the run). */
const STANDARD: [string, number][] = [['FR', 2000], ['AT', 2000], ['IT', 2200], ['ES', 2100], ['NL', 2100], ['BE', 2100], ['PL', 2300], ['IE', 2300]];

/** half_up(net × bps / 10000), as the ledger checks it (net ≥ 0). */
const vatOf = (net: number, bps: number) => Math.floor((2 * net * bps + 10_000) / 20_000);

/** The current quarter (UTC) and every day of it up to today: the tax points of the load's events. */
function currentQuarter(now = new Date()): { quarter: string; months: string[]; days: string[] } {
  const y = now.getUTCFullYear();
  const q = Math.floor(now.getUTCMonth() / 3);
  const days: string[] = [];
  for (let d = new Date(Date.UTC(y, q * 3, 1)); d <= now; d = new Date(d.getTime() + 86_400_000)) days.push(d.toISOString().slice(0, 10));
  const months = [...new Set(days.map((d) => d.slice(0, 7)))];
  return { quarter: `${y}-Q${q + 1}`, months, days };
}

/**
 * Batch `b` of an account: B2C goods dispatched from DE to eight States at their standard rate; every tenth
 * event a refund of half the sale before it (same batch, so never unlinked), every tenth an IOSS import.
 */
function batchEvents(account: Account, b: number, ctx: Ctx): Json[] {
  const out: Json[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = b * BATCH + i;
    const id = `${ctx.runId}-${account.name}-${n}`;
    const day = ctx.days[n % ctx.days.length]!;
    const net = 1_000 + ((n * 7919) % 90_000);
    if (i % 10 === 9) {
      const sale = out[i - 1]!;
      const half = Math.floor(sale.net_amount_minor / 2);
      out.push({ ...sale, event_id: id, event_type: 'refund', original_event_id: sale.event_id, net_amount_minor: -half, vat_amount_minor: -vatOf(half, sale.vat_rate_bps) });
    } else if (i % 10 === 4) {
      const value = 1_000 + (n % 14_000);
      out.push({ event_id: id, event_type: 'sale', occurred_at: day, supply_kind: 'imported_goods', customer_type: 'b2c', country_of_consumption: 'FR', currency: 'EUR', net_amount_minor: value, vat_amount_minor: vatOf(value, 2000), vat_rate_bps: 2000, rate_category: 'standard', classification_status: 'classified', third_country_origin: 'CN', intrinsic_value_eur_minor: value, excise_goods: false, consignment_reference: `c-${id}` });
    } else {
      const [country, bps] = STANDARD[n % STANDARD.length]!;
      out.push({ event_id: id, event_type: 'sale', occurred_at: day, supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: country, dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR', net_amount_minor: net, vat_amount_minor: vatOf(net, bps), vat_rate_bps: bps, rate_category: 'standard', classification_status: 'classified', order_reference: `o-${n}` });
    }
  }
  return out;
}

/** The next batch of a randomly chosen account (an account's batches are numbered in the order they are built). */
function supplyBatch(ctx: Ctx, rnd: () => number): Request {
  const account = ctx.accounts[Math.floor(rnd() * ctx.accounts.length)]!;
  const events = batchEvents(account, account.sent++, ctx);
  return { method: 'POST', path: '/v1/supply-events', body: JSON.stringify({ events }), account };
}

const anyAccount = (ctx: Ctx, rnd: () => number) => ctx.accounts[Math.floor(rnd() * ctx.accounts.length)]!;
const get = (path: string) => (ctx: Ctx, rnd: () => number): Request => ({ method: 'GET', path, account: anyAccount(ctx, rnd) });

/** The mix: weights are percentages of all requests. */
function routes(ctx: Ctx): Route[] {
  const q = ctx.quarter;
  return [
    {
      label: 'calculate',
      path: 'POST /v1/vat/calculate (persisted, fresh Idempotency-Key)',
      weight: 30,
      build: (c, rnd) => ({
        method: 'POST',
        path: '/v1/vat/calculate',
        headers: { 'idempotency-key': `${c.runId}-calc-${c.seq++}` },
        body: JSON.stringify({ country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 1_190 + Math.floor(rnd() * 100_000), price_includes_vat: true, transaction_date: c.days.at(-1) }),
        account: anyAccount(c, rnd),
      }),
    },
    {
      label: 'supply batch',
      path: `POST /v1/supply-events (${BATCH} events)`,
      weight: 6,
      build: supplyBatch,
      onOk: (json, req) => {
        req.account.acked += Number(json.committed);
        req.account.imported += (json.items as Json[]).filter((e) => e.status === 'committed' && e.supply_kind === 'imported_goods').length;
      },
    },
    { label: 'oss summary', path: 'GET /v1/reports/oss-quarterly-summary', weight: 10, build: get(`/v1/reports/oss-quarterly-summary?period=${q}`) },
    { label: 'filing-prep', path: 'GET /v1/reports/filing-prep', weight: 8, build: get(`/v1/reports/filing-prep?period=${q}`) },
    {
      label: 'ioss month',
      path: 'GET /v1/reports/ioss-monthly/events (100)',
      weight: 8,
      build: (c, rnd) => ({ method: 'GET', path: `/v1/reports/ioss-monthly/events?month=${c.months[Math.floor(rnd() * c.months.length)]}&limit=100`, account: anyAccount(c, rnd) }),
    },
    { label: 'threshold status', path: 'GET /v1/compliance/threshold-status', weight: 8, build: get('/v1/compliance/threshold-status') },
    { label: 'oss csv export', path: 'GET /v1/reports/oss-quarterly-summary/export (csv)', weight: 5, build: get(`/v1/reports/oss-quarterly-summary/export?period=${q}&format=csv`) },
    { label: 'breakdown csv export', path: 'GET /v1/reports/country-vat-breakdown/export (csv)', weight: 5, build: get(`/v1/reports/country-vat-breakdown/export?period=${q}&format=csv`) },
    {
      label: 'supply list',
      path: 'GET /v1/supply-events (pages of 100, following next_cursor)',
      weight: 20,
      build: (c, rnd) => {
        const account = anyAccount(c, rnd);
        return { method: 'GET', path: `/v1/supply-events?limit=100${account.cursor ? `&cursor=${account.cursor}` : ''}`, account };
      },
      onOk: (json, req) => {
        req.account.cursor = json.next_cursor ?? undefined;
      },
    },
  ];
}

/** A small deterministic generator per client (mulberry32), so a run's mix is repeatable. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest-rank percentile of unsorted values (0 when there are none). */
function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

const median = (values: number[]) => percentile(values, 0.5);
const fmtMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const fmtMb = (kb: number) => (kb / 1024).toFixed(1);

/** One mapping of `/proc/<pid>/smaps`: its address range and name, virtual size and resident kB. */
type Mapping = { key: string; name: string; sizeKb: number; rssKb: number };

/** The process's mappings (undefined once it is gone): where its resident memory is, to tell a growing malloc arena or brk heap from V8's pages. */
function smaps(pid: number): Mapping[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return undefined;
  }
  const out: Mapping[] = [];
  let cur: Mapping | undefined;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      cur = { key: `${head[1]}-${head[2]}`, name: head[3]!.trim() || '[anon]', sizeKb: (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1024, rssKb: 0 };
      out.push(cur);
    } else if (cur && line.startsWith('Rss:')) cur.rssKb = Number(/(\d+)/.exec(line)![1]);
  }
  return out;
}

/** Where resident memory went between two snapshots: per kind of mapping, and the mappings that grew most. */
function smapsGrowth(before: Mapping[], after: Mapping[]): string {
  const kind = (m: Mapping) => (m.name === '[heap]' ? 'brk heap' : m.name === '[anon]' ? (m.sizeKb >= 60 * 1024 ? 'anon ≥ 60 MB (malloc arenas, V8 reservations)' : 'anon < 60 MB') : m.name.startsWith('[') ? m.name : 'files');
  const sum = (ms: Mapping[]) => {
    const by = new Map<string, number>();
    for (const m of ms) by.set(kind(m), (by.get(kind(m)) ?? 0) + m.rssKb);
    return by;
  };
  const b = sum(before);
  const a = sum(after);
  const kinds = [...new Set([...b.keys(), ...a.keys()])].sort();
  const parts = kinds.map((k) => `${k} ${fmtMb(b.get(k) ?? 0)} → ${fmtMb(a.get(k) ?? 0)}`);
  const was = new Map(before.map((m) => [m.key, m.rssKb]));
  const top = after.map((m) => ({ m, d: m.rssKb - (was.get(m.key) ?? 0) })).sort((x, y) => y.d - x.d).slice(0, 4).filter((x) => x.d > 1024);
  const gone = before.filter((m) => !after.some((x) => x.key === m.key)).reduce((s, m) => s + m.rssKb, 0);
  return `${parts.join('; ')}; grew most: ${top.map(({ m, d }) => `${m.name} ${m.key} (${fmtMb(m.sizeKb)} MB virtual) +${fmtMb(d)}`).join(', ') || 'none over 1 MB'}; mappings gone ${fmtMb(gone)} MB`;
}

/** Resident set size (VmRSS) in kB; undefined once the process is gone. */
function rssKb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

type Memory = { heapUsed?: number; heapTotal?: number; external?: number };

/**
 * V8's used and committed heap and the memory outside it (prom-client's `nodejs_heap_size_used_bytes`,
 * `nodejs_heap_size_total_bytes`, `nodejs_external_memory_bytes`) in kB from a process's `/metrics`:
 * they tell a growing live heap (a leak) from memory V8 or the allocator keeps.
 */
async function memoryKb(metricsUrl: string): Promise<Memory> {
  try {
    const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    const read = (name: string) => {
      const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
      return m ? Number(m[1]) / 1024 : undefined;
    };
    return { heapUsed: read('nodejs_heap_size_used_bytes'), heapTotal: read('nodejs_heap_size_total_bytes'), external: read('nodejs_external_memory_bytes') };
  } catch {
    return {};
  }
}

/** The distributed mode on a fresh database and a private NATS; `procs` are every process the criteria cover. */
async function startDistributed(databaseUrl: string, runId: string) {
  const nats = await startPrivateNats();
  const ports = {} as Record<ServiceName, number>;
  for (const n of SERVICE_NAMES) ports[n] = await freePort([1000]);
  const gatewayPort = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    NATS_URL: nats.url,
    INTERNAL_TOKEN: `soak-${runId}-${randomBytes(8).toString('hex')}`,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'warn',
    ...serviceUrlEnv(ports),
  };
  const procs: Proc[] = SERVICE_NAMES.map((n) => spawnMain(n, { ...env, NODE_OPTIONS: nodeOptionsOf(n), SERVICE_PORT: String(ports[n]) }));
  procs.push(spawnMain('gateway', { ...env, NODE_OPTIONS: nodeOptionsOf('gateway'), PORT: String(gatewayPort) }));
  const base = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(base, procs, 300_000);
  // Services serve /metrics on their health port (SERVICE_PORT + 1000), the gateway on its own port.
  const metrics = [...SERVICE_NAMES.map((n) => `http://127.0.0.1:${ports[n] + 1000}/metrics`), `${base}/metrics`];
  return { base, procs, nats, metrics };
}

type Watched = { name: string; pid: number; metrics?: string };
type Sample = Memory & { t: number; rss: number };
const NATS_NAME = 'nats-server (not ours; shown only)';

type Stats = { cells: Map<string, Cell[]>; errorSamples: string[]; total: number };

/** One request, timed until its body is read; any network error, timeout or non-2xx is an error. */
async function send(base: string, route: Route, req: Request, t0: number, stats: Stats): Promise<void> {
  const started = performance.now();
  const window = Math.min(WINDOWS - 1, Math.floor((started - t0) / 1000 / WINDOW_S));
  const cell = stats.cells.get(route.label)![window]!;
  let failure: string | undefined;
  try {
    const res = await fetch(`${base}${req.path}`, {
      method: req.method,
      headers: { 'x-api-key': req.account.key, ...(req.body ? { 'content-type': 'application/json' } : {}), ...req.headers },
      body: req.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    if (res.status < 200 || res.status > 299) failure = `${res.status} ${text.slice(0, 300)}`;
    else if (route.onOk) route.onOk(JSON.parse(text) as Json, req);
  } catch (err) {
    failure = `network: ${(err as Error).message}`;
  }
  cell.ms.push(performance.now() - started);
  cell.count++;
  stats.total++;
  if (failure) {
    cell.errors++;
    if (stats.errorSamples.length < 10) stats.errorSamples.push(`${route.label} ${req.method} ${req.path.slice(0, 120)} (${req.account.name}) at ${((started - t0) / 1000).toFixed(1)} s: ${failure}`);
  }
}

/** The mixed load: CLIENTS clients, each paced at RPS / CLIENTS requests per second (never bursting to catch up). */
async function load(base: string, ctx: Ctx, table: Route[], t0: number, stats: Stats): Promise<void> {
  const totalWeight = table.reduce((s, r) => s + r.weight, 0);
  const end = t0 + SECONDS * 1000;
  const interval = RPS > 0 ? (CLIENTS * 1000) / RPS : 0;
  const client = async (c: number) => {
    const rnd = mulberry32(1 + c);
    let next = t0 + (interval * c) / CLIENTS;
    await sleep(Math.max(0, next - performance.now()));
    while (performance.now() < end) {
      let pick = rnd() * totalWeight;
      const route = table.find((r) => (pick -= r.weight) < 0) ?? table.at(-1)!;
      await send(base, route, route.build(ctx, rnd), t0, stats);
      if (!interval) continue;
      next += interval;
      const wait = Math.min(next, end) - performance.now();
      if (wait > 0) await sleep(wait);
      else next = performance.now();
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
}

const PROBES = 15;
type Probe = { events: number; ms: Map<string, number[]> };

/**
 * Each route but the supply batch, PROBES times in turn with nothing else running: what a request costs at the
 * data's size of the moment, without the load's queueing. Before and after the load, it tells a route that gets
 * slower as the data grows from one slowed by the machine.
 */
async function probe(base: string, ctx: Ctx, table: Route[]): Promise<Probe> {
  const rnd = mulberry32(99);
  const ms = new Map<string, number[]>();
  for (const route of table.filter((t) => t.label !== 'supply batch')) {
    const stats: Stats = { cells: new Map([[route.label, Array.from({ length: WINDOWS }, () => ({ count: 0, errors: 0, ms: [] }))]]), errorSamples: [], total: 0 };
    for (let i = 0; i < PROBES; i++) await send(base, route, route.build(ctx, rnd), performance.now(), stats);
    if (stats.errorSamples.length) throw new Error(`probe: ${stats.errorSamples[0]}`);
    ms.set(route.label, stats.cells.get(route.label)![0]!.ms);
  }
  return { events: ctx.accounts.reduce((sum, a) => sum + a.acked, 0), ms };
}

type Catchup = { ok: boolean; seconds: number; rows: string[] };

/**
 * After the load: every account's acknowledged events are in the ledger, and the Union OSS summary of the
 * quarter (all events are in it), the IOSS months and the threshold status count them all (bounded wait).
 */
async function projectionsCaughtUp(base: string, sql: pg.Client, ctx: Ctx): Promise<Catchup> {
  const t0 = performance.now();
  const deadline = Date.now() + CATCH_UP_MS;
  for (;;) {
    const rows: string[] = [];
    let ok = true;
    for (const a of ctx.accounts) {
      const headers = { 'x-api-key': a.key };
      const ledger = (await sql.query<{ n: string; head: string }>(
        'select (select count(*) from ledger.supply_event where account_id = $1)::text as n, coalesce((select sequence from ledger.ledger_head where account_id = $1), 0)::text as head',
        [a.id],
      )).rows[0]!;
      const summary = await http('GET', `${base}/v1/reports/oss-quarterly-summary?period=${ctx.quarter}`, { headers, timeoutMs: 30_000 });
      const thresholds = await http('GET', `${base}/v1/compliance/threshold-status`, { headers, timeoutMs: 30_000 });
      let ioss = 0;
      for (const month of ctx.months) {
        for (let cursor: string | undefined, first = true; first || cursor; first = false) {
          const page = await http('GET', `${base}/v1/reports/ioss-monthly/events?month=${month}&limit=500${cursor ? `&cursor=${cursor}` : ''}`, { headers, timeoutMs: 30_000 });
          ioss += page.json?.items?.length ?? 0;
          cursor = page.json?.next_cursor ?? undefined;
        }
      }
      const reported = String(summary.json?.total_source_event_count);
      const good =
        ledger.n === String(a.acked) && reported === ledger.n && String(summary.json?.ledger_position) === ledger.head &&
        String(thresholds.json?.ledger_position) === ledger.head && ioss === a.imported;
      ok &&= good;
      rows.push(
        `| ${a.name} | ${a.acked} | ${ledger.n} (head ${ledger.head}) | ${reported} (position ${summary.json?.ledger_position}) | ${ioss} of ${a.imported} | ${thresholds.json?.ledger_position} | ${good ? 'pass' : 'FAIL'} |`,
      );
    }
    const seconds = (performance.now() - t0) / 1000;
    if (ok || Date.now() > deadline) return { ok, seconds, rows };
    await sleep(1000);
  }
}

/** Runs the section, prints its tables; true when every criterion passed. */
export async function soakBench(): Promise<boolean> {
  const runId = `soak${Date.now().toString(36)}`;
  const db = await freshDatabase({ prefix: 'vat_bench_soak' });
  let stack: Awaited<ReturnType<typeof startDistributed>> | undefined;
  const sql = new pg.Client({ connectionString: db.url });
  try {
    stack = await startDistributed(db.url, runId);
    const { base, procs } = stack;
    await sql.connect();
    const { quarter, months, days } = currentQuarter();
    const ctx: Ctx = { accounts: [], quarter, months, days, runId, seq: 0 };
    for (let i = 0; i < ACCOUNTS; i++) {
      const name = `${runId}-${i}`;
      const key = (await runAdmin<{ key: string; account_id: string }>(['keys', 'create', '--account', name, '--scope', 'full'], { DATABASE_URL: db.url })).json;
      const account: Account = { name, id: key.account_id, key: key.key, sent: 0, acked: 0, imported: 0 };
      ctx.accounts.push(account);
      for (const body of [
        { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: `DE1234567${i}${i}`, effective_from: '2026-01-01', status: 'active' },
        { scheme_type: 'ioss', member_state_identification: 'DE', vat_registration_number: `IM27600000${i}${i}`, ioss_intermediary_name: 'Agent', ioss_intermediary_number: `IN27600000${i}${i}`, effective_from: '2026-01-01', status: 'active' },
      ]) {
        const r = await http('POST', `${base}/v1/tax-registrations`, { headers: { 'x-api-key': account.key }, body });
        if (r.status !== 201) throw new Error(`registration for ${name}: ${r.status} ${r.text}`);
      }
      for (let b = 0; b < SEED_BATCHES; b++) {
        const r = await http('POST', `${base}/v1/supply-events`, { headers: { 'x-api-key': account.key }, body: { events: batchEvents(account, account.sent++, ctx) }, timeoutMs: 60_000 });
        if (r.status !== 201) throw new Error(`seed batch for ${name}: ${r.status} ${r.text.slice(0, 500)}`);
        account.acked += r.json.committed;
        account.imported += (r.json.items as Json[]).filter((e) => e.supply_kind === 'imported_goods').length;
      }
    }
    const table = routes(ctx);
    const before = await probe(base, ctx, table);
    const stats: Stats = { cells: new Map(table.map((r) => [r.label, Array.from({ length: WINDOWS }, () => ({ count: 0, errors: 0, ms: [] }))])), errorSamples: [], total: 0 };
    const watched: Watched[] = [...procs.map((p, i) => ({ name: p.name.replace(/^main /, ''), pid: p.pid, metrics: stack!.metrics[i] })), { name: NATS_NAME, pid: stack.nats.proc.pid }];
    const samples = new Map<string, Sample[]>(watched.map((w) => [w.name, []]));
    /** smaps of every process at the end of the warm-up and after the load. */
    const maps = new Map<string, { warm?: Mapping[]; end?: Mapping[] }>(watched.map((w) => [w.name, {}]));
    const loads: number[][] = Array.from({ length: WINDOWS }, () => []);
    console.log(
      `\nsoak: ${SECONDS} s of mixed load against the distributed mode (${procs.map((p) => `${p.name.replace(/^main /, '')}=${p.pid}`).join(' ')}), ` +
        `${CLIENTS} clients at ${RPS > 0 ? `${RPS} req/s together` : 'full speed (closed loop)'}, ${ACCOUNTS} accounts, quarter ${quarter}, ` +
        `windows of ${WINDOW_S} s, warm-up ${WARMUP_S} s; ${SEED_BATCHES * BATCH * ACCOUNTS} events seeded`,
    );
    const t0 = performance.now();
    const sample = async () => {
      const t = (performance.now() - t0) / 1000;
      await Promise.all(watched.map(async (w) => {
        const rss = rssKb(w.pid);
        const memory = w.metrics ? await memoryKb(w.metrics) : {};
        if (rss !== undefined) samples.get(w.name)!.push({ t, rss, ...memory });
        const m = maps.get(w.name)!;
        if (t >= WARMUP_S && !m.warm) m.warm = smaps(w.pid);
      }));
      loads[Math.min(WINDOWS - 1, Math.floor(t / WINDOW_S))]!.push(loadavg()[0]!);
    };
    let loading = true;
    const sampler = (async () => {
      while (loading) {
        const next = performance.now() + SAMPLE_MS;
        await sample();
        await sleep(Math.max(0, next - performance.now()));
      }
    })();
    const progress = setInterval(() => console.log(`soak: ${((performance.now() - t0) / 1000).toFixed(0)} s, ${stats.total} requests, ${stats.errorSamples.length ? `errors (first: ${stats.errorSamples[0]})` : 'no errors'}`), 60_000);
    try {
      await load(base, ctx, table, t0, stats);
    } finally {
      loading = false;
      clearInterval(progress);
      await sampler;
    }
    await sample();
    for (const w of watched) maps.get(w.name)!.end = smaps(w.pid);
    const elapsed = (performance.now() - t0) / 1000;
    for (const p of procs) if (p.exited()) stats.errorSamples.push(`${p.name} exited during the run:\n${p.output()}`);
    const catchup = await projectionsCaughtUp(base, sql, ctx);
    const after = await probe(base, ctx, table);
    return report({ table, stats, samples, maps, loads, catchup, elapsed, ctx, procsAlive: procs.every((p) => !p.exited()), probes: [before, after] });
  } finally {
    await sql.end().catch(() => undefined);
    if (stack) {
      for (const p of stack.procs) await stopProcess(p).catch(() => undefined);
      await stack.nats.stop().catch(() => undefined);
    }
    await db.drop().catch(() => undefined);
  }
}

/** Prints the per-window, per-route, RSS and criteria tables; true when every criterion passed. */
function report(r: { table: Route[]; stats: Stats; samples: Map<string, Sample[]>; maps: Map<string, { warm?: Mapping[]; end?: Mapping[] }>; loads: number[][]; catchup: Catchup; elapsed: number; ctx: Ctx; procsAlive: boolean; probes: [Probe, Probe] }): boolean {
  const { table, stats } = r;
  const firstPost = WARMUP_S / WINDOW_S;
  const out: string[] = [];
  const windowName = (w: number) => `${(w * WINDOW_S).toFixed(0)}–${Math.min(SECONDS, (w + 1) * WINDOW_S).toFixed(0)} s${w < firstPost ? ' (warm-up)' : ''}`;
  const merged = (cells: Cell[]) => ({ count: cells.reduce((s, c) => s + c.count, 0), errors: cells.reduce((s, c) => s + c.errors, 0), ms: cells.flatMap((c) => c.ms) });

  out.push(`\n## Sustained load (issue 23 point 5): ${SECONDS} s, distributed mode, ${CLIENTS} clients${RPS > 0 ? ` at ${RPS} req/s` : ', closed loop'}\n`);
  out.push(`${stats.total} requests in ${r.elapsed.toFixed(0)} s = ${(stats.total / r.elapsed).toFixed(1)} req/s; ${r.ctx.accounts.reduce((s, a) => s + a.acked, 0)} supply events committed (seed included).\n`);
  out.push('### Per window and route: requests, errors, p50 / p99 ms\n');
  out.push(`| window | load avg | ${table.map((t) => t.label).join(' | ')} |`);
  out.push(`|---|---:|${table.map(() => '---:').join('|')}|`);
  for (let w = 0; w < WINDOWS; w++) {
    const cells = table.map((t) => {
      const c = stats.cells.get(t.label)![w]!;
      return `${c.count}${c.errors ? ` (**${c.errors} err**)` : ''} · ${fmtMs(percentile(c.ms, 0.5))} / ${fmtMs(percentile(c.ms, 0.99))}`;
    });
    out.push(`| ${windowName(w)} | ${median(r.loads[w]!).toFixed(1)} | ${cells.join(' | ')} |`);
  }

  out.push('\n### Per route after the warm-up\n');
  out.push(`| route | requests | errors | p50 ms | p99 ms | p99 first / last window | max window p99 | p99 first half | p99 second half | stable (second ≤ ${P99_FACTOR} × first + ${P99_SLACK_MS} ms) |`);
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  let stable = true;
  let errors = 0;
  const unstable: string[] = [];
  for (const t of table) {
    const cells = r.stats.cells.get(t.label)!;
    const post = merged(cells.slice(firstPost));
    errors += merged(cells).errors;
    const middle = firstPost + Math.floor((WINDOWS - firstPost) / 2);
    const first = percentile(merged(cells.slice(firstPost, middle)).ms, 0.99);
    const last = percentile(merged(cells.slice(middle)).ms, 0.99);
    const windowP99 = cells.slice(firstPost).map((c) => percentile(c.ms, 0.99));
    const ok = last <= P99_FACTOR * first + P99_SLACK_MS;
    if (!ok) unstable.push(`${t.label} ${fmtMs(first)} → ${fmtMs(last)} ms`);
    stable &&= ok;
    out.push(`| ${t.path} | ${post.count} | ${post.errors} | ${fmtMs(percentile(post.ms, 0.5))} | ${fmtMs(percentile(post.ms, 0.99))} | ${fmtMs(windowP99[0]!)} / ${fmtMs(windowP99.at(-1)!)} | ${fmtMs(Math.max(...windowP99))} | ${fmtMs(first)} | ${fmtMs(last)} | ${ok ? 'pass' : 'FAIL'} |`);
  }

  // A sample at t belongs to window floor(t / WINDOW_S); the last sample (after the load) to the last window.
  const inWindows = (samples: Sample[], from: number, to: number) => samples.filter((x) => Math.min(WINDOWS - 1, Math.floor(x.t / WINDOW_S)) >= from && Math.min(WINDOWS - 1, Math.floor(x.t / WINDOW_S)) < to);
  const mb = (xs: Sample[], k: keyof Sample) => {
    const h = xs.map((x) => x[k]).filter((v): v is number => v !== undefined);
    return h.length ? fmtMb(median(h)) : '–';
  };
  const lowest = (xs: Sample[]) => {
    const h = xs.map((x) => x.heapUsed).filter((v): v is number => v !== undefined);
    return h.length ? fmtMb(Math.min(...h)) : '–';
  };
  out.push(`\n### Memory per window, MB: RSS / V8 heap committed (medians of the samples taken every ${SAMPLE_MS / 1000} s) / V8 heap used (the window's lowest sample ≈ the live heap after a GC)\n`);
  out.push(`| window | ${[...r.samples.keys()].map((n) => (n === NATS_NAME ? 'nats-server' : n)).join(' | ')} |`);
  out.push(`|---|${[...r.samples.keys()].map(() => '---:').join('|')}|`);
  for (let w = 0; w < WINDOWS; w++) {
    out.push(`| ${windowName(w)} | ${[...r.samples.values()].map((xs) => {
      const inW = inWindows(xs, w, w + 1);
      return inW.length ? `${mb(inW, 'rss')} / ${mb(inW, 'heapTotal')} / ${lowest(inW)}` : '–';
    }).join(' | ')} |`);
  }
  out.push('\n(nats-server has no heap figures)\n');
  out.push('| process | RSS at end of warm-up (last warm-up window) MB | RSS at end (last window) MB | RSS min / max after warm-up MB | RSS growth | < 10 % | heap committed / lowest used / external: end of warm-up → end MB |');
  out.push('|---|---:|---:|---:|---:|---|---|');
  let rssOk = true;
  const grown: string[] = [];
  for (const [name, xs] of r.samples) {
    const warmXs = inWindows(xs, firstPost - 1, firstPost);
    const endXs = inWindows(xs, WINDOWS - 1, WINDOWS);
    const after = inWindows(xs, firstPost, WINDOWS).map((x) => x.rss);
    const warm = median(warmXs.map((x) => x.rss));
    const end = median(endXs.map((x) => x.rss));
    const growth = warm ? end / warm - 1 : NaN;
    const counted = name !== NATS_NAME;
    const ok = Number.isFinite(growth) && growth < RSS_GROWTH_LIMIT;
    if (counted && !ok) {
      rssOk = false;
      grown.push(`${name} ${(growth * 100).toFixed(1)} %`);
    }
    out.push(`| ${name} | ${fmtMb(warm)} | ${fmtMb(end)} | ${fmtMb(Math.min(...after))} / ${fmtMb(Math.max(...after))} | ${(growth * 100).toFixed(1)} % | ${counted ? (ok ? 'pass' : 'FAIL') : '—'} | ${mb(warmXs, 'heapTotal')} → ${mb(endXs, 'heapTotal')} / ${lowest(warmXs)} → ${lowest(endXs)} / ${mb(warmXs, 'external')} → ${mb(endXs, 'external')} |`);
  }

  out.push('\n### Resident memory by mapping (`/proc/<pid>/smaps`), end of warm-up → end, MB\n');
  for (const [name, m] of r.maps) if (m.warm && m.end) out.push(`- ${name === NATS_NAME ? 'nats-server' : name}: ${smapsGrowth(m.warm, m.end)}`);

  const [before, after] = r.probes;
  out.push(`\n### Each route alone (${PROBES} requests in turn, nothing else running; not a criterion): before the load (${before.events} events) and after it (${after.events} events)\n`);
  out.push('| route | before: p50 / max ms | after: p50 / max ms | p50 after ÷ before |');
  out.push('|---|---:|---:|---:|');
  for (const [label, ms] of before.ms) {
    const a = after.ms.get(label)!;
    out.push(`| ${label} | ${fmtMs(median(ms))} / ${fmtMs(Math.max(...ms))} | ${fmtMs(median(a))} / ${fmtMs(Math.max(...a))} | ${(median(a) / median(ms)).toFixed(2)} |`);
  }

  out.push(`\n### Projections after the load (caught up ${r.catchup.seconds.toFixed(1)} s after the last response, bounded by ${CATCH_UP_MS / 1000} s)\n`);
  out.push('| account | acknowledged by the API | ledger events | Union OSS summary total_source_event_count | IOSS months (imported goods) | threshold-status ledger_position | result |');
  out.push('|---|---:|---:|---:|---:|---:|---|');
  out.push(...r.catchup.rows);

  if (stats.errorSamples.length) out.push(`\nFirst errors:\n${stats.errorSamples.map((e) => `- ${e}`).join('\n')}`);

  const criteria: [string, string, string, boolean][] = [
    ['errors (non-2xx, network, timeouts; every process alive)', `${errors} of ${stats.total}${r.procsAlive ? '' : '; a process exited'}`, '0', errors === 0 && r.procsAlive],
    ['p99 per route stable after the warm-up', stable ? `all ${table.length} routes` : unstable.join('; '), `second half ≤ ${P99_FACTOR} × first half + ${P99_SLACK_MS} ms`, stable],
    ['RSS growth from the end of the warm-up to the end, per process', rssOk ? 'every process' : grown.join('; '), '< 10 %', rssOk],
    ['every committed event counted (ledger = acknowledged = Union OSS total; IOSS; thresholds at the head)', r.catchup.ok ? `after ${r.catchup.seconds.toFixed(1)} s` : 'not caught up', `within ${CATCH_UP_MS / 1000} s`, r.catchup.ok],
  ];
  out.push('\n### Criteria\n');
  out.push('| criterion | measured | target | result |');
  out.push('|---|---|---|---|');
  for (const [what, measured, target, ok] of criteria) out.push(`| ${what} | ${measured} | ${target} | ${ok ? 'pass' : '**FAIL**'} |`);
  const pass = criteria.every(([, , , ok]) => ok);
  out.push(`\nsoak: ${pass ? 'PASS' : 'FAIL'}`);
  console.log(out.join('\n'));
  return pass;
}
