import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineInboxEntity, defineOutboxEntity } from '@vat/platform/outbox';
import { defineSupplyProjectionEntities } from '@vat/platform/supply-projection';

/** A loaded release of the SME threshold data set (the seeded, cited JSON), keyed by its digest. */
export const SmeThresholdRelease = defineEntity({
  name: 'SmeThresholdRelease',
  tableName: 'sme_threshold_release',
  properties: {
    digest: p.string().length(80).primary(),
    document: p.json<unknown>(),
    rowCount: p.integer(),
    loadedAt: p.datetime(),
  },
});

export const Outbox = defineOutboxEntity();
export const ProcessedEvent = defineInboxEntity();
export const { SupplyFact, ProjectionPosition } = defineSupplyProjectionEntities();
export const thresholdEntities = [SmeThresholdRelease, Outbox, ProcessedEvent, SupplyFact, ProjectionPosition];
