import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';

/** A catalog edition (CN year or CPA version); only `approved` editions answer code lookups. */
export const CatalogEdition = defineEntity({
  name: 'CatalogEdition',
  tableName: 'catalog_edition',
  properties: {
    id: p.bigint().primary().autoincrement(),
    scheme: p.string().length(3),
    version: p.string().length(40),
    status: p.string().length(20),
    applicableFrom: p.string().length(10),
    applicableTo: p.string().length(10).nullable(),
    digest: p.string().length(80),
    approvedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['scheme', 'version', 'digest'] }],
});

/** One exact code of an approved edition. */
export const CatalogCode = defineEntity({
  name: 'CatalogCode',
  tableName: 'catalog_code',
  properties: {
    id: p.bigint().primary().autoincrement(),
    editionId: p.bigint().index(),
    normalizedCode: p.string().length(20),
    displayCode: p.string().length(24),
    description: p.text(),
    sourceUrl: p.string().length(500),
    recordedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['editionId', 'normalizedCode'] }],
});

/** Published coverage manifests; resolution stays `needs_review` until `classification_coverage_v1` exists. */
export const CoverageManifest = defineEntity({
  name: 'CoverageManifest',
  tableName: 'coverage_manifest',
  properties: {
    name: p.string().length(60).primary(),
    digest: p.string().length(80),
    publishedAt: p.datetime(),
  },
});

export const Outbox = defineOutboxEntity();
export const classificationEntities = [CatalogEdition, CatalogCode, CoverageManifest, Outbox];
