import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_CI, requireBackends } from '../support/env';
import { startHarness, type Harness } from '../support/harness';
import { http, waitFor } from '../support/processes';

const backends = await requireBackends(['postgres']);
const PROMTOOL = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';
const METRICS_TOKEN = 'metrics-token-for-the-e2e-test';

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a text exposition (`name{a="b",…} value`), comments left out. */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

const sale = (id: string) => ({
  event_id: id, event_type: 'sale', occurred_at: '2026-02-10', supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: 'FR',
  dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR', net_amount_minor: 10000, vat_amount_minor: 2000,
  vat_rate_bps: 2000, rate_category: 'standard', classification_status: 'classified',
});

/**
 * Issue 25: `/metrics` of a running process (everything in one process on PostgreSQL, listening on a
 * real port) after traffic holds the named series with their labels, none per account or request,
 * and its names pass `promtool check metrics`.
 */
describe.skipIf(!backends.ok)('metrics of a running process', () => {
  let h: Harness;
  let base: string;
  let key: string;
  let text: string;

  beforeAll(async () => {
    h = await startHarness({ env: { METRICS_TOKEN } });
    base = await h.built.listen();
    key = (await h.key('metrics-acct', 'full')).key;
    const headers = { 'x-api-key': key };
    const calc = await http('POST', `${base}/v1/vat/calculate`, { headers: { ...headers, 'idempotency-key': 'metrics-1' }, body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01' } });
    expect(calc.status, JSON.stringify(calc.json)).toBe(200);
    const commit = await http('POST', `${base}/v1/supply-events`, { headers, body: { events: [sale('metrics-sale-1')] } });
    expect(commit.status, JSON.stringify(commit.json)).toBeLessThan(300);
    expect((await http('GET', `${base}/v1/transactions/00000000-0000-7000-8000-000000000000`, { headers })).status).toBe(404);
    expect((await http('GET', `${base}/no/such/path`)).status).toBe(404);
    // Published, counted and applied by both projections, outboxes empty: every value is then final.
    text = await waitFor('events applied', async () => {
      const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const body = await r.text();
      const s = parse(body);
      const applied = find(s, 'vat_projection_applied_supply_events');
      const settled = applied.length === 2 && applied.every((a) => a.value === 1) && find(s, 'vat_outbox_pending_messages').every((p) => p.value === 0);
      // The in-process bus resolves a publish once consumers applied it; the relay counts it after that.
      const counted = find(s, 'vat_calculations_stored_total')[0]?.value === 1 && find(s, 'vat_supply_events_committed_total')[0]?.value === 1;
      return settled && counted ? body : undefined;
    }, { timeoutMs: 20_000 });
  });
  afterAll(async () => h?.close());

  it('answers only the configured bearer token on the gateway port', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-the-same-size!' } })).status).toBe(401);
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts HTTP requests by route template, method and status class', () => {
    const s = parse(text);
    expect(find(s, 'http_server_requests_total', { route: '/v1/supply-events', method: 'POST', status_class: '2xx' })[0]?.value).toBe(1);
    expect(find(s, 'http_server_requests_total', { route: '/v1/vat/calculate', method: 'POST', status_class: '2xx' })[0]?.value).toBe(1);
    // The template, not the id: no label holds a path parameter.
    expect(find(s, 'http_server_requests_total', { route: '/v1/transactions/:id', method: 'GET', status_class: '4xx' })[0]?.value).toBe(1);
    expect(find(s, 'http_server_requests_total', { route: 'unmatched', method: 'GET', status_class: '4xx' })[0]?.value).toBe(1);
    const buckets = find(s, 'http_server_request_duration_seconds_bucket', { route: '/v1/supply-events', method: 'POST', status_class: '2xx' });
    expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBe(1);
  });

  it('counts RPCs by service, method and Connect code', () => {
    const s = parse(text);
    expect(find(s, 'rpc_server_calls_total', { service: 'vat.ledger.v1.SupplyLedgerService', method: 'CommitSupplyEvents', code: 'ok' })[0]?.value).toBe(1);
    expect(find(s, 'rpc_server_calls_total', { service: 'vat.calculation.v1.CalculationService', method: 'GetTransaction', code: 'not_found' })[0]?.value).toBe(1);
    expect(find(s, 'rpc_server_call_duration_seconds_count', { service: 'vat.calculation.v1.CalculationService', method: 'Calculate', code: 'ok' })[0]?.value).toBe(1);
  });

  it('reports the event path: published per subject, deliveries, outbox backlog, projection positions and the ledger head', () => {
    const s = parse(text);
    expect(find(s, 'vat_events_published_total', { subject: 'vat.ledger.v1.supply_committed' })[0]?.value).toBe(1);
    expect(find(s, 'vat_events_published_total', { subject: 'vat.calculation.v1.calculation_recorded' })[0]?.value).toBe(1);
    const deliveries = find(s, 'vat_event_deliveries_total');
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    expect(deliveries.every((d) => d.value >= 1)).toBe(true);
    for (const service of ['calculation', 'classification', 'compliance_reports', 'thresholds', 'ledger']) {
      expect(find(s, 'vat_outbox_pending_messages', { service })[0]?.value, service).toBe(0);
      expect(find(s, 'vat_outbox_oldest_pending_age_seconds', { service })[0]?.value, service).toBe(0);
    }
    expect(find(s, 'vat_ledger_committed_supply_events')[0]?.value).toBe(1);
    expect(find(s, 'vat_projection_applied_supply_events', { projection: 'compliance_reports' })[0]?.value).toBe(1);
    expect(find(s, 'vat_projection_applied_supply_events', { projection: 'thresholds' })[0]?.value).toBe(1);
    expect(find(s, 'vat_outbox_relay_errors_total')).toEqual([]);
  });

  it('reports domain counters, connection pools and the process', () => {
    const s = parse(text);
    expect(find(s, 'vat_calculations_stored_total')[0]?.value).toBe(1);
    expect(find(s, 'vat_supply_events_committed_total')[0]?.value).toBe(1);
    expect(find(s, 'vat_returns_locked_total')[0]?.value).toBe(0);
    expect(find(s, 'vat_threshold_crossings_total')[0]?.value).toBe(0);
    for (const pool of ['gateway', 'ledger', 'calculation']) {
      expect(find(s, 'vat_db_pool_connections', { pool, state: 'idle' }).length, pool).toBe(1);
      expect(find(s, 'vat_db_pool_connections', { pool, state: 'in_use' }).length, pool).toBe(1);
      expect(find(s, 'vat_db_pool_waiting_requests', { pool })[0]?.value, pool).toBe(0);
    }
    expect(find(s, 'process_resident_memory_bytes')[0]?.value).toBeGreaterThan(0);
    expect(find(s, 'nodejs_heap_size_used_bytes')[0]?.value).toBeGreaterThan(0);
    expect(find(s, 'nodejs_eventloop_lag_seconds').length).toBe(1);
  });

  it('carries no per-account or per-request label', () => {
    const s = parse(text);
    const labelNames = new Set(s.flatMap((x) => Object.keys(x.labels)));
    for (const forbidden of ['account', 'account_id', 'api_key', 'request_id', 'event_id', 'path', 'url']) expect(labelNames.has(forbidden), forbidden).toBe(false);
    expect(text).not.toContain('metrics-acct');
    expect(text).not.toContain('metrics-sale-1');
    expect(text).not.toContain('00000000-0000-7000-8000-000000000000');
  });

  it('passes the Prometheus naming lint', () => {
    // The conventions promtool checks, here too: counters end in _total, nothing else does; durations in seconds.
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! }));
    expect(types.length).toBeGreaterThan(20);
    for (const t of types) {
      expect(t.name, t.name).toMatch(/^[a-z_:][a-z0-9_:]*$/);
      expect(t.name.endsWith('_total'), `${t.name} (${t.type})`).toBe(t.type === 'counter');
      if (/(^|_)(duration|latency|lag|age)(_|$)/.test(t.name) && t.type !== 'counter') expect(t.name, t.name).toMatch(/_seconds$/);
    }
    if (!existsSync(PROMTOOL)) {
      if (IN_CI) throw new Error(`CI=true and no promtool at ${PROMTOOL} (Debian package prometheus)`);
      console.warn(`[metrics e2e] no promtool at ${PROMTOOL}: only the lint above ran`);
      return;
    }
    const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
  });
});
