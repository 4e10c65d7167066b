import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { CalculationRecordedSchema, ExchangeRatesPublishedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { SupplyLedgerService } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { SupplyEventRejectionsSchema, type SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { buildEvent } from '@vat/platform/events';
import { createOrm, migrate, ormPool, pendingMigrations } from '@vat/platform/db';
import { applyReferenceData, ReferenceProjection } from '@vat/platform/reference-projection';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { endPool } from '../../../test/support/pools';
import { ledgerModule } from '../src/module';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { LedgerDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

const linked = (eventId: string, calculationId: string): SupplyEventInput =>
  ({ eventId, eventType: 'sale', occurredAt: '2026-02-10', supplyKind: 'services', customerType: 'b2c', rateCategory: 'standard', classificationStatus: 'classified', calculationId }) as SupplyEventInput;

/** A `CalculationRecorded` as calculation publishes it: DE, 100.00 EUR net at 19 % (VAT 19.00). */
function recorded(accountId: bigint, calculationId: string) {
  const e = buildEvent(CalculationRecordedSchema, { calculationId, accountId, apiKeyId: 1n, country: 'DE', currency: 'EUR', taxClassId: 'standard', vatRateBps: 1900, netAmountMinor: 10_000n, vatAmountMinor: 1_900n, grossAmountMinor: 11_900n, transactionDate: '2026-02-10', recordedAt: new Date().toISOString() });
  return { id: e.id, subject: e.subject, data: e.payload };
}

/** The ledger's own projections of calculation's data: the lag rule, and the reference data it reads (service, PostgreSQL). */
describe.skipIf(!backends.ok)('the ledger projection of calculations and reference data', () => {
  let h: ServiceHarness<LedgerDeps>;
  beforeAll(async () => {
    h = await startServiceHarness<LedgerDeps>('ledger');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('holds the seeded reference data of a fresh start (tax classes, rates in force, ECB days)', async () => {
    const release = await h.deps.reference.rateRelease();
    expect(release?.taxClassIds.has('standard')).toBe(true);
    expect(release?.ratesInForce.some((r) => r.country === 'DE' && r.rateBps === 1900 && r.rateType === 'standard')).toBe(true);
    expect((await h.deps.reference.ecbRates()).rateOnOrPreviousPublication('USD', '2026-04-13')?.rate.decimal).toBe('1.1684');
  });

  it('readiness counts the projected ECB rates in the database, and says what the loaded table holds', async () => {
    const fresh = new ReferenceProjection(h.deps.pool, 'ledger');
    const before = (await fresh.probes('ledger')).find((p) => p.name === 'ledger.projection.ecb_rates');
    // The shipped history (README): 217,555 rates, 1999-01-04 to 2026-04-13.
    expect(before).toEqual({ name: 'ledger.projection.ecb_rates', ok: true, detail: '217555 ECB rates to 2026-04-13' });
    // The count readiness sums is the number of currencies each stored day's JSON holds.
    const counted = await h.deps.pool.query(`select count(*)::int as wrong from ledger.ecb_rate_day_projection where rate_count <> (select count(*) from jsonb_object_keys(rates))`);
    expect(counted.rows[0].wrong).toBe(0);
    const table = await fresh.ecbRates();
    expect([table.size, table.lastPublicationDate()]).toEqual([217_555, '2026-04-13']);
    expect((await fresh.probes('ledger')).find((p) => p.name === 'ledger.projection.ecb_rates')).toEqual(before);
  });

  it('is complete only when it holds every ECB day calculation announced: until then not ready, and conversions wait, then 503', async () => {
    const held = async () => (await h.deps.pool.query<{ days: number; expected: number }>(
      `select (select count(*)::int from ledger.ecb_rate_day_projection) as days, (select expected_rows::int from ledger.reference_projection_version where kind = 'ecb') as expected`,
    )).rows[0]!;
    // The seeded history was announced with its count: 6,983 days held, 6,983 expected.
    expect(await held()).toEqual({ days: 6983, expected: 6983 });
    const chunk = (date: string, daysHeld: bigint) => {
      const e = buildEvent(ExchangeRatesPublishedSchema, { importId: 1_000_000n, daysHeld, days: [{ date, rates: { USD: '1.5' } }] });
      return { id: e.id, subject: e.subject, data: e.payload };
    };
    // The first of two chunks of a publication announcing 6,985 days: 6,984 held.
    await applyReferenceData(h.deps.pool, 'ledger', [chunk('1998-12-30', 6985n)], new Date());
    const fresh = new ReferenceProjection(h.deps.pool, 'ledger');
    expect(await fresh.missing()).toEqual(['ecb']);
    expect((await fresh.probes('ledger')).find((p) => p.name === 'ledger.projection.ecb_rates')).toEqual({ name: 'ledger.projection.ecb_rates', ok: false, detail: 'receiving ECB days from calculation: 6984 of 6985' });
    const t0 = Date.now();
    const err = await fresh.requireEcbRates().then(() => undefined, (e) => ConnectError.from(e));
    expect([err?.code, err?.rawMessage]).toEqual([Code.Unavailable, expect.stringContaining('ECB reference rates')]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    // A conversion asked for now waits, and answers once the second chunk arrives (an older announcement changes nothing).
    const waiting = fresh.requireEcbRates();
    await new Promise((r) => setTimeout(r, 200));
    await applyReferenceData(h.deps.pool, 'ledger', [chunk('1998-12-29', 6984n)], new Date());
    expect((await waiting).publicationDates().slice(0, 2)).toEqual(['1998-12-29', '1998-12-30']);
    expect([await fresh.missing(), (await fresh.probes('ledger')).every((p) => p.ok), await held()]).toEqual([[], true, { days: 6985, expected: 6985 }]);
    await h.deps.pool.query(`delete from ledger.ecb_rate_day_projection where rate_date in ('1998-12-29', '1998-12-30')`);
    await h.deps.pool.query(`update ledger.reference_projection_version set version = version + 1, expected_rows = 6983 where kind = 'ecb'`);
  });

  it('waits for a calculation recorded a moment after the commit began (lag rule), and refuses an id that never arrives as before', async () => {
    const ledger = h.client(SupplyLedgerService);
    const as = h.as({ accountId: 611n });
    const calculationId = randomUUID();
    const commit = ledger.commitSupplyEvents({ events: [linked('lag-1', calculationId)] }, as);
    // The event reaches the projection 300 ms later, inside the 2 s the commit waits.
    await new Promise((r) => setTimeout(r, 300));
    await h.deps.calculationSummaries.apply([recorded(611n, calculationId)]);
    const res = await commit;
    // Filled from the calculation: 10,000 net, 1,900 VAT at 1,900 bps in DE.
    expect(res.items[0]!.event).toMatchObject({ countryOfConsumption: 'DE', currency: 'EUR', netAmountMinor: 10_000n, vatAmountMinor: 1_900n, vatRateBps: 1900 });

    // Another account's calculation and an id nobody recorded: the same refusal as an unknown id.
    for (const id of [calculationId, randomUUID()]) {
      const err = await ledger.commitSupplyEvents({ events: [linked(`lag-${id}`, id)] }, h.as({ accountId: 612n })).then(() => undefined, (e) => ConnectError.from(e));
      expect(err?.code).toBe(Code.InvalidArgument);
      expect(err!.findDetails(SupplyEventRejectionsSchema)[0]!.items).toContainEqual(expect.objectContaining({ field: 'calculation_id', error: 'calculation_not_found' }));
    }
  });

  it('a redelivered CalculationRecorded changes nothing; an ECB day is replaced only by the same or a later import', async () => {
    const calculationId = randomUUID();
    await h.deps.calculationSummaries.apply([recorded(613n, calculationId), recorded(613n, calculationId)]);
    await h.deps.calculationSummaries.apply([recorded(613n, calculationId)]);
    expect([...(await h.deps.calculationSummaries.owned(613n, [calculationId])).keys()]).toEqual([calculationId]);

    const day = (importId: bigint, rate: string) => {
      const e = buildEvent(ExchangeRatesPublishedSchema, { importId, days: [{ date: '1998-12-31', rates: { USD: rate } }] });
      return { id: e.id, subject: e.subject, data: e.payload };
    };
    const rateOn = async () => (await h.deps.pool.query(`select rates->>'USD' as usd from ledger.ecb_rate_day_projection where rate_date = '1998-12-31'`)).rows[0]?.usd;
    await applyReferenceData(h.deps.pool, 'ledger', [day(1_000_001n, '1.5')], new Date());
    await applyReferenceData(h.deps.pool, 'ledger', [day(1_000_000n, '1.4')], new Date());
    expect(await rateOn()).toBe('1.5');
    await applyReferenceData(h.deps.pool, 'ledger', [day(1_000_002n, '1.6')], new Date());
    expect(await rateOn()).toBe('1.6');
    // The in-memory table follows the version row.
    expect((await h.deps.reference.ecbRates()).rateOnOrPreviousPublication('USD', '1999-01-01')?.rate.decimal).toBe('1.6');
    await h.deps.pool.query(`delete from ledger.ecb_rate_day_projection where rate_date = '1998-12-31'`);
    await h.deps.pool.query(`update ledger.reference_projection_version set version = version + 1 where kind = 'ecb'`);
  });
});

describe.skipIf(!backends.ok)('upgrading a ledger database whose ECB days were projected before they carried their count', () => {
  it('counts the currencies of every day it already held, and readiness says so', async () => {
    const db = await freshDatabase({ empty: true });
    const mod = ledgerModule;
    const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations });
    try {
      await orm.em.getConnection().execute(`create schema "${mod.schema}"`);
      await orm.migrator.up({ to: 'Migration20261128190000' });
      await orm.em.getConnection().execute(
        `insert into ledger.ecb_rate_day_projection (rate_date, rates, import_id) values ('2026-04-10', '{"USD": "1.1650", "JPY": "186.10", "GBP": "0.8601"}', 1), ('2026-04-13', '{"USD": "1.1684"}', 1)`,
      );
      await orm.em.getConnection().execute(`insert into ledger.reference_projection_version (kind, version, expected_rows) values ('ecb', 1, 2)`);
      expect(await pendingMigrations(orm)).toHaveLength(1);
      await migrate(orm, db.url, mod.schema);
      const pool = await ormPool(orm);
      expect((await pool.query(`select rate_date, rate_count from ledger.ecb_rate_day_projection order by rate_date`)).rows).toEqual([
        { rate_date: '2026-04-10', rate_count: 3 },
        { rate_date: '2026-04-13', rate_count: 1 },
      ]);
      // 3 + 1 = 4 rates over the two days held.
      expect((await new ReferenceProjection(pool, 'ledger').probes('ledger')).find((p) => p.name === 'ledger.projection.ecb_rates')).toEqual({ name: 'ledger.projection.ecb_rates', ok: true, detail: '4 ECB rates to 2026-04-13' });
    } finally {
      await endPool(await ormPool(orm), () => orm.close());
      await db.drop();
    }
  });
});
