import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';

/**
 * One imported catalog file: a candidate `under_review` until a second operator approves it. An approved
 * revision is immutable (a trigger refuses UPDATE and DELETE); a correction is a new revision of the same
 * edition, and the newest approved revision of an edition is the one served.
 */
export const CatalogEdition = defineEntity({
  name: 'CatalogEdition',
  tableName: 'catalog_edition',
  properties: {
    id: p.bigint().primary().autoincrement(),
    scheme: p.string().length(3),
    version: p.string().length(10),
    revision: p.integer(),
    status: p.string().length(20),
    legalFrom: p.date(),
    legalTo: p.date().nullable(),
    legalAct: p.string().length(500),
    sourceUrl: p.string().length(500),
    fileName: p.string().length(300),
    fileSha256: p.string().length(64),
    rawFile: p.blob(),
    layout: p.string().length(40),
    codesDigest: p.string().length(64),
    digest: p.string().length(80),
    rowCount: p.integer(),
    levelCounts: p.json<Record<string, number>>(),
    diff: p.json<Record<string, unknown>>(),
    baseEditionId: p.bigint().nullable(),
    importedBy: p.string().length(100),
    retrievedAt: p.datetime(),
    approvedBy: p.string().length(100).nullable(),
    approvedAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['scheme', 'version', 'revision'] }],
});

/** One code of an edition; rows of an approved edition cannot change (trigger). */
export const CatalogCode = defineEntity({
  name: 'CatalogCode',
  tableName: 'catalog_code',
  properties: {
    editionId: p.bigint().primary().autoincrement(false),
    code: p.string().length(12).primary(),
    displayCode: p.string().length(16),
    level: p.string().length(20),
    parentCode: p.string().length(12).nullable(),
    selfText: p.text(),
    legalText: p.text(),
    includes: p.text().nullable(),
    excludes: p.text().nullable(),
    conceptId: p.string().length(20),
    position: p.integer(),
  },
});

/** An operator of the admin workflow; the TOTP secret is AES-256-GCM encrypted, the last accepted step kept. */
export const Operator = defineEntity({
  name: 'Operator',
  tableName: 'operator',
  properties: {
    id: p.bigint().primary().autoincrement(),
    name: p.string().length(100).unique(),
    totpSecret: p.blob(),
    lastTotpStep: p.bigint().nullable(),
    createdAt: p.datetime(),
  },
});

/** Append-only audit log of every operator action, accepted or refused (a trigger refuses UPDATE and DELETE). */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  properties: {
    id: p.bigint().primary().autoincrement(),
    at: p.datetime(),
    operator: p.string().length(100),
    action: p.string().length(40),
    target: p.string().length(100).nullable(),
    outcome: p.string().length(10),
    reason: p.string().length(60).nullable(),
    detail: p.json<Record<string, unknown>>(),
  },
});

/** A coverage manifest version: `under_review` until published by a second operator, then immutable. */
export const CoverageManifest = defineEntity({
  name: 'CoverageManifest',
  tableName: 'coverage_manifest',
  properties: {
    id: p.bigint().primary().autoincrement(),
    name: p.string().length(60),
    version: p.integer(),
    status: p.string().length(20),
    fileName: p.string().length(300),
    fileSha256: p.string().length(64),
    rawFile: p.blob(),
    digest: p.string().length(80),
    ruleCount: p.integer(),
    importedBy: p.string().length(100),
    importedAt: p.datetime(),
    publishedBy: p.string().length(100).nullable(),
    publishedAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['name', 'version'] }],
});

/** One mapping rule of a manifest. */
export const CoverageRule = defineEntity({
  name: 'CoverageRule',
  tableName: 'coverage_rule',
  properties: {
    manifestId: p.bigint().primary().autoincrement(false),
    ruleId: p.string().length(100).primary(),
    jurisdiction: p.string().length(2),
    scheme: p.string().length(3),
    catalogVersion: p.string().length(10),
    code: p.string().length(12),
    coverage: p.string().length(10),
    legalFrom: p.date(),
    legalTo: p.date().nullable(),
    taxClassId: p.string().length(60),
    supplyKind: p.string().length(30),
    status: p.string().length(20),
    legalReference: p.string().length(500),
  },
  indexes: [{ properties: ['manifestId', 'scheme', 'catalogVersion', 'code'] }],
});

/** One immutable revision of a product-code assignment; the highest revision is the head. */
export const AssignmentRevision = defineEntity({
  name: 'AssignmentRevision',
  tableName: 'assignment_revision',
  properties: {
    id: p.uuid().primary(),
    assignmentId: p.uuid(),
    revision: p.integer(),
    accountId: p.bigint(),
    integrationId: p.bigint(),
    productReference: p.string().length(200),
    variantReference: p.string().length(200).nullable(),
    state: p.string().length(20),
    scheme: p.string().length(3),
    exactCode: p.string().length(12),
    displayCode: p.string().length(16),
    validFrom: p.date(),
    validTo: p.date().nullable(),
    validToSource: p.string().length(20),
    catalogVersion: p.string().length(10),
    catalogEditionId: p.bigint(),
    catalogDigest: p.string().length(80),
    requestDigest: p.string().length(64),
    backdated: p.boolean(),
    attestation: p.json<Record<string, string>>().nullable(),
    impactReview: p.string().length(20).nullable(),
    apiKeyId: p.bigint(),
    createdAt: p.datetime(),
  },
  uniques: [{ properties: ['assignmentId', 'revision'] }],
  indexes: [{ properties: ['accountId', 'integrationId', 'productReference'] }, { properties: ['accountId', 'createdAt'] }],
});

/** Durable background reprocessing, one pending job per (account, integration, product). */
export const ReprocessJob = defineEntity({
  name: 'ReprocessJob',
  tableName: 'reprocess_job',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint(),
    integrationId: p.bigint(),
    productReference: p.string().length(200),
    reason: p.string().length(40),
    status: p.string().length(20),
    attempts: p.integer(),
    outcome: p.json<Record<string, number>>().nullable(),
    enqueuedAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  indexes: [{ properties: ['status', 'enqueuedAt'] }],
});

export const Outbox = defineOutboxEntity();
export const classificationEntities = [CatalogEdition, CatalogCode, Operator, AuditEntry, CoverageManifest, CoverageRule, AssignmentRevision, ReprocessJob, Outbox];
