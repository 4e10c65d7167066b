import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';

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
export const thresholdEntities = [SmeThresholdRelease, Outbox];
