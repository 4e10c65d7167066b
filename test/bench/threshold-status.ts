import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import autocannon from 'autocannon';
import pg from 'pg';
import pino from 'pino';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { BusMessage } from '@vat/platform/bus';
import type { ThresholdsDeps } from '../../services/thresholds/src/context';
import { thresholdsProjectionConsumer } from '../../services/thresholds/src/projection';
import { Article59cRepository } from '../../services/thresholds/src/repositories/article59c';
import { Article59cStatusRepository } from '../../services/thresholds/src/repositories/article59c-status';
import { ReleaseStore } from '../../services/thresholds/src/repositories/releases';
import { loadConfig } from '@vat/platform/config';
import { freshDatabase } from '../support/env';
import { freePort, runAdmin, spawnMain, stopProcess, waitReady } from '../support/processes';
import { supplyEvent } from '../support/supply-files';

/**
 * Issue 10: `GET /v1/compliance/threshold-status` with BENCH_THRESHOLD_EVENTS (1,000,000) committed events in
 * the year, p99 under BENCH_THRESHOLD_CONNECTIONS (16) concurrent callers (target ≤ 50 ms). One process
 * (`all`) on PostgreSQL.
 *
 * The events (test/support/supply-files.ts `supplyEvent`: B2C goods dispatched from FR to ten States,
 * January–September 2026, every tenth a refund) are not sent through REST and the bus (the ingestion is
 * test/bench/ingest.ts's): the bench hands them, as the `SupplyCommitted` messages the ledger publishes,
 * straight to the thresholds projection's own consumer (`thresholdsProjectionConsumer(...).handler`) in
 * batches of BENCH_THRESHOLD_BATCH (2,000), on its own pool to the server's database. So the inbox, the
 * facts, the position, the running totals, the crossing and the notifications are exactly what the
 * projection writes. Then it sets the ledger head (as the OSS bench does) and measures.
 */

const EVENTS = Number(process.env.BENCH_THRESHOLD_EVENTS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_THRESHOLD_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const BATCH = Number(process.env.BENCH_THRESHOLD_BATCH ?? 2000);
const P99_TARGET_MS = 50;

/** Event n of the account as the ledger would publish it (sequence n). */
function committed(n: number, accountId: bigint, recordedAt: string): BusMessage {
  const e = supplyEvent(n, 'thr');
  const str = (k: string) => (e[k] === null || e[k] === undefined ? undefined : String(e[k]));
  const id = randomUUID();
  const event = create(SupplyEventSchema, {
    id,
    sequence: BigInt(n),
    recordedAt,
    accountId,
    eventId: String(e.event_id),
    eventType: String(e.event_type),
    originalEventId: str('original_event_id'),
    occurredAt: `${e.occurred_at}T00:00:00Z`,
    supplyKind: String(e.supply_kind),
    customerType: String(e.customer_type),
    countryOfConsumption: String(e.country_of_consumption),
    dispatchCountry: str('dispatch_country'),
    supplierEstablishmentCountry: str('supplier_establishment_country'),
    currency: String(e.currency),
    netAmountMinor: BigInt(e.net_amount_minor!),
    vatAmountMinor: BigInt(e.vat_amount_minor!),
    vatRateBps: Number(e.vat_rate_bps),
    rateCategory: String(e.rate_category),
    classificationStatus: String(e.classification_status),
    productReference: str('product_reference'),
    orderReference: str('order_reference'),
    sourceId: str('source_id'),
  });
  return { id, subject: 'bench', data: toBinary(SupplyCommittedSchema, create(SupplyCommittedSchema, { eventId: id, supplyEvent: event })) };
}

async function seed(databaseUrl: string, accountId: bigint): Promise<number> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const log = pino({ level: 'warn' });
    // Only what the projection uses: every generated event has its dispatch and establishment, so the
    // source-profile defaults are never read.
    const deps = {
      pool,
      log,
      now: () => new Date(),
      releases: new ReleaseStore(pool),
      article59c: new Article59cRepository(pool, loadConfig({}).vies.reuseDays),
      profileDefaults: { of: async () => { throw new Error('no profile lookup in the bench'); } },
      article59cStatus: new Article59cStatusRepository(pool),
    } as unknown as ThresholdsDeps;
    const { handler } = thresholdsProjectionConsumer(deps);
    const t0 = performance.now();
    for (let lo = 1; lo <= EVENTS; lo += BATCH) {
      const recordedAt = new Date().toISOString();
      const batch: BusMessage[] = [];
      for (let n = lo; n < Math.min(EVENTS + 1, lo + BATCH); n++) batch.push(committed(n, accountId, recordedAt));
      await handler(batch);
      if ((lo - 1) % (BATCH * 50) === 0 && lo > 1) console.log(`  … ${(lo - 1).toLocaleString('en-US')} events applied`);
    }
    await pool.query('insert into ledger.ledger_head (account_id, sequence) values ($1, $2) on conflict (account_id) do update set sequence = excluded.sequence', [accountId.toString(), EVENTS]);
    await pool.query('analyze thresholds.supply_fact');
    await pool.query('analyze thresholds.article59c_bucket');
    const buckets = await pool.query<{ n: string }>('select count(*)::text as n from thresholds.article59c_bucket where account_id = $1', [accountId.toString()]);
    // The one statement the status reads (position, running totals summed over days, crossings), alone.
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await deps.article59cStatus.snapshot(accountId, [2026, 2025], new Date().toISOString().slice(0, 10));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${buckets.rows[0]!.n} running-total rows (per day and fact combination); the status snapshot statement alone: p50 ${times[25]!.toFixed(1)} ms, max ${times[49]!.toFixed(1)} ms`);
    return (performance.now() - t0) / 1000;
  } finally {
    await pool.end();
  }
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
    const created = await runAdmin<{ key: string; account_id: string }>(['keys', 'create', '--account', 'bench-thresholds', '--scope', 'read-only'], { DATABASE_URL: db.url });
    if (created.code !== 0) throw new Error(`admin keys create failed: ${created.stderr}`);
    const key = created.json.key;
    console.log(`applying ${EVENTS.toLocaleString('en-US')} events to the thresholds projection …`);
    const seconds = await seed(db.url, BigInt(created.json.account_id));
    console.log(`applied in ${seconds.toFixed(1)} s (${Math.round(EVENTS / seconds).toLocaleString('en-US')} events/s)`);
    const s = await status(base, key);
    if (!(s.ledger_head === EVENTS && s.ledger_position === EVENTS)) throw new Error(`status reports ${s.ledger_position} of ${s.ledger_head}`);
    console.log(`status: evidence ${s.evidence_status}, current_minor ${s.checks[0]?.current_minor}, crossing ${s.checks[0]?.current_year_crossing?.event_id ?? '-'}, position ${s.ledger_position}`);
    const r = await autocannon({ url: `${base}/v1/compliance/threshold-status`, headers: { 'x-api-key': key }, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
    const ok = r.latency.p99 <= P99_TARGET_MS && r.non2xx === 0 && r.errors === 0;
    console.log(
      `GET /v1/compliance/threshold-status, ${CONNECTIONS} callers, ${SECONDS} s: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms, non-2xx ${r.non2xx}, errors ${r.errors} → ${ok ? 'PASS' : 'FAIL'} (target p99 ≤ ${P99_TARGET_MS} ms)`,
    );
    // For comparison: an authenticated route of the same service that reads one indexed row.
    const base2 = await autocannon({ url: `${base}/v1/compliance/notifications?limit=1`, headers: { 'x-api-key': key }, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
    console.log(`baseline GET /v1/compliance/notifications?limit=1, same callers: ${Math.round(base2.requests.average)} req/s, p50 ${base2.latency.p50} ms, p99 ${base2.latency.p99} ms`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stopProcess(proc);
    await db.drop();
  }
}

await main();
