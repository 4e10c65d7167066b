import { createServer, connect, type Server, type Socket } from 'node:net';
import { ConnectError, Code } from '@connectrpc/connect';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@vat/platform/config';
import { build, type Built } from '@vat/deploy/build';
import { CONNECT_TIMEOUT_MS } from '@vat/platform/db';
import { isDatabaseUnavailable } from '@vat/platform/db-faults';
import { createClients, type Clients } from '@vat/platform/clients';
import { principalHeaders } from '@vat/platform/principal';
import { reasonOf } from '@vat/platform/rpc-errors';
import { directTransports } from '@vat/deploy/compose';
import { freshDatabase, PG_SERVER_URL, requireBackends } from '../support/env';
import { postgresBinDir, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';

const backends = await requireBackends(['postgres']);

/**
 * A TCP proxy in front of PostgreSQL that the test can cut and restore. Cut drops every connection;
 * new ones are then refused (`refuse`: the server is down) or accepted and never answered (`stall`:
 * packets dropped on the way).
 */
class CuttableProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private state: 'open' | 'refuse' | 'stall' = 'open';

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      if (this.state === 'refuse') return void client.destroy();
      if (this.state === 'stall') {
        this.sockets.add(client);
        client.on('error', () => undefined);
        client.on('close', () => this.sockets.delete(client));
        return;
      }
      const upstream = connect(this.target);
      for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => (this.sockets.delete(a), b.destroy()));
        a.pipe(b);
      }
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  cut(mode: 'refuse' | 'stall' = 'refuse'): void {
    this.state = mode;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.state = 'open';
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** After the database is back, this long of nothing but successful answers counts as recovered. */
const STEADY_MS = 2_500;

/**
 * Waits until the answers started since `since` (the restore) show recovery: the last failure lies STEADY_MS
 * back and more than 8 successful answers came after it; or until RECOVERY_BOUND_MS + STEADY_MS have passed
 * (the test's own checks then say what went wrong). Checked every 100 ms.
 */
async function untilRecovered<T extends Outcome>(answers: readonly T[], since: number, ok: (a: T) => boolean): Promise<void> {
  const deadline = since + RECOVERY_BOUND_MS + STEADY_MS;
  while (Date.now() < deadline) {
    const after = answers.filter((a) => a.startedAt >= since);
    const lastFailure = Math.max(since, ...after.filter((a) => !ok(a)).map((a) => a.startedAt + a.ms));
    if (Date.now() - lastFailure >= STEADY_MS && after.filter((a) => a.startedAt > lastFailure).length > 8) return;
    await sleep(100);
  }
}

type Call = 'sources' | 'calculate' | 'transactions';
type Outcome = { startedAt: number; ms: number; status: number; error?: string };

const CALC = { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true };
/** No answer may take longer than this, outage or not: the pool's connect timeout plus slack. */
const ANSWER_BOUND_MS = CONNECT_TIMEOUT_MS + 3_000;
/** After the database is back, answers must be 200 again within this. */
const RECOVERY_BOUND_MS = 10_000;

/**
 * The whole service in one process (`build('all')`) on PostgreSQL reached through a proxy. Under a
 * steady load of authenticated reads and calculations the database is cut and restored: while it is
 * cut every answer is 503 service_unavailable within a bound, and afterwards answers are 200 again
 * without a restart.
 */
describe.skipIf(!backends.ok)('database outage under load', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let proxy: CuttableProxy;
  let built: Built;
  let base: string;
  let key: string;

  beforeAll(async () => {
    db = await freshDatabase();
    const direct = new URL(db.url);
    proxy = new CuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(db.url);
    proxied.host = `127.0.0.1:${await proxy.listen()}`;
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '50', RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_URL: proxied.toString() });
    built = await build('all', config, pino({ level: 'silent' }));
    base = await built.listen();
    key = (await built.gateway!.keys.create('outage-acct', 'full', false)).key;
  }, 60_000);

  afterAll(async () => {
    await built?.stop();
    await proxy?.close();
    await db?.drop();
  }, 60_000);

  /** One authenticated call: a list read through the ORM, a calculation (a write) or the transaction list. */
  async function call(kind: Call): Promise<Outcome> {
    const startedAt = Date.now();
    const init: RequestInit =
      kind === 'calculate'
        ? { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(CALC) }
        : { method: 'GET', headers: { 'x-api-key': key } };
    const path = { sources: '/v1/sources', calculate: '/v1/vat/calculate', transactions: '/v1/transactions?limit=5' }[kind];
    try {
      const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(ANSWER_BOUND_MS * 2) });
      const body = (await res.json()) as { error?: string };
      return { startedAt, ms: Date.now() - startedAt, status: res.status, error: body.error };
    } catch (err) {
      return { startedAt, ms: Date.now() - startedAt, status: 0, error: (err as Error).message };
    }
  }

  /** Four clients calling back to back until `stop()`; every outcome is kept. */
  function load(kinds: readonly Call[]) {
    const outcomes: Outcome[] = [];
    let running = true;
    const workers = [0, 1, 2, 3].map(async (w) => {
      for (let i = w; running; i++) outcomes.push(await call(kinds[i % kinds.length]!));
    });
    return {
      outcomes,
      async stop() {
        running = false;
        await Promise.all(workers);
      },
    };
  }

  const summary = (os: Outcome[]) => {
    const counts = new Map<string, number>();
    for (const o of os) counts.set(`${o.status} ${o.error ?? ''}`, (counts.get(`${o.status} ${o.error ?? ''}`) ?? 0) + 1);
    return JSON.stringify([...counts]);
  };

  it.each([
    ['refused (the server is down)', 'refuse', 3_000, ['sources', 'calculate', 'transactions']],
    // Longer than the answer bound (without the connect timeout a call would hang for all of it), and
    // long enough for every client to start a call after the cut that also ends before the restore.
    ['hanging (packets dropped)', 'stall', 2 * CONNECT_TIMEOUT_MS + 3_000, ['sources', 'calculate']],
  ] as const)('answers 503 service_unavailable while connections are %s, and 200 again by itself once it is back', async (_name, mode, cutMs, kinds) => {
    const run = load(kinds);
    await sleep(1_000);
    const cutAt = Date.now();
    proxy.cut(mode);
    await sleep(cutMs);
    const restoredAt = Date.now();
    proxy.restore();
    await untilRecovered(run.outcomes, restoredAt, (o) => o.status === 200);
    await run.stop();
    const all = run.outcomes;

    const before = all.filter((o) => o.startedAt + o.ms < cutAt);
    expect(before.length).toBeGreaterThan(4);
    expect(before.every((o) => o.status === 200), summary(before)).toBe(true);

    // Started after the cut (this process cut it: no later call can have reached the database) and
    // answered before the restore; at least one per client.
    const during = all.filter((o) => o.startedAt > cutAt && o.startedAt + o.ms < restoredAt);
    expect(during.length).toBeGreaterThanOrEqual(4);
    expect(during.every((o) => o.status === 503 && o.error === 'service_unavailable'), summary(during)).toBe(true);

    // Straddling the cut or the restore: the old or the new answer, never anything else, never slow.
    for (const o of all) {
      expect([200, 503], summary([o])).toContain(o.status);
      if (o.status === 503) expect(o.error).toBe('service_unavailable');
      expect(o.ms).toBeLessThan(ANSWER_BOUND_MS);
    }

    const after = all.filter((o) => o.startedAt >= restoredAt);
    const lastFailure = Math.max(restoredAt, ...after.filter((o) => o.status !== 200).map((o) => o.startedAt + o.ms));
    expect(lastFailure - restoredAt, summary(after)).toBeLessThan(RECOVERY_BOUND_MS);
    expect(after.filter((o) => o.startedAt > lastFailure).length).toBeGreaterThan(4);
  }, 90_000);

  it('gives the client of a transaction whose connection died back to the pool', async () => {
    const svc = built.services.find((s) => s.module.name === 'calculation')!;
    const pool = svc.deps.pool as unknown as { totalCount: number; idleCount: number };
    const err = await svc.deps.orm.em
      .fork()
      .transactional(async (em) => {
        await em.getConnection().execute('select pg_terminate_backend(pg_backend_pid())', [], 'all', em.getTransactionContext());
      })
      .then(() => undefined, (e: unknown) => e);
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    // The relay polls every 50 ms; between polls nothing of this pool may stay checked out.
    const deadline = Date.now() + 5_000;
    while (pool.totalCount !== pool.idleCount && Date.now() < deadline) await sleep(10);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  }, 30_000);

  it('stops cleanly afterwards (nothing waits on a dead connection)', async () => {
    const stopping = built.stop().then(() => 'stopped');
    const outcome = await Promise.race([stopping, sleep(15_000).then(() => 'still stopping after 15 s')]);
    expect(outcome).toBe('stopped');
    built = undefined as unknown as Built;
  }, 30_000);
});

type WriteKind = 'calculate' | 'supply';
type Kind = WriteKind | 'transactions' | 'export' | 'sme';
type Answer = Outcome & { kind: Kind; retryAfter: string | null; writeId?: string; ackedId?: string };

const DAY = '2026-01-15';

/**
 * Clients of the REST API mixing writes (calculations with an Idempotency-Key, supply events with an
 * event id: each write has its own id, so a retry of a refused one is the same request) and reads
 * (transaction list, CSV export, SME eligibility in a currency that needs a rate). Every answer is kept.
 */
class Workload {
  readonly answers: Answer[] = [];
  private running = true;
  private seq = 0;
  private workers: Promise<void>[] = [];

  constructor(private readonly base: () => string, private readonly key: string, private readonly tag: string, readonly day: string) {}

  request(kind: Kind, writeId?: string): { path: string; init: RequestInit } {
    const headers: Record<string, string> = { 'x-api-key': this.key, 'content-type': 'application/json' };
    if (kind === 'calculate') {
      const body = { ...CALC, gross_amount_minor: 1000 + Number(writeId!.split('-').pop()), transaction_date: this.day };
      return { path: '/v1/vat/calculate', init: { method: 'POST', headers: { ...headers, 'idempotency-key': writeId! }, body: JSON.stringify(body) } };
    }
    if (kind === 'supply') return { path: '/v1/supply-events', init: { method: 'POST', headers, body: JSON.stringify(supplyEvent(writeId!, this.day)) } };
    const get = { method: 'GET', headers: { 'x-api-key': this.key } };
    if (kind === 'transactions') return { path: '/v1/transactions?limit=5', init: get };
    if (kind === 'export') return { path: `/v1/transactions/export?from=${this.day}&to=${this.day}`, init: get };
    const sme = { country: 'PL', currency: 'PLN', annual_turnover_nac: 10_000_000, reference_date: '2025-06-30' };
    return { path: '/v1/vat/sme-eligibility', init: { method: 'POST', headers, body: JSON.stringify(sme) } };
  }

  async send(kind: Kind, writeId?: string): Promise<Answer> {
    const { path, init } = this.request(kind, writeId);
    const startedAt = Date.now();
    try {
      const res = await fetch(`${this.base()}${path}`, { ...init, signal: AbortSignal.timeout(ANSWER_BOUND_MS * 2) });
      const text = await res.text();
      const json = res.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as { error?: string; calculation_id?: string; id?: string }) : {};
      const ackedId = res.status < 300 ? (json.calculation_id ?? json.id) : undefined;
      return { kind, startedAt, ms: Date.now() - startedAt, status: res.status, error: json.error, retryAfter: res.headers.get('retry-after'), writeId, ackedId };
    } catch (err) {
      return { kind, startedAt, ms: Date.now() - startedAt, status: 0, error: (err as Error).message, retryAfter: null, writeId };
    }
  }

  start(kinds: readonly Kind[], clients = 4): void {
    this.workers = Array.from({ length: clients }, async (_, w) => {
      for (let i = w; this.running; i++) {
        const kind = kinds[i % kinds.length]!;
        const writeId = kind === 'calculate' || kind === 'supply' ? `${this.tag}-${kind}-${this.seq++}` : undefined;
        this.answers.push(await this.send(kind, writeId));
      }
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Every write id sent, with its acknowledged answer if it had one. */
  writes(kind: WriteKind): Map<string, Answer | undefined> {
    const m = new Map<string, Answer | undefined>();
    for (const a of this.answers) if (a.kind === kind && a.writeId) m.set(a.writeId, a.status >= 200 && a.status < 300 ? a : m.get(a.writeId));
    return m;
  }
}

function supplyEvent(eventId: string, day: string) {
  const net = 1000 + Number(eventId.split('-').pop());
  return {
    event_id: eventId, event_type: 'sale', occurred_at: `${day}T12:00:00Z`, supply_kind: 'goods', customer_type: 'b2c',
    country_of_consumption: 'FR', dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR',
    net_amount_minor: net, vat_amount_minor: Math.round((net * 2000) / 10000), vat_rate_bps: 2000, rate_category: 'standard',
    classification_status: 'classified', tax_class_id: 'standard',
  };
}

/** Every page of a list route. */
async function listAll<T>(base: string, key: string, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const res = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: T[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return items;
}

const tally = (answers: Answer[]) => {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(`${a.kind} ${a.status} ${a.error ?? ''}`, (counts.get(`${a.kind} ${a.status} ${a.error ?? ''}`) ?? 0) + 1);
  return JSON.stringify([...counts]);
};

/** Every answer 2xx or 503 service_unavailable with Retry-After, within the bound. */
function expectOnlySuccessOr503(answers: Answer[]): void {
  for (const a of answers) {
    expect(a.status === 503 || (a.status >= 200 && a.status < 300), tally([a])).toBe(true);
    if (a.status === 503) {
      expect(a.error, tally([a])).toBe('service_unavailable');
      expect(a.retryAfter).toMatch(/^[1-9][0-9]*$/);
    }
    expect(a.ms).toBeLessThan(ANSWER_BOUND_MS);
  }
}

/**
 * Nothing half-written, nothing lost: every write answered 503 (or not at all) is sent again with the same
 * id until it is acknowledged; then every acknowledged write is there, and each id is stored exactly once.
 */
async function expectEveryWriteOnce(w: Workload, base: string, key: string): Promise<void> {
  for (const kind of ['calculate', 'supply'] as const) {
    for (const [id, acked] of w.writes(kind)) {
      if (acked) continue;
      const again = await w.send(kind, id);
      expect(again.status, tally([again])).toBeLessThan(300);
      w.answers.push(again);
    }
  }
  const calcs = w.writes('calculate');
  const transactions = await listAll<{ id: string }>(base, key, `/v1/transactions?from=${w.day}&to=${w.day}`);
  expect(transactions.length).toBe(calcs.size);
  expect(new Set(transactions.map((t) => t.id))).toEqual(new Set([...calcs.values()].map((a) => a!.ackedId)));
  const supplies = w.writes('supply');
  const events = await listAll<{ event_id: string; id: string }>(base, key, `/v1/supply-events?from=${w.day}&to=${w.day}`);
  expect(events.length).toBe(supplies.size);
  expect(new Set(events.map((e) => e.event_id))).toEqual(new Set(supplies.keys()));
  for (const [id, acked] of supplies) expect(events.find((e) => e.event_id === id)?.id).toBe(acked!.ackedId);
}

/**
 * Issue 23: a database that refuses connections (what a failover or an administrator's restart looks
 * like: `allow_connections false`, every backend terminated) is an outage like a cut cable, answered 503
 * service_unavailable with Retry-After by the gateway's own key store and by every service, never 500.
 */
describe.skipIf(!backends.ok)('database refusing connections (allow_connections false, backends terminated)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let built: Built;
  let base: string;
  let key: string;
  let clients: Clients;
  let principal: Record<string, string>;
  const admin = new pg.Client({ connectionString: PG_SERVER_URL });

  beforeAll(async () => {
    db = await freshDatabase();
    await admin.connect();
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '50', RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_URL: db.url });
    built = await build('all', config, pino({ level: 'silent' }));
    base = await built.listen();
    const created = await built.gateway!.keys.create('refused-acct', 'full', false);
    key = created.key;
    clients = createClients(directTransports(built.services, config));
    principal = principalHeaders({ accountId: BigInt(created.account_id), apiKeyId: BigInt(created.id), keyKind: 'v2', scope: 'full' });
  }, 60_000);

  afterAll(async () => {
    await allowConnections(true).catch(() => undefined);
    await admin.end().catch(() => undefined);
    await built?.stop();
    await db?.drop();
  }, 60_000);

  async function allowConnections(allow: boolean): Promise<void> {
    await admin.query(`alter database ${db.name} allow_connections ${allow}`);
    if (!allow) await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [db.name]);
  }

  /** Each service's own database path (behind the gateway's key store, which fails first over HTTP). */
  const rpcs: Record<string, () => Promise<unknown>> = {
    'calculation.calculate': () => clients.calculation.calculate({ country: 'DE', currency: 'EUR', taxClassId: 'standard', amountMinor: 11900n, priceIncludesVat: true, transactionDate: '2026-01-14', idempotencyKey: 'rpc-calc' }, { headers: principal }),
    'calculation.listTransactions': () => clients.calculation.listTransactions({ filter: {}, limit: 5 }, { headers: principal }),
    'calculation.exportTransactions': async () => {
      for await (const _ of clients.calculation.exportTransactions({ filter: { from: DAY, to: DAY } }, { headers: principal }));
    },
    'thresholds.checkSmeEligibility': () => clients.sme.checkSmeEligibility({ country: 'PL', currency: 'PLN', annualTurnoverNac: 10_000_000n, referenceDate: '2024-03-31' }, { headers: principal }),
    'ledger.listSupplyEvents': () => clients.ledger.listSupplyEvents({ limit: 5 }, { headers: principal }),
    'compliance-reports.listRegistrations': () => clients.registrations.listTaxRegistrations({}, { headers: principal }),
  };

  it('answers every RPC Unavailable service_unavailable, never Internal, and each works again afterwards', async () => {
    for (const call of Object.values(rpcs)) await call();
    await allowConnections(false);
    try {
      // SME eligibility serves its thresholds from memory for 5 s before it asks the database again.
      await sleep(5_500);
      for (const [name, call] of Object.entries(rpcs)) {
        const err = await call().then(() => undefined, (e: unknown) => ConnectError.from(e));
        expect(err?.code, `${name}: ${String(err)}`).toBe(Code.Unavailable);
        expect(reasonOf(err!), name).toBe('service_unavailable');
      }
    } finally {
      await allowConnections(true);
    }
    for (const call of Object.values(rpcs)) await call();
  }, 60_000);

  it('answers 503 with Retry-After under load while refused, stores each write once, and recovers by itself', async () => {
    const w = new Workload(() => base, key, 'refused', DAY);
    w.start(['calculate', 'supply', 'transactions', 'export', 'sme', 'calculate', 'supply']);
    await sleep(1_500);
    const cutAt = Date.now();
    await allowConnections(false);
    await sleep(3_000);
    const restoredAt = Date.now();
    await allowConnections(true);
    await untilRecovered(w.answers, restoredAt, (a) => a.status < 300);
    await w.stop();

    const all = w.answers;
    expect(all.filter((a) => a.startedAt + a.ms < cutAt).every((a) => a.status < 300), tally(all)).toBe(true);
    const during = all.filter((a) => a.startedAt > cutAt + 200 && a.startedAt + a.ms < restoredAt);
    expect(during.filter((a) => a.status === 503).length, tally(during)).toBeGreaterThanOrEqual(4);
    expectOnlySuccessOr503(all);
    const after = all.filter((a) => a.startedAt >= restoredAt);
    const lastFailure = Math.max(restoredAt, ...after.filter((a) => a.status >= 300).map((a) => a.startedAt + a.ms));
    expect(lastFailure - restoredAt, tally(after)).toBeLessThan(RECOVERY_BOUND_MS);
    expect(after.filter((a) => a.startedAt > lastFailure).length).toBeGreaterThan(4);
    await expectEveryWriteOnce(w, base, key);
  }, 90_000);
});

/**
 * A restart of PostgreSQL itself under load (an administrator's fast restart, then a crash), on a
 * private cluster so no one else's databases go down with it: only 2xx or 503 answers, the service
 * recovers by itself, and every acknowledged write is there afterwards, once.
 */
describe.skipIf(!backends.ok || !postgresBinDir())('PostgreSQL restarted under load (private cluster)', () => {
  let cluster: PrivatePostgres;
  let built: Built;
  let base: string;
  let key: string;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const url = new URL(cluster.url);
    url.pathname = '/vat';
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database vat');
    await admin.end();
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '50', RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_URL: url.toString() });
    built = await build('all', config, pino({ level: 'silent' }));
    base = await built.listen();
    key = (await built.gateway!.keys.create('restart-acct', 'full', false)).key;
  }, 120_000);

  afterAll(async () => {
    await built?.stop();
    await cluster?.stop();
  }, 60_000);

  it.each([
    ['fast (an administrator restart)', 'fast'],
    ['immediate (a crash, recovered from the WAL)', 'immediate'],
  ] as const)('keeps every acknowledged write through a %s restart', async (_name, mode) => {
    const w = new Workload(() => base, key, `restart-${mode}`, mode === 'fast' ? '2026-01-15' : '2026-01-16');
    w.start(['calculate', 'supply', 'transactions', 'calculate', 'supply', 'sme']);
    await sleep(1_500);
    const downAt = Date.now();
    await cluster.restart(mode, 2_000);
    const upAt = Date.now();
    await untilRecovered(w.answers, upAt, (a) => a.status < 300);
    await w.stop();

    const all = w.answers;
    expect(all.filter((a) => a.startedAt + a.ms < downAt).every((a) => a.status < 300), tally(all)).toBe(true);
    expect(all.filter((a) => a.startedAt > downAt && a.startedAt + a.ms < upAt && a.status === 503).length, tally(all)).toBeGreaterThan(0);
    expectOnlySuccessOr503(all);
    const after = all.filter((a) => a.startedAt >= upAt);
    const lastFailure = Math.max(upAt, ...after.filter((a) => a.status >= 300).map((a) => a.startedAt + a.ms));
    expect(lastFailure - upAt, tally(after)).toBeLessThan(RECOVERY_BOUND_MS);
    await expectEveryWriteOnce(w, base, key);
  }, 120_000);
});
