import { fromBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { SourceProfileChangedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { requireBackends } from '../../../test/support/env';
import { startServiceHarness, type ServiceHarness } from '../../../test/support/service-harness';
import type { CalculationDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('SourceProfileChanged: every stored state of a profile is published (service, PostgreSQL)', () => {
  let h: ServiceHarness<CalculationDeps>;
  const acme = { accountId: 311n, apiKeyId: 31n };
  beforeAll(async () => {
    h = await startServiceHarness<CalculationDeps>('calculation');
  });
  afterAll(async () => h?.close());

  /** The account's profile events in the outbox, oldest first. */
  async function events(accountId: bigint) {
    const rows = (await h.deps.pool.query<{ payload: Buffer }>(`select payload from calculation.outbox where subject = 'vat.calculation.v1.source_profile_changed' order by created_at, id`)).rows;
    return rows.map((r) => fromBinary(SourceProfileChangedSchema, r.payload)).filter((e) => e.accountId === accountId);
  }

  it('a create and an update each write their revision to the outbox with the stored profile', async () => {
    const sources = h.client(SourceService);
    const created = (await sources.createSource({ sourceKey: 'shop/de', displayName: 'DE shop', channelType: 'owned_store', supplierEstablishmentCountry: 'DE', dispatchCountry: 'DE' }, h.as(acme))).source!;
    await sources.updateSource({ id: created.id.toString(), supplierEstablishmentCountry: 'FR', active: false }, h.as(acme));
    const published = await events(acme.accountId);
    expect(published.map((e) => [e.revision, e.profile?.sourceKey, e.profile?.supplierEstablishmentCountry, e.profile?.dispatchCountry, e.profile?.active])).toEqual([
      [1, 'shop/de', 'DE', 'DE', true],
      [2, 'shop/de', 'FR', 'DE', false],
    ]);
    expect(new Set(published.map((e) => e.eventId)).size).toBe(2);
    // A refused write publishes nothing.
    await expect(sources.createSource({ sourceKey: 'shop/de', displayName: 'again', channelType: 'owned_store' }, h.as(acme))).rejects.toThrow();
    expect(await events(acme.accountId)).toHaveLength(2);
  });

  it('profiles stored before the event existed are published once at start (their latest revision)', async () => {
    const older = { accountId: 312n, apiKeyId: 32n };
    await h.client(SourceService).createSource({ sourceKey: 'legacy', displayName: 'legacy', channelType: 'marketplace', dispatchCountry: 'PL' }, h.as(older));
    // As before the upgrade: the revision is stored, its publication is not.
    await h.deps.pool.query(`delete from calculation.outbox where subject = 'vat.calculation.v1.source_profile_changed'`);
    await h.deps.pool.query(`delete from calculation.source_profile_publication`);
    const first = await h.deps.sourceProfiles.publishUnpublished(new Date());
    expect(first).toBe(2); // this account's profile and the one above
    expect((await events(older.accountId)).map((e) => [e.revision, e.profile?.sourceKey, e.profile?.dispatchCountry])).toEqual([[1, 'legacy', 'PL']]);
    expect((await events(acme.accountId)).map((e) => e.revision)).toEqual([2]);
    expect(await h.deps.sourceProfiles.publishUnpublished(new Date())).toBe(0);
  });
});
