import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freshDatabase } from '../support/env';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { ratesInForceOver } from './real-rates';
import { freePort, http, runAdmin, spawnMain, startPrivateNats, stopProcess, waitFor, type Proc, serviceUrlEnv } from '../support/processes';
import { statusMb } from './process-cpu';

/**
 * Issue 9: the Union OSS quarterly summary over BENCH_OSS_EVENTS (1,000,000) events of one quarter
 * (27 consumption States × the 1-4 rates in force in each × 4 sections, 5 % refunds linked to a sale, 5 % in USD/GBP/PLN),
 * then the CSV export and the lock with its artifacts, against the whole service as one process on
 * PostgreSQL; prints times and the server's peak RSS (VmHWM).
 *
 * The events are written straight into the compliance-reports projection (`supply_fact`, its
 * position, and the ledger head so the lock's lag check passes) with one generate_series
 * statement: the ingestion itself is measured by test/bench/ingest.ts.
 *
 * BENCH_OSS_MODE=distributed runs every service and the gateway as separate processes (private NATS)
 * and reports the compliance-reports process's own peak RSS.
 *
 * Run: `npm run bench -- oss` or `npx tsx test/bench/oss-summary.ts` (BENCH_OSS_EVENTS=200000 for a shorter run;
 * BENCH_OSS_LOG_LEVEL=debug prints the server's phase timings of each return).
 */

const EVENTS = Number(process.env.BENCH_OSS_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_OSS_RUNS ?? 3);

const peakRssMb = (pid: number) => statusMb(pid, 'VmHWM');

/**
 * Event i: country i % 27, section (i / 27) % 4, rate (i / 108) cycling over the rates in force in that State
 * all quarter (real ones: `ratesInForceOver`); every 20th in another currency; the next one a refund of the sale 27 before.
 */
const SEED_SQL = `
with c as (select * from jsonb_to_recordset($3::jsonb) as c(ci int, country text, slot int, n int, bps int, type text)),
g as (select i, (i % 27) as ci, ((i / 27) % 4) as section, (i / 108) as ri from generate_series(1, $2::int) as i),
e as (
  select g.i, c.country, g.section, c.bps, c.type,
    case when g.i % 20 = 0 then (array['USD', 'GBP', 'PLN'])[(g.i / 20) % 3 + 1] else 'EUR' end as currency,
    case when g.i % 20 = 1 and g.i > 27 then 'refund' else 'sale' end as event_type,
    (1000 + g.i % 9973)::bigint as net
  from g join c on c.ci = g.ci and c.slot = g.ri % c.n
)
insert into compliance_reports.supply_fact
  (id, account_id, sequence, event_id, recorded_at, event_type, original_event_id, occurred_at, supply_kind, customer_type, country_of_consumption,
   dispatch_country, supplier_establishment_country, currency, net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status)
select gen_random_uuid(), $1::bigint, e.i, 'e' || e.i, now(), e.event_type, case when e.event_type = 'refund' then 'e' || (e.i - 27) end,
  timestamptz '2026-01-01 12:00:00+00' + ((e.i % 90) || ' days')::interval,
  case when e.section in (0, 2) then 'services' else 'goods' end, 'b2c', e.country,
  case e.section when 1 then 'DE' when 3 then 'PL' end, case e.section when 0 then 'DE' when 2 then 'FR' end,
  e.currency,
  case when e.event_type = 'refund' then -e.net else e.net end,
  (case when e.event_type = 'refund' then -1 else 1 end) * ((e.net * e.bps + 5000) / 10000),
  e.bps, e.type, 'classified'
from e`;

const DISTRIBUTED = process.env.BENCH_OSS_MODE === 'distributed';

export type OssFigures = { events: number; summaryMs: number; exportMs: number; lockMs: number; peakRssMb: number };

/** The section's run; prints as it goes and answers the best summary time, the export, the lock and the server's peak RSS. */
export async function ossSummaryBench(): Promise<OssFigures> {
  let figures: OssFigures | undefined;
  const db = await freshDatabase({ prefix: 'vat_bench_oss' });
  const port = await freePort();
  const env: Record<string, string> = { LOG_LEVEL: process.env.BENCH_OSS_LOG_LEVEL ?? 'warn', DATABASE_URL: db.url, PORT: String(port), RATE_LIMIT_PER_MINUTE: '100000000', DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  const procs: Proc[] = [];
  const nats = DISTRIBUTED ? await startPrivateNats() : undefined;
  if (nats) {
    const ports = {} as Record<ServiceName, number>;
    for (const n of SERVICE_NAMES) ports[n] = await freePort([1000]);
    Object.assign(env, { NATS_URL: nats.url, INTERNAL_TOKEN: `bench-oss-${Date.now().toString(36)}-internal`, ...serviceUrlEnv(ports) });
    // Each process with its deployed NODE_OPTIONS (spawnMain); BENCH_OSS_NODE_OPTIONS: other Node options for the compliance-reports process (e.g. --max-old-space-size=128).
    const own = process.env.BENCH_OSS_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_OSS_NODE_OPTIONS } : {};
    for (const n of SERVICE_NAMES) procs.push(spawnMain(n, { ...env, SERVICE_PORT: String(ports[n]), ...(n === 'compliance-reports' ? own : {}) }));
    procs.push(spawnMain('gateway', env));
  } else procs.push(spawnMain('all', env));
  /** The process whose memory the target is about: compliance-reports (distributed) or the one process. */
  const server = DISTRIBUTED ? procs[SERVICE_NAMES.indexOf('compliance-reports')]! : procs[0]!;
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/ready`, async () => {
      for (const p of procs) if (p.exited()) throw new Error(`${p.name} exited:\n${p.output()}`);
      return (await fetch(`${base}/ready`).catch(() => undefined))?.ok;
    }, { timeoutMs: 180_000, intervalMs: 100 });
    const idleRss = peakRssMb(server.pid);
    const key = (await runAdmin<{ key: string; account_id: string }>(['keys', 'create', '--account', 'bench-oss', '--scope', 'full'], env)).json;
    const headers = { 'x-api-key': key.key };
    const reg = await http('POST', `${base}/v1/tax-registrations`, { headers, body: { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' } });
    if (reg.status !== 201) throw new Error(`registration: ${reg.status} ${reg.text}`);

    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    const rates = await ratesInForceOver(pool, '2026-01-01', '2026-03-31');
    let t = Date.now();
    await pool.query(SEED_SQL, [key.account_id, EVENTS, JSON.stringify(rates)]);
    await pool.query('insert into compliance_reports.supply_projection_position (account_id, applied) values ($1, $2)', [key.account_id, EVENTS]);
    await pool.query('insert into ledger.ledger_head (account_id, sequence) values ($1, $2)', [key.account_id, EVENTS]);
    await pool.query('analyze compliance_reports.supply_fact');
    await pool.end();
    console.log(`seeded ${EVENTS.toLocaleString('en')} supply facts in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    const timed = async (what: string, method: 'GET' | 'POST', path: string) => {
      t = Date.now();
      const r = await http(method, `${base}${path}`, { headers, timeoutMs: 600_000 });
      const ms = Date.now() - t;
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 500)}`);
      return { ms, r };
    };
    // Warm-up on an empty quarter: loads what the other services keep in memory (rates, ECB table), so
    // the growth measured after it is the return's own.
    await timed('warm-up', 'GET', '/v1/reports/oss-quarterly-summary?period=2025-Q4');
    const warmRss = peakRssMb(server.pid);
    const summaries: number[] = [];
    let last;
    for (let i = 0; i < RUNS; i++) {
      last = await timed('summary', 'GET', '/v1/reports/oss-quarterly-summary?period=2026-Q1');
      summaries.push(last.ms);
    }
    const s = last!.r.json;
    console.log(`summary 2026-Q1: ${summaries.map((x) => `${x} ms`).join(', ')} (target <= 300 ms at 1,000,000 events); ${s.rows.length} rows, ${s.corrections.length} corrections, ${s.balances.length} balances`);
    console.log(`  events: total ${s.total_source_event_count}, included ${s.included_source_event_count}, excluded ${s.excluded_source_event_count}; warnings ${JSON.stringify(s.warnings)}`);
    console.log(`  payable ${s.totals.payable_vat_minor} cents; rates ${JSON.stringify(s.exchange_rates)}`);
    const csv = await timed('export', 'GET', '/v1/reports/oss-quarterly-summary/export?period=2026-Q1&format=csv');
    console.log(`summary CSV export: ${csv.ms} ms, ${csv.r.text.length} bytes`);
    const lock = await timed('lock', 'POST', '/v1/reports/locked-return-periods/union-oss?period=2026-Q1');
    console.log(`lock with artifacts: ${lock.ms} ms (target <= 1000 ms); ${lock.r.json.exports.map((e: { filename: string; byte_size: number }) => `${e.filename} ${e.byte_size} B`).join(', ')}`);
    const page = await timed('locked drill-down', 'GET', '/v1/reports/oss-quarterly-summary/events?period=2026-Q1&limit=100');
    const page2 = await timed('locked drill-down', 'GET', `/v1/reports/oss-quarterly-summary/events?period=2026-Q1&limit=100&cursor=${page.r.json.next_cursor}`);
    console.log(`locked drill-down (sealed by the lock), first two pages of 100: ${page.ms} ms, ${page2.ms} ms (source ${page.r.json.source})`);
    figures = { events: EVENTS, summaryMs: Math.min(...summaries), exportMs: csv.ms, lockMs: lock.ms, peakRssMb: peakRssMb(server.pid) };
    console.log(`${server.name} peak RSS (VmHWM): ${peakRssMb(server.pid).toFixed(1)} MB (target <= 256 MB per service process, <= 400 MB for npm start); ${idleRss.toFixed(1)} MB when it was first ready, ${warmRss.toFixed(1)} MB after a warm-up on an empty quarter`);
  } finally {
    for (const p of procs) await stopProcess(p);
    await nats?.stop();
    if (process.env.BENCH_OSS_LOG_LEVEL) console.log(server.output().split('\n').filter((l) => l.includes('Union OSS')).join('\n'));
    if (process.env.BENCH_OSS_KEEP_DB === '1') console.log(`kept database ${db.url}`);
    else await db.drop();
  }
  return figures!;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await ossSummaryBench();
  process.exit(0);
}
