import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createClient, ConnectError, Code } from '@connectrpc/connect';
import { createConnectTransport, Http2SessionManager } from '@connectrpc/connect-node';
import pg from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalculationService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { ReadinessService } from '@vat/gen/vat/platform/v1/readiness_service_pb';
import { internalTokenInterceptor } from '@vat/platform/clients';
import { freshTotpCode } from '../support/totp';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { freshDatabase, IN_CI, REDIS_TEST_URL, requireBackends } from '../support/env';
import { freePort, http, NATS_SERVER, runAdmin, sleep, spawnMain, startPrivateNats, stopAll, stopProcess, waitFor, waitReady, type PrivateNats, type Proc, serviceUrlEnv } from '../support/processes';

const backends = await requireBackends(['postgres', 'redis']);
const natsBinary = existsSync(NATS_SERVER);
if (!natsBinary) {
  if (IN_CI) throw new Error(`CI=true and no nats-server at ${NATS_SERVER}`);
  console.warn(`[skip] no nats-server binary at ${NATS_SERVER} (set NATS_SERVER_BIN)`);
}

const INTERNAL_TOKEN = `e2e-internal-${Math.random().toString(36).slice(2)}-token`;
const CALCULATION_SUBJECT = 'vat.calculation.v1.calculation_recorded';

/**
 * Distributed mode as separate processes: a private JetStream nats-server, a fresh PostgreSQL
 * database, the five services (HTTP/2 Connect) and the gateway; then a NATS outage under load.
 */
describe.skipIf(!backends.ok || !natsBinary)('distributed: five services + gateway as processes', () => {
  let nats: PrivateNats;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  const servicePorts = {} as Record<ServiceName, number>;
  const procs: Proc[] = [];
  let gatewayPort: number;
  let base: string;
  let commonEnv: Record<string, string>;
  let fullKey: { key: string; id: string };
  const sessions: Http2SessionManager[] = [];
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    nats = await startPrivateNats();
    db = await freshDatabase({ prefix: 'vat_e2e' });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    for (const name of SERVICE_NAMES) servicePorts[name] = await freePort([1000]);
    gatewayPort = await freePort();
    base = `http://127.0.0.1:${gatewayPort}`;
    commonEnv = {
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      REDIS_URL: REDIS_TEST_URL,
      INTERNAL_TOKEN,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      OUTBOX_POLL_MS: '100',
      LOG_LEVEL: 'warn',
      ...serviceUrlEnv(servicePorts),
    };
    const t0 = Date.now();
    for (const name of SERVICE_NAMES) procs.push(spawnMain(name, { ...commonEnv, SERVICE_PORT: String(servicePorts[name]) }));
    procs.push(spawnMain('gateway', { ...commonEnv, PORT: String(gatewayPort) }));
    await waitReady(base, procs, 150_000);
    timings.startMs = Date.now() - t0;
    console.log(`[distributed e2e] 5 services + gateway: gateway /ready 200 after ${timings.startMs} ms`);
  }, 180_000);

  afterAll(async () => {
    for (const s of sessions) s.abort();
    await stopAll();
    await nats?.stop().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await db?.drop().catch(() => undefined);
  }, 60_000);

  it('gateway /ready aggregates every service and NATS', async () => {
    const r = await http('GET', `${base}/ready`);
    expect(r.status).toBe(200);
    const names = r.json.checks.map((c: { name: string }) => c.name);
    expect(names).toContain('gateway.nats');
    expect(names).toContain('gateway.redis');
    for (const s of SERVICE_NAMES) {
      expect(names).toContain(`${s}.database`);
      expect(names).toContain(`${s}.nats`);
    }
    expect(r.json.checks.every((c: { ok: boolean }) => c.ok)).toBe(true);
  });

  it('each service answers /health and /ready on SERVICE_PORT+1000', async () => {
    for (const name of SERVICE_NAMES) {
      const h = await http('GET', `http://127.0.0.1:${servicePorts[name] + 1000}/health`);
      expect(h.status, name).toBe(200);
      expect(h.json).toEqual({ status: 'ok' });
      const r = await http('GET', `http://127.0.0.1:${servicePorts[name] + 1000}/ready`);
      expect(r.status, `${name}: ${r.text}`).toBe(200);
      expect(r.json.status).toBe('ready');
      expect(r.json.checks.some((c: { name: string; ok: boolean }) => c.name === `${name}.nats` && c.ok)).toBe(true);
    }
  });

  it('the admin CLI creates a key with DATABASE_URL; calculate works end to end', async () => {
    const created = await runAdmin(['keys', 'create', '--account', 'e2e-dist', '--scope', 'full'], { DATABASE_URL: db.url });
    fullKey = { key: created.json.key, id: created.json.id };
    const calc = await http('POST', `${base}/v1/vat/calculate`, {
      headers: { 'x-api-key': fullKey.key, 'x-source-id': 'e2e/dist' },
      body: { country: 'FR', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 10000, price_includes_vat: false, transaction_date: '2025-06-01' },
    });
    expect(calc.status, calc.text).toBe(200);
    expect(calc.json.vat_rate_bps).toBe(2000);
    expect(calc.json.vat_amount_minor).toBe(2000);
    expect(calc.json.gross_amount_minor).toBe(12000);
    const one = await http('GET', `${base}/v1/transactions/${calc.json.calculation_id}`, { headers: { 'x-api-key': fullKey.key } });
    expect(one.status, one.text).toBe(200);
    // The event travels calculation outbox -> JetStream -> gateway usage consumer.
    await waitFor('calculation_count 1', async () => {
      const l = await runAdmin(['keys', 'list', '--account', 'e2e-dist'], { DATABASE_URL: db.url });
      return l.json[0]?.calculation_count === '1';
    }, { timeoutMs: 30_000, intervalMs: 300 });
  }, 60_000);

  it('the admin CLI imports and activates a treatment release (four eyes, TOTP); v2 decides across processes', async () => {
    const env = { DATABASE_URL: db.url, DATA_ENCRYPTION_KEY: commonEnv.DATA_ENCRYPTION_KEY! };
    expect((await runAdmin(['operators', 'create', '--name', 'alice'], env)).code).toBe(0);
    const bob = (await runAdmin<{ secret: string }>(['operators', 'create', '--name', 'bob'], env)).json.secret;
    const imported = await runAdmin<{ id: string; status: string }>(['treatments', 'import', '--file', 'seeds/treatment-releases/eu27-sales-vat-2026-11.json', '--operator', 'alice'], env);
    expect(imported.json.status, imported.stderr).toBe('candidate');
    const activate = async (operator: string) => runAdmin<{ status: string }>(['treatments', 'activate', '--id', imported.json.id, '--operator', operator, '--totp', await freshTotpCode(bob)], env);
    await expect(activate('alice')).rejects.toThrow(/exited 1; stderr: error: four_eyes_violation/);
    // The refused attempt consumed no step (four_eyes_violation is checked first); the code is taken with enough of its step left.
    const activated = await activate('bob');
    expect(activated.json.status, activated.stderr).toBe('active');

    const v2 = (body: Record<string, unknown>, idem: string) => http('POST', `${base}/v2/vat/calculate`, { headers: { 'x-api-key': fullKey.key, 'idempotency-key': idem }, body });
    const ctx = { customer_type: 'b2c', supplier_establishment_country: 'DE', dispatch_country: 'DE', destination_country: 'DE' };
    const domestic = await v2({ country: 'DE', currency: 'EUR', amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01', tax_class_id: 'standard', treatment_context: ctx }, 'dist-1');
    expect(domestic.status, domestic.text).toBe(200);
    expect(domestic.json.status).toBe('partial');
    expect(domestic.json.components[0]).toMatchObject({ kind: 'sales_vat', amount_minor: 1900, net_amount_minor: 10000, vat_rate_bps: 1900 });
    // The classification mapping is read from the classification process (HTTP/2, internal token): no manifest yet.
    const mapped = await v2({ country: 'DE', currency: 'EUR', amount_minor: 100, price_includes_vat: true, transaction_date: '2026-03-01', classification: { scheme: 'cpa', code: '01.11.11', catalog_version: '2.1' }, treatment_context: ctx }, 'dist-2');
    expect(mapped.status, mapped.text).toBe(422);
    expect(mapped.json.components[0].findings).toEqual(['classification_needs_review', 'classification_coverage_manifest_unpublished']);
    const got = await http('GET', `${base}/v2/decisions/${mapped.json.decision_id}`, { headers: { 'x-api-key': fullKey.key } });
    expect(got.status).toBe(200);
    expect(got.json.answered_with).toEqual({ http_status: 422, error: 'decision_incomplete' });
  }, 120_000);

  it('GET /v1/vat/rates and POST /v1/vat/sme-eligibility work across processes', async () => {
    const rates = await http('GET', `${base}/v1/vat/rates?country=DE&at=2025-01-01`);
    expect(rates.status, rates.text).toBe(200);
    expect(rates.json.country).toBe('DE');
    expect(rates.json.rates.find((r: { tax_class_id: string }) => r.tax_class_id === 'standard')?.rate_bps).toBe(1900);
    const sme = await http('POST', `${base}/v1/vat/sme-eligibility`, { body: { country: 'DE', annual_turnover_nac: 20000, currency: 'EUR', reference_date: '2025-06-01' } });
    expect(sme.status, sme.text).toBe(200);
    expect(sme.json.country).toBe('DE');
    expect(sme.json.eligibility_status).toBeTruthy();
    expect(typeof sme.json.exemption_threshold_nac === 'number' || sme.json.exemption_threshold_nac === null).toBe(true);
  });

  it('a service refuses HTTP/2 Connect calls without the internal token', async () => {
    const url = `http://127.0.0.1:${servicePorts.calculation}`;
    const bare = new Http2SessionManager(url);
    const withToken = new Http2SessionManager(url);
    sessions.push(bare, withToken);
    const raw = createConnectTransport({ baseUrl: url, httpVersion: '2', sessionManager: bare });
    const readinessRaw = createClient(ReadinessService, raw);
    const err = await readinessRaw.getReadiness({}, { timeoutMs: 5000 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unauthenticated);
    const calcErr = await createClient(CalculationService, raw)
      .listTransactions({ limit: 1 }, { timeoutMs: 5000 })
      .then(() => undefined, (e: unknown) => e);
    expect((calcErr as ConnectError).code).toBe(Code.Unauthenticated);
    const wrong = createConnectTransport({ baseUrl: url, httpVersion: '2', sessionManager: bare, interceptors: [internalTokenInterceptor('not-the-internal-token-at-all')] });
    const wrongErr = await createClient(ReadinessService, wrong).getReadiness({}, { timeoutMs: 5000 }).then(() => undefined, (e: unknown) => e);
    expect((wrongErr as ConnectError).code).toBe(Code.Unauthenticated);
    // The same call with the token is served (so the refusal above is the token check).
    const good = createConnectTransport({ baseUrl: url, httpVersion: '2', sessionManager: withToken, interceptors: [internalTokenInterceptor(INTERNAL_TOKEN)] });
    const ok = await createClient(ReadinessService, good).getReadiness({}, { timeoutMs: 5000 });
    expect(ok.service).toBe('calculation');
    expect(ok.ready).toBe(true);
  });

  it('NATS outage under load: the API keeps answering, no event is lost or counted twice', async () => {
    const N = 60;
    const KILL_AT = 20;
    const RESTART_AT = 40;
    const key = (await runAdmin(['keys', 'create', '--account', 'e2e-outage', '--scope', 'calculate-only'], { DATABASE_URL: db.url })).json as { key: string; id: string };
    const statuses: number[] = [];
    const failures: string[] = [];
    let sent = 0;
    let outageSeen: (() => void) | undefined;
    const outageObserved = new Promise<void>((r) => (outageSeen = r));
    const loop = (async () => {
      for (let i = 0; i < N; i++) {
        if (i === RESTART_AT) await Promise.race([outageObserved, sleep(20_000)]);
        const r = await http('POST', `${base}/v1/vat/calculate`, {
          headers: { 'x-api-key': key.key },
          body: { country: 'NL', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 1000 + i, price_includes_vat: true },
          timeoutMs: 15_000,
        }).catch((e: Error) => ({ status: 0, text: e.message, json: undefined }));
        statuses.push(r.status);
        if (r.status !== 200) failures.push(`#${i}: ${r.status} ${r.text}`);
        sent = i + 1;
        await sleep(75);
      }
    })();

    await waitFor(`${KILL_AT} calculations sent`, () => sent >= KILL_AT, { timeoutMs: 60_000, intervalMs: 20 });
    const killedAt = Date.now();
    await nats.kill();
    // Readiness reports the outage (gateway and calculation both lose NATS).
    const down = await waitFor('gateway /ready 503 during the outage', async () => {
      const r = await http('GET', `${base}/ready`, { timeoutMs: 8000 });
      return r.status === 503 ? r.json : undefined;
    }, { timeoutMs: 20_000, intervalMs: 200 });
    outageSeen!();
    console.log(`[distributed e2e] /ready 503 ${Date.now() - killedAt} ms after the NATS kill; missing: ${down.missing.join(', ')}`);
    expect(down.status).toBe('not_ready');
    expect(down.missing).toContain('gateway.nats');
    expect(down.missing).toContain('calculation.nats');
    // Events pile up in the outbox while NATS is gone.
    await waitFor('calculations sent during the outage', () => sent >= RESTART_AT, { timeoutMs: 60_000, intervalMs: 20 });
    const { rows: backlogRows } = await pool.query<{ n: number }>('select count(*)::int as n from calculation.outbox where published_at is null');
    console.log(`[distributed e2e] outbox backlog while NATS was down: ${backlogRows[0]!.n}`);
    expect(backlogRows[0]!.n).toBeGreaterThan(0);
    await nats.restart();
    const restartedAt = Date.now();
    await loop;
    expect(failures, failures.join('\n')).toEqual([]);
    expect(statuses).toHaveLength(N);
    expect(statuses.every((s) => s === 200)).toBe(true);

    let state = '';
    const counted = await waitFor(`calculation_count ${N}`, async () => {
      const { rows } = await pool.query<{ c: string }>('select calculation_count::text as c from gateway.api_key where id = $1', [key.id]);
      const { rows: ob } = await pool.query<{ n: number }>('select count(*)::int as n from calculation.outbox where published_at is null');
      state = `count ${rows[0]?.c}, unpublished ${ob[0]!.n}`;
      return rows[0]?.c === String(N) && ob[0]!.n === 0 ? rows[0].c : undefined;
    }, { timeoutMs: 60_000, intervalMs: 250 }).catch((err: Error) => {
      throw new Error(`${err.message} (${state})\n${procs.map((p) => `--- ${p.name} ---\n${p.output()}`).join('\n')}`);
    });
    console.log(`[distributed e2e] all ${N} events counted ${Date.now() - restartedAt} ms after NATS restarted`);
    expect(counted).toBe(String(N));
    const { rows: unpublished } = await pool.query<{ n: number }>('select count(*)::int as n from calculation.outbox where published_at is null');
    expect(unpublished[0]!.n).toBe(0);
    // Stays exactly N (no late redelivery counts twice) and the CLI shows the same.
    await sleep(2000);
    const list = await runAdmin(['keys', 'list', '--account', 'e2e-outage'], { DATABASE_URL: db.url });
    expect(list.json[0].calculation_count).toBe(String(N));
    // JetStream holds each calculation event exactly once (the Nats-Msg-Id dedups republished rows).
    const { rows: outboxRows } = await pool.query<{ n: number }>('select count(*)::int as n from calculation.outbox where subject = $1', [CALCULATION_SUBJECT]);
    const nc = await natsConnect({ servers: nats.url, timeout: 5000 });
    try {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info('VAT', { subjects_filter: CALCULATION_SUBJECT });
      expect(info.state.subjects?.[CALCULATION_SUBJECT]).toBe(outboxRows[0]!.n);
    } finally {
      await nc.close();
    }
    // And everything is ready again.
    const up = await waitFor('gateway /ready 200 after the restart', async () => {
      const r = await http('GET', `${base}/ready`, { timeoutMs: 8000 });
      return r.status === 200 ? r.json : undefined;
    }, { timeoutMs: 30_000, intervalMs: 250 });
    expect(up.status).toBe('ready');
  }, 240_000);

  it('every process shuts down cleanly on SIGTERM (exit code 0)', async () => {
    const codes = await Promise.all(procs.map(async (p) => [p.name, await stopProcess(p, 'SIGTERM', 15_000)] as const));
    const bad = codes.filter(([, c]) => c !== 0);
    expect(bad, bad.map(([n, c]) => `${n}: ${c}\n${procs.find((p) => p.name === n)!.output()}`).join('\n')).toEqual([]);
  }, 30_000);
});
