import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, type ServiceName } from '@vat/platform/config';
import { REFERENCE_REQUEST_SUBJECT } from '@vat/platform/reference-request';
import { freshDatabase, IN_CI, requireBackends } from '../support/env';
import { freePort, http, NATS_SERVER, spawnMain, startPrivateNats, stopAll, waitFor, waitReady, type PrivateNats, type Proc, serviceUrlEnv } from '../support/processes';

const backends = await requireBackends(['postgres']);
const natsBinary = existsSync(NATS_SERVER);
if (!natsBinary) {
  if (IN_CI) throw new Error(`CI=true and no nats-server at ${NATS_SERVER}`);
  console.warn(`[skip] no nats-server binary at ${NATS_SERVER} (set NATS_SERVER_BIN)`);
}

const SERVICES = ['calculation', 'ledger', 'compliance-reports'] as const satisfies readonly ServiceName[];

/**
 * Reference data on request, distributed (PostgreSQL + JetStream, one process per service): calculation publishes
 * its reference data and records it; then the stream is lost (deleted while calculation runs) and the ledger and
 * compliance-reports start against the new one. Nothing is left to publish at start, yet both become ready by
 * themselves: they ask (`ReferenceDataRequested`), and calculation, whose durable came back with the stream,
 * publishes the release and every ECB day again.
 */
describe.skipIf(!backends.ok || !natsBinary)('distributed: a lost NATS stream, and projections that fill themselves', () => {
  let nats: PrivateNats;
  let nc: NatsConnection;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  const ports = {} as Record<ServiceName, number>;
  const procs = new Map<ServiceName, Proc>();
  let env: Record<string, string>;

  const start = (name: ServiceName) => procs.set(name, spawnMain(name, { ...env, SERVICE_PORT: String(ports[name]) }));
  const ready = (name: ServiceName) => waitReady(`http://127.0.0.1:${ports[name] + 1000}`, [procs.get(name)!], 150_000);
  const count = async (sql: string) => (await pool.query<{ n: number }>(sql)).rows[0]!.n;

  beforeAll(async () => {
    nats = await startPrivateNats();
    nc = await natsConnect({ servers: nats.url, timeout: 5000 });
    // An empty database: calculation seeds it and publishes what it stored, as on a first deployment.
    db = await freshDatabase({ prefix: 'vat_e2e_refdata', empty: true });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // Every service has an address (the configuration wants them all); only these three run.
    for (const name of SERVICE_NAMES) ports[name] = await freePort([1000]);
    env = {
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      INTERNAL_TOKEN: `e2e-refdata-${Math.random().toString(36).slice(2)}-token`,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      OUTBOX_POLL_MS: '100',
      LOG_LEVEL: 'warn',
      ...serviceUrlEnv(ports),
    };
  }, 60_000);

  afterAll(async () => {
    await stopAll();
    await nc?.close().catch(() => undefined);
    await nats?.stop().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await db?.drop().catch(() => undefined);
  }, 60_000);

  it('after the stream is deleted, a ledger and compliance-reports started against the new one get ready by asking calculation', async () => {
    start('calculation');
    await ready('calculation');
    await waitFor('calculation outbox published', async () => (await count('select count(*)::int as n from calculation.outbox where published_at is null')) === 0, { timeoutMs: 60_000, intervalMs: 200 });
    const published = await count('select count(*)::int as n from calculation.outbox');
    expect(published).toBeGreaterThan(0);

    // The stream is lost with everything calculation published; calculation keeps running and records it all as published.
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete('VAT');

    start('ledger');
    start('compliance-reports');
    const t0 = Date.now();
    await Promise.all([ready('ledger'), ready('compliance-reports')]);
    console.log(`[reference data e2e] ledger and compliance-reports ready ${Date.now() - t0} ms after their start against the new stream`);

    // Both hold what calculation holds: the current release and every ECB day.
    const calc = (await pool.query<{ release: string; days: number }>(
      `select (select max(id)::text from calculation.reference_release where kind = 'vat_rates') as release, (select count(*)::int from calculation.ecb_rate_day) as days`,
    )).rows[0]!;
    expect(calc.days).toBe(6983);
    // /ready means complete: calculation's answer (28 messages) says how many days it holds, and a projection with
    // fewer is not ready. So both hold all of it the moment they answer /ready (no waiting here).
    for (const schema of ['ledger', 'compliance_reports']) {
      const projected = (await pool.query<{ release: string; days: number }>(
        `select (select max(release_id)::text from ${schema}.rate_release_projection) as release, (select count(*)::int from ${schema}.ecb_rate_day_projection) as days`,
      )).rows[0]!;
      expect(projected, schema).toEqual(calc);
    }
    // The new stream holds the requests and the answer; the answer went straight to the bus, not through calculation's outbox.
    const info = await jsm.streams.info('VAT', { subjects_filter: 'vat.>' });
    expect(info.state.subjects?.[REFERENCE_REQUEST_SUBJECT]).toBeGreaterThanOrEqual(1);
    expect(info.state.subjects?.['vat.calculation.v1.exchange_rates_published']).toBeGreaterThanOrEqual(28);
    expect(await count('select count(*)::int as n from calculation.outbox')).toBe(published);
    // The readiness endpoints agree.
    for (const name of SERVICES) expect((await http('GET', `http://127.0.0.1:${ports[name] + 1000}/ready`)).status, name).toBe(200);
  }, 300_000);
});
