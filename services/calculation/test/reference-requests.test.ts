import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeRatesPublishedSchema, RateReleasePublishedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { InProcessBus, type BusMessage } from '@vat/platform/bus';
import { loadConfig } from '@vat/platform/config';
import { decodeEvent } from '@vat/platform/events';
import { REFERENCE_SUBJECTS } from '@vat/platform/reference-projection';
import { referenceDataRequest } from '@vat/platform/reference-request';
import { startService, type RunningService } from '@vat/deploy/compose';
import { MODULES } from '@vat/deploy/modules';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { routerTransports } from '../../../test/support/router-transports';

const backends = await requireBackends(['postgres']);

/**
 * Reference data on request (platform/src/reference-request.ts, reference/requests.ts): a ledger whose projection
 * of calculation's reference data is empty (what calculation published never reached it, and calculation records
 * what it published, so no start publishes it again) asks, and calculation publishes it again on the bus.
 */
describe.skipIf(!backends.ok)('ReferenceDataRequested: calculation publishes its reference data again', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let sql: pg.Client;
  const bus = new InProcessBus();
  const running: RunningService[] = [];
  /** What the bus carried of calculation's reference data. */
  const carried: BusMessage[] = [];
  let ledger: RunningService;

  const projection = async () =>
    (
      await sql.query<{ releases: string[]; days: number; last_day: string | null; import_ids: string[] }>(
        `select (select coalesce(array_agg(release_id::text), '{}') from ledger.rate_release_projection) as releases,
                (select count(*)::int from ledger.ecb_rate_day_projection) as days,
                (select max(rate_date) from ledger.ecb_rate_day_projection) as last_day,
                (select coalesce(array_agg(distinct import_id::text), '{}') from ledger.ecb_rate_day_projection) as import_ids`,
      )
    ).rows[0]!;

  beforeAll(async () => {
    db = await freshDatabase();
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    // The template's ledger projection is complete: empty it, as a ledger that started against a fresh NATS stream has it.
    await sql.query('delete from ledger.rate_release_projection; delete from ledger.ecb_rate_day_projection; delete from ledger.reference_projection_version');
    const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '50', DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    const transports = routerTransports(running, config);
    for (const name of ['calculation', 'ledger'] as const) running.push(await startService(MODULES[name], config, db.url, bus, pino({ level: 'silent' }), 2, transports));
    ledger = running[1]!;
    await bus.subscribe({ durable: 'test-reference-data', subjects: REFERENCE_SUBJECTS, handler: async (batch) => void carried.push(...batch) });
    // No relay is started: every outbox row the template left is published already, so only an answer can fill the projection.
    bus.open();
  }, 120_000);

  afterAll(async () => {
    for (const s of running.reverse()) await s.stop();
    await bus.close();
    await sql?.end();
    await db?.drop();
  });

  it('the ledger is not ready with an empty projection; started, it asks and is ready with every ECB day and the current release', async () => {
    const before = await ledger.readiness();
    expect(before.ready).toBe(false);
    expect(before.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['ledger.projection.vat_rates', 'ledger.projection.ecb_rates']);
    expect(await projection()).toEqual({ releases: [], days: 0, last_day: null, import_ids: [] });

    ledger.started();
    // The in-process bus hands the request to calculation and its answer to the ledger before the publish resolves.
    await expect.poll(async () => (await ledger.readiness()).ready, { timeout: 10_000 }).toBe(true);

    const calc = (
      await sql.query<{ release: string; days: number; last_day: string; published_ms: string }>(
        `select (select max(id)::text from calculation.reference_release where kind = 'vat_rates') as release,
                (select count(*)::int from calculation.ecb_rate_day) as days,
                (select max(rate_date)::text from calculation.ecb_rate_day) as last_day,
                (select (extract(epoch from max(published_at)) * 1000)::bigint::text from calculation.reference_publication where kind = 'ecb') as published_ms`,
      )
    ).rows[0]!;
    // Every stored day, under the publication order of the newest import (a later import, with a larger order, wins over this answer).
    expect(await projection()).toEqual({ releases: [calc.release], days: calc.days, last_day: calc.last_day, import_ids: [calc.published_ms] });
    // 6,983 days at 250 a message: 27 full ones and one of 233 (27 × 250 + 233 = 6,983), plus the release.
    const ecb = carried.filter((m) => m.subject === REFERENCE_SUBJECTS[1]);
    expect(calc.days).toBe(6983);
    expect(ecb.map((m) => decodeEvent(ExchangeRatesPublishedSchema, m.data).days.length)).toEqual([...Array(27).fill(250), 233]);
    expect(carried.filter((m) => m.subject === REFERENCE_SUBJECTS[0]).map((m) => decodeEvent(RateReleasePublishedSchema, m.data).releaseId.toString())).toEqual([calc.release]);
  }, 60_000);

  it('requests made before an answer are served by it: a burst costs one answer; a later request gets another, of the kinds it names only', async () => {
    carried.length = 0;
    const t = Date.now();
    // The first is answered; the second, made a millisecond before the first and so before its answer was read, is not.
    await bus.publish([referenceDataRequest('ledger', ['ecb'], new Date(t))]);
    await bus.publish([referenceDataRequest('compliance-reports', ['ecb'], new Date(t - 1))]);
    expect(carried.filter((m) => m.subject === REFERENCE_SUBJECTS[1])).toHaveLength(28);
    await new Promise((r) => setTimeout(r, 5));
    await bus.publish([referenceDataRequest('ledger', ['vat_rates'], new Date())]);
    expect(carried.map((m) => m.subject)).toEqual([...Array(28).fill(REFERENCE_SUBJECTS[1]), REFERENCE_SUBJECTS[0]]);
  });
});
