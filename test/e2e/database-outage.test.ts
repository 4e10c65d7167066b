import { createServer, connect, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@vat/platform/config';
import { build, type Built } from '@vat/deploy/build';
import { CONNECT_TIMEOUT_MS } from '@vat/platform/db';
import { isDatabaseUnavailable } from '@vat/platform/db-faults';
import { freshDatabase, requireBackends } from '../support/env';

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
    await sleep(RECOVERY_BOUND_MS + 1_000);
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
