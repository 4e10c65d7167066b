import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { createLogger } from '@vat/platform/logger';
import { startTracing, stopTracing } from '@vat/platform/telemetry';
import { tracer } from '@vat/platform/tracing';
import { build, type Built } from '@vat/deploy/build';
import { freshDatabase, IN_CI, requireBackends } from '../support/env';
import { freePort, http, NATS_SERVER, serviceUrlEnv, startPrivateNats, waitFor, type PrivateNats } from '../support/processes';

const backends = await requireBackends(['postgres']);
const natsBinary = existsSync(NATS_SERVER);
if (!natsBinary && IN_CI) throw new Error(`CI=true and no nats-server at ${NATS_SERVER}`);

const exporter = new InMemorySpanExporter();

const sale = (id: string) => ({
  event_id: id, event_type: 'sale', occurred_at: '2026-02-10', supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: 'FR',
  dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR', net_amount_minor: 10000, vat_amount_minor: 2000,
  vat_rate_bps: 2000, rate_category: 'standard', classification_status: 'classified',
});

const sameSpan = (a: { traceId: string; spanId: string } | undefined, b: ReadableSpan) => a?.traceId === b.spanContext().traceId && a?.spanId === b.spanContext().spanId;

/**
 * Issue 25: distributed mode (each service and the gateway built as its own part, HTTP/2 Connect
 * between them, JetStream on a private nats-server, PostgreSQL), all in this process so one
 * in-memory exporter sees every span. One POST /v1/supply-events makes one trace: the gateway's
 * HTTP span, the Connect call on both sides, the ledger's statements, the outbox relay's publish and
 * the compliance-reports and thresholds consumers.
 */
describe.skipIf(!backends.ok || !natsBinary)('tracing: one supply event from the gateway to the consumers', () => {
  let nats: PrivateNats;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const parts: Built[] = [];
  let base: string;
  let key: string;

  beforeAll(async () => {
    startTracing('vat-tracing-test', [new SimpleSpanProcessor({ exporter })]);
    nats = await startPrivateNats();
    db = await freshDatabase({ prefix: 'vat_trace' });
    const ports = {} as Record<ServiceName, number>;
    for (const name of SERVICE_NAMES) ports[name] = await freePort([1000]);
    const gatewayPort = await freePort();
    const env = {
      HOST: '127.0.0.1', DATABASE_URL: db.url, NATS_URL: nats.url, INTERNAL_TOKEN: `trace-${randomBytes(12).toString('hex')}`,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), OUTBOX_POLL_MS: '100', LOG_LEVEL: 'silent', ...serviceUrlEnv(ports),
    };
    const silent = pino({ level: 'silent' });
    for (const name of SERVICE_NAMES) {
      const part = await build(name, loadConfig({ ...env, SERVICE_PORT: String(ports[name]) }), silent);
      parts.push(part);
      await part.listen();
    }
    const gateway = await build('gateway', loadConfig({ ...env, PORT: String(gatewayPort) }), silent);
    parts.push(gateway);
    base = await gateway.listen();
    key = (await gateway.gateway!.keys.create('trace-acct', 'full', false)).key;
    await waitFor('gateway ready', async () => (await http('GET', `${base}/ready`)).status === 200, { timeoutMs: 60_000 });
  }, 180_000);

  afterAll(async () => {
    for (const p of parts.reverse()) await p.stop().catch(() => undefined);
    await stopTracing();
    await nats?.stop().catch(() => undefined);
    await db?.drop().catch(() => undefined);
  }, 60_000);

  it('links gateway → ledger → outbox relay → compliance-reports and thresholds consumers in one trace', async () => {
    exporter.reset();
    const r = await fetch(`${base}/v1/supply-events`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'x-request-id': 'trace-req-1' }, body: JSON.stringify({ events: [sale('trace-sale-1')] }) });
    expect(r.status, await r.text()).toBeLessThan(300);
    // The request id comes back in a response header (the caller's when it sent a well-formed one).
    expect(r.headers.get('x-request-id')).toBe('trace-req-1');

    const request = await waitFor('the gateway request span', () => exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === '/v1/supply-events'), { timeoutMs: 10_000 });
    const traceId = request.spanContext().traceId;
    const inTrace = () => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const consumers = await waitFor('both projection consumers in the trace', () => {
      const found = inTrace().filter((s) => s.kind === SpanKind.CONSUMER && ['process compliance-reports-supply-projection', 'process thresholds-supply-projection'].includes(s.name));
      return found.length === 2 ? found : undefined;
    }, { timeoutMs: 20_000 });

    const spans = inTrace();
    // The gateway's Connect call runs inside its HTTP request span.
    const rpcClient = spans.find((s) => s.kind === SpanKind.CLIENT && s.name === 'vat.ledger.v1.SupplyLedgerService/CommitSupplyEvents');
    const rpcServer = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'vat.ledger.v1.SupplyLedgerService/CommitSupplyEvents');
    expect(rpcClient, 'gateway-side Connect span').toBeDefined();
    expect(rpcServer, 'ledger-side Connect span').toBeDefined();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    let up: ReadableSpan | undefined = rpcClient;
    while (up && !sameSpan(up.parentSpanContext, request)) up = up.parentSpanContext ? byId.get(up.parentSpanContext.spanId) : undefined;
    expect(up, 'the Connect client span descends from the HTTP request span').toBeDefined();
    expect(sameSpan(rpcServer!.parentSpanContext, rpcClient!)).toBe(true);
    // The ledger's statements, inside its RPC, include the insert that wrote the outbox row.
    const statements = spans.filter((s) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql');
    expect(statements.some((s) => /insert into "ledger"\.supply_event|"ledger"\.outbox/.test(String(s.attributes['db.query.text'] ?? s.attributes['db.statement'] ?? '')))).toBe(true);

    const publish = spans.find((s) => s.kind === SpanKind.PRODUCER && s.name === 'publish vat.ledger.v1.supply_committed');
    expect(publish, 'outbox relay publish span').toBeDefined();
    // The relay runs outside any request: its span continues the context stored with the outbox row (the ledger RPC).
    expect(publish!.parentSpanContext?.traceId).toBe(traceId);
    for (const c of consumers) {
      expect(sameSpan(c.parentSpanContext, publish!), c.name).toBe(true);
      expect(c.links.some((l) => l.context.spanId === publish!.spanContext().spanId), `${c.name} links to the publish`).toBe(true);
      expect(c.attributes['messaging.destination.name']).toBe('vat.ledger.v1.supply_committed');
    }
    // Each consumer's own statements are its children.
    for (const c of consumers) expect(spans.some((s) => sameSpan(s.parentSpanContext, c)), c.name).toBe(true);
  }, 60_000);

  it('puts trace_id and span_id on log lines inside a span, redaction unchanged', () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } });
    const log = createLogger('info', 'trace-log-test', sink as never);
    log.info('outside');
    let ids: { traceId: string; spanId: string } | undefined;
    tracer.startActiveSpan('log-test', (span) => {
      ids = { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
      log.info({ vat_registration_number: 'DE123456789' }, 'inside');
      span.end();
    });
    expect(lines[0]!.trace_id).toBeUndefined();
    expect(lines[1]).toMatchObject({ msg: 'inside', trace_id: ids!.traceId, span_id: ids!.spanId, vat_registration_number: '[redacted]' });
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
