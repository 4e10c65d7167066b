import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceProfileChangedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { BusMessage } from '@vat/platform/bus';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { ThresholdsDeps } from '../src/context';
import { sourceProfileConsumer, thresholdsProjectionConsumer } from '../src/projection';

const backends = await requireBackends(['postgres']);

function profileChanged(accountId: bigint, sourceKey: string, revision: number, establishment?: string, dispatch?: string): BusMessage {
  const id = randomUUID();
  const profile = { id: 7n, sourceKey, displayName: sourceKey, channelType: 'owned_store', supplierEstablishmentCountry: establishment, dispatchCountry: dispatch, active: true, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
  return { id, subject: 'vat.calculation.v1.source_profile_changed', data: toBinary(SourceProfileChangedSchema, create(SourceProfileChangedSchema, { eventId: id, accountId, profile, revision })) };
}

/** A B2C goods sale to FR that states neither its establishment nor its dispatch, only its source. */
function defaultedSale(accountId: bigint, sequence: number, eventId: string, net: bigint, sourceId: string): BusMessage {
  const supplyEvent = create(SupplyEventSchema, {
    id: randomUUID(), accountId, sequence: BigInt(sequence), recordedAt: new Date(Date.UTC(2026, 10, 1, 0, 0, sequence)).toISOString(), eventId, eventType: 'sale',
    occurredAt: `2026-0${sequence}-10T00:00:00.000Z`, supplyKind: 'goods', customerType: 'b2c', countryOfConsumption: 'FR', currency: 'EUR',
    netAmountMinor: net, vatAmountMinor: (net * 2000n) / 10000n, vatRateBps: 2000, rateCategory: 'standard', classificationStatus: 'classified', sourceId,
  });
  const id = randomUUID();
  return { id, subject: 'vat.ledger.v1.supply_committed', data: toBinary(SupplyCommittedSchema, create(SupplyCommittedSchema, { eventId: id, supplyEvent })) };
}

describe.skipIf(!backends.ok)('source-profile defaults: thresholds projection of SourceProfileChanged (service, PostgreSQL)', () => {
  let h: ServiceHarness<ThresholdsDeps>;
  const q = async (sql: string, params: unknown[] = []) => (await h.deps.pool.query(sql, params)).rows;

  beforeAll(async () => {
    h = await startServiceHarness<ThresholdsDeps>('thresholds');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps the newest revision of each profile, whatever the delivery order, and applies a redelivery once', async () => {
    const consumer = sourceProfileConsumer(h.deps);
    const acct = 9101n;
    const r1 = profileChanged(acct, 'shop', 1, 'DE', 'DE');
    const r2 = profileChanged(acct, 'shop', 2, 'FR');
    await consumer.handler([r2]);
    await consumer.handler([r1, r2]);
    expect(await h.deps.profileDefaults.of(acct)).toEqual(new Map([['shop', { supplierEstablishmentCountry: 'FR', dispatchCountry: undefined }]]));
    expect(await q(`select revision from thresholds.source_profile_default where account_id = $1`, [acct.toString()])).toEqual([{ revision: 2 }]);
    expect(await h.deps.profileDefaults.of(9102n)).toEqual(new Map());
  });

  it('a profile applied after the events relying on it proves their crossing then, once', async () => {
    const supplies = thresholdsProjectionConsumer(h.deps);
    const profiles = sourceProfileConsumer(h.deps);
    const acct = 9103n;
    // 600,000 + 500,000 = 1,100,000 > 1,000,000 (DE threshold), but only with the profile's DE/DE defaults.
    await supplies.handler([defaultedSale(acct, 1, 's1', 600_000n, 'shop-de'), defaultedSale(acct, 2, 's2', 500_000n, 'shop-de')]);
    expect(await q(`select count(*)::int as n from thresholds.article59c_crossing where account_id = $1`, [acct.toString()])).toEqual([{ n: 0 }]);
    const profile = profileChanged(acct, 'shop-de', 1, 'DE', 'DE');
    await profiles.handler([profile]);
    await profiles.handler([profile]);
    expect(await q(`select event_id, cumulative_minor::text as c, establishment_country from thresholds.article59c_crossing where account_id = $1`, [acct.toString()])).toEqual([
      { event_id: 's2', c: '1100000', establishment_country: 'DE' },
    ]);
    expect(await q(`select kind, event_id from thresholds.threshold_notification where account_id = $1 order by id`, [acct.toString()])).toEqual([
      { kind: 'article_59c_warning_band_entered', event_id: 's2' },
      { kind: 'article_59c_threshold_crossed', event_id: 's2' },
    ]);
  });
});
