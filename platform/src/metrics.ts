import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { CallMetrics } from './call-metrics';
import type pg from 'pg';
import { withDeadline } from './deadline';
import { lastResult, OUTBOX_SCAN_SETTINGS, outboxPendingSql } from './outbox-scan';
import { supplyEventsIn } from './supply-committed';
import { calculationsIn } from './calculation-recorded';

/**
 * The process's Prometheus metrics (prom-client), named by the Prometheus conventions: base units,
 * `_total` counters, no per-account or per-request label. One registry per process, whatever runs
 * in it (`npm start` holds every service; a service process its own); docs/operations.md lists them.
 */
export const registry = new Registry();

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpCalls = new CallMetrics(registry, {
  counter: { name: 'http_server_requests_total', help: 'HTTP requests answered by the gateway, by route template, method and status class.' },
  histogram: { name: 'http_server_request_duration_seconds', help: 'Time from receiving an HTTP request to answering it.' },
  labelNames: ['route', 'method', 'status_class'],
  buckets: DURATION_BUCKETS,
});
export const rpcServerCalls = new CallMetrics(registry, {
  counter: { name: 'rpc_server_calls_total', help: 'Connect RPCs a service answered, by service, method and Connect code.' },
  histogram: { name: 'rpc_server_call_duration_seconds', help: 'Time a service took to answer a Connect RPC.' },
  labelNames: ['service', 'method', 'code'],
  buckets: DURATION_BUCKETS,
});
export const rpcClientCalls = new CallMetrics(registry, {
  counter: { name: 'rpc_client_calls_total', help: 'Connect RPCs this process sent over the network, by service, method and Connect code.' },
  histogram: { name: 'rpc_client_call_duration_seconds', help: 'Time from sending a Connect RPC over the network to its answer.' },
  labelNames: ['service', 'method', 'code'],
  buckets: DURATION_BUCKETS,
});

export const eventsPublished = new Counter({ name: 'vat_events_published_total', help: 'Domain events the outbox relay handed to the bus (accepted), by subject.', labelNames: ['subject'], registers: [registry] });
export const relayErrors = new Counter({ name: 'vat_outbox_relay_errors_total', help: 'Outbox relay passes or publishes that failed (retried later).', labelNames: ['service'], registers: [registry] });
export const eventDeliveries = new Counter({ name: 'vat_event_deliveries_total', help: 'Events handed to a durable consumer (redeliveries included).', labelNames: ['consumer'], registers: [registry] });
export const eventRedeliveries = new Counter({ name: 'vat_event_redeliveries_total', help: 'Events handed to a durable consumer again after a failed or unacknowledged delivery.', labelNames: ['consumer'], registers: [registry] });
export const consumerErrors = new Counter({ name: 'vat_event_consumer_errors_total', help: 'Consumer batches (or single events) whose handler failed and will be redelivered.', labelNames: ['consumer'], registers: [registry] });

export const calculationsStored = new Counter({ name: 'vat_calculations_stored_total', help: 'Calculations stored (counted as their CalculationRecorded event leaves the outbox).', registers: [registry] });
export const supplyEventsCommitted = new Counter({ name: 'vat_supply_events_committed_total', help: 'Supply events committed to the ledger (counted as their SupplyCommitted event leaves the outbox).', registers: [registry] });
export const returnsLocked = new Counter({ name: 'vat_returns_locked_total', help: 'Union OSS return periods locked (counted as their ReturnPeriodLocked event leaves the outbox).', registers: [registry] });
export const returnsFiled = new Counter({ name: 'vat_returns_filed_total', help: 'Successful MarkUnionOssPeriodFiled calls (a repeated call on a filed period counts again).', registers: [registry] });
export const thresholdCrossings = new Counter({ name: 'vat_threshold_crossings_total', help: 'Article 59c threshold crossings recorded (counted as their ThresholdCrossed event leaves the outbox).', registers: [registry] });
export const imports = new Counter({ name: 'vat_imports_total', help: 'Imports: classification catalog editions approved (kind="catalog_edition"); supply-file imports count as committed supply events.', labelNames: ['kind'], registers: [registry] });

/** Domain counters driven by the events leaving an outbox, counted once each is published. */
const DOMAIN_BY_SUBJECT: Record<string, (payload: Uint8Array) => void> = {
  'vat.calculation.v1.calculation_recorded': (payload) => calculationsStored.inc(calculationsIn(payload)),
  'vat.ledger.v1.supply_committed': (payload) => supplyEventsCommitted.inc(supplyEventsIn(payload)),
  'vat.compliance_reports.v1.return_period_locked': () => returnsLocked.inc(),
  'vat.thresholds.v1.threshold_crossed': () => thresholdCrossings.inc(),
  'vat.classification.v1.catalog_edition_approved': () => imports.inc({ kind: 'catalog_edition' }),
};

/** Counts events the bus accepted: published per subject, and the domain counter each stands for. */
export function countPublished(messages: Iterable<{ subject: string; payload: Uint8Array }>): void {
  for (const { subject, payload } of messages) {
    eventsPublished.inc({ subject });
    DOMAIN_BY_SUBJECT[subject]?.(payload);
  }
}

/** Connect's code names in snake case (`invalid_argument`), `ok` for success. */
export function connectCodeLabel(code: number | undefined): string {
  return code === undefined ? 'ok' : (CODE_NAMES[code] ?? 'unknown');
}

const CODE_NAMES: Record<number, string> = {
  1: 'canceled', 2: 'unknown', 3: 'invalid_argument', 4: 'deadline_exceeded', 5: 'not_found', 6: 'already_exists', 7: 'permission_denied', 8: 'resource_exhausted',
  9: 'failed_precondition', 10: 'aborted', 11: 'out_of_range', 12: 'unimplemented', 13: 'internal', 14: 'unavailable', 15: 'data_loss', 16: 'unauthenticated',
};

/** `2xx`, `4xx`, …: HTTP status class, so a label never holds more than five values. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

// ---- gauges read at scrape time -------------------------------------------------------------

/** How long one scrape-time database read may take before its gauge is left out of that scrape. */
const SCRAPE_QUERY_MS = 2000;

type Source = { label: string; pool: pg.Pool; schema: string };
const pools: { label: string; pool: pg.Pool }[] = [];
const outboxes: Source[] = [];
const projections: Source[] = [];
const ledgers: Source[] = [];

async function eachSource(sources: Source[], sql: (schema: string) => string, set: (s: Source, row: Record<string, string | null>) => void): Promise<void> {
  await Promise.all(
    sources.map(async (s) => {
      try {
        const res: pg.QueryResult | pg.QueryResult[] = await withDeadline(s.pool.query(sql(s.schema)), SCRAPE_QUERY_MS, `${s.label} metrics`);
        set(s, lastResult(res).rows[0] ?? {});
      } catch {
        // A database that does not answer: the gauge keeps no value for this source in this scrape.
      }
    }),
  );
}

const dbPoolConnections = new Gauge({
  name: 'vat_db_pool_connections',
  help: 'PostgreSQL connections of each pool, by state (in_use, idle).',
  labelNames: ['pool', 'state'],
  registers: [registry],
  collect() {
    this.reset();
    for (const p of pools) {
      this.set({ pool: p.label, state: 'in_use' }, p.pool.totalCount - p.pool.idleCount);
      this.set({ pool: p.label, state: 'idle' }, p.pool.idleCount);
    }
  },
});
void dbPoolConnections;

new Gauge({
  name: 'vat_db_pool_waiting_requests',
  help: 'Callers waiting for a PostgreSQL connection from each pool.',
  labelNames: ['pool'],
  registers: [registry],
  collect() {
    this.reset();
    for (const p of pools) this.set({ pool: p.label }, p.pool.waitingCount);
  },
});

type OutboxState = Map<string, { pending: number; oldest: number }>;
let outboxRead: Promise<OutboxState> | undefined;

/** One read of every outbox per scrape, shared by its two gauges (the registry collects them side by side). */
function readOutboxes(): Promise<OutboxState> {
  outboxRead ??= (async () => {
    const state: OutboxState = new Map();
    await eachSource(
      outboxes,
      // Walking the index of unpublished rows, as the relay's claim does (OUTBOX_SCAN_SETTINGS): a bitmap scan would
      // read every row published since the last vacuum (40 ms after 15 s of calculations; docs/architecture.md).
      (schema) => `${OUTBOX_SCAN_SETTINGS} ${outboxPendingSql(schema)}`,
      (s, row) => state.set(s.label, { pending: Number(row.pending ?? 0), oldest: Math.max(0, Number(row.oldest ?? 0)) }),
    );
    return state;
  })().finally(() => {
    outboxRead = undefined;
  });
  return outboxRead;
}

new Gauge({
  name: 'vat_outbox_pending_messages',
  help: 'Unpublished outbox rows of each service.',
  labelNames: ['service'],
  registers: [registry],
  async collect() {
    this.reset();
    for (const [service, o] of await readOutboxes()) this.set({ service }, o.pending);
  },
});

new Gauge({
  name: 'vat_outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest unpublished outbox row of each service (0 when none).',
  labelNames: ['service'],
  registers: [registry],
  async collect() {
    this.reset();
    for (const [service, o] of await readOutboxes()) this.set({ service }, o.oldest);
  },
});

new Gauge({
  name: 'vat_projection_applied_supply_events',
  help: 'Ledger supply events a projection has applied, summed over accounts (vat_ledger_committed_supply_events minus this is its lag).',
  labelNames: ['projection'],
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource(projections, (schema) => `select coalesce(sum(applied), 0)::text as applied from "${schema}".supply_projection_position`, (s, row) => this.set({ projection: s.label }, Number(row.applied ?? 0)));
  },
});

new Gauge({
  name: 'vat_ledger_committed_supply_events',
  help: 'Supply events committed to the ledger, summed over accounts (the ledger heads every projection catches up with).',
  registers: [registry],
  async collect() {
    this.reset();
    await eachSource(ledgers, (schema) => `select coalesce(sum(sequence), 0)::text as head from "${schema}".ledger_head`, (_s, row) => this.set(Number(row.head ?? 0)));
  },
});

/** Reports a connection pool's in-use, idle and waiting counts under `label`. */
export function observePool(label: string, pool: pg.Pool): void {
  if (!pools.some((p) => p.pool === pool)) pools.push({ label, pool });
}

/**
 * Reports what a service's schema holds that operators watch: its outbox backlog, and, by the
 * tables its entities declare, a projection's applied position or the ledger's heads.
 */
export function observeSchema(label: string, pool: pg.Pool, schema: string, entityNames: readonly string[]): void {
  const s = { label, pool, schema };
  if (entityNames.includes('OutboxMessage')) outboxes.push(s);
  if (entityNames.includes('SupplyProjectionPosition')) projections.push(s);
  if (entityNames.includes('LedgerHead')) ledgers.push(s);
}

/** Forgets the pools and schemas of a process part that stopped (tests build and stop several). */
export function unobservePool(pool: pg.Pool): void {
  for (const list of [pools, outboxes, projections, ledgers] as { pool: pg.Pool }[][]) {
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.pool === pool) list.splice(i, 1);
  }
}

let processMetrics = false;

/** Node's own metrics (event-loop delay, heap, RSS, GC, handles), started once per process. */
export function startProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
  // prom-client's three gauges named `*_total` break the naming convention (promtool refuses them);
  // `nodejs_active_handles`, `_requests` and `_resources` hold the same counts by type.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
}

/** The text exposition format of every metric of this process. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
