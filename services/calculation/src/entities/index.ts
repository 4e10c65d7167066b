import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';

/** A loaded reference-data release (tax classes + rates, or ECB rates), keyed by content digest. */
export const ReferenceRelease = defineEntity({
  name: 'ReferenceRelease',
  tableName: 'reference_release',
  properties: {
    id: p.bigint().primary().autoincrement(),
    kind: p.string().length(20),
    digest: p.string().length(80),
    version: p.string().length(40),
    rowCount: p.integer(),
    loadedAt: p.datetime(),
    approvedAt: p.datetime().nullable(),
    approvedBy: p.string().length(200).nullable(),
  },
  uniques: [{ properties: ['kind', 'digest'] }],
});

export const TaxClass = defineEntity({
  name: 'TaxClass',
  tableName: 'tax_class',
  properties: {
    id: p.string().length(60).primary(),
    name: p.string().length(200),
    description: p.text(),
    source: p.text(),
    groupSlug: p.string().length(60),
    groupName: p.string().length(200),
    tags: p.json<string[]>(),
    annexIiiPoints: p.json<string[]>(),
    sortOrder: p.integer(),
  },
});

/** Cited sources behind a rate window, copied from the seed file. */
export type RateSource = { source_id: string; title: string; url: string; as_of: string };

/** A dated rate window [validFrom, validTo) of one class in one Member State. */
export const VatRate = defineEntity({
  name: 'VatRate',
  tableName: 'vat_rate',
  properties: {
    id: p.bigint().primary().autoincrement(),
    releaseId: p.bigint().index(),
    country: p.string().length(2),
    taxClassId: p.string().length(60),
    rateBps: p.integer(),
    validFrom: p.string().length(10),
    validTo: p.string().length(10).nullable(),
    rateType: p.string().length(20),
    conditional: p.boolean(),
    conditions: p.text().nullable(),
    sources: p.json<RateSource[]>(),
    legalRef: p.text().nullable(),
    tedbCategory: p.text().nullable(),
    reviewStatus: p.string().length(30),
    note: p.text().nullable(),
    rowDigest: p.string().length(80),
  },
  indexes: [{ properties: ['releaseId', 'country', 'taxClassId', 'validFrom'] }],
});

/**
 * A dated rate [validFrom, validTo) in force only in one region of a Member State (ISO 3166-2, e.g.
 * PT-30 Madeira), not per class: the rates a supply event naming that region may carry.
 */
export const RegionalVatRate = defineEntity({
  name: 'RegionalVatRate',
  tableName: 'regional_vat_rate',
  properties: {
    id: p.bigint().primary().autoincrement(),
    releaseId: p.bigint().index(),
    country: p.string().length(2),
    region: p.string().length(6),
    rateBps: p.integer(),
    validFrom: p.string().length(10),
    validTo: p.string().length(10).nullable(),
    rateType: p.string().length(20),
    sources: p.json<RateSource[]>(),
    legalRef: p.text().nullable(),
    reviewStatus: p.string().length(30),
    note: p.text().nullable(),
    rowDigest: p.string().length(80),
  },
});

/**
 * Seed files recognised by their bytes: the files with `files_digest` (`seedFilesDigest`) were loaded as the VAT
 * rate release `release_digest`. A restart hashes the files and, finding them here, skips parsing, validating
 * and canonicalising them (≈ 30 ms). Written after the release is stored (or found stored); insert-only.
 */
export const RateReleaseSeedFiles = defineEntity({
  name: 'RateReleaseSeedFiles',
  tableName: 'rate_release_seed_files',
  properties: {
    filesDigest: p.string().length(80).primary(),
    releaseDigest: p.string().length(80),
    recordedAt: p.datetime(),
  },
});

/**
 * One ECB publication day: every currency quoted that day mapped to its units per 1 EUR, as canonical exact
 * decimal strings (`{"USD":"1.1684","JPY":"186.75"}`). A day per row keeps the 25-year history at ~7,000 rows.
 */
export const EcbRateDay = defineEntity({
  name: 'EcbRateDay',
  tableName: 'ecb_rate_day',
  properties: {
    rateDate: p.date().primary(),
    rates: p.json<Record<string, string>>().columnType('json'),
  },
});

/**
 * The whole ECB history as one text (`EcbRateTable.snapshot()`: a line of currencies, then a line of rates per
 * publication day), made at the import marker it is named by (`ecbState`): a start or a reload reads this one
 * row instead of aggregating ~7,000 day rows (about a sixth of the CPU). Derived from `ecb_rate_day`, never the
 * other way round: each import replaces it in its own transaction, and a reader that finds none for the current
 * marker makes it from the days.
 */
export const EcbRateSnapshot = defineEntity({
  name: 'EcbRateSnapshot',
  tableName: 'ecb_rate_snapshot',
  properties: {
    marker: p.string().length(60).primary(),
    body: p.text(),
    createdAt: p.datetime(),
  },
});

/** A stored calculation (the transaction record), with its sealed evidence. */
export const Calculation = defineEntity({
  name: 'Calculation',
  tableName: 'calculation',
  properties: {
    seq: p.bigint().primary().autoincrement(),
    id: p.uuid().unique(),
    accountId: p.bigint(),
    apiKeyId: p.bigint(),
    createdAt: p.datetime(),
    transactionDate: p.datetime(),
    country: p.string().length(2),
    currency: p.string().length(3),
    taxClassId: p.string().length(60),
    priceIncludesVat: p.boolean(),
    amountMinor: p.bigint(),
    netMinor: p.bigint(),
    vatMinor: p.bigint(),
    grossMinor: p.bigint(),
    vatRateBps: p.integer(),
    sourceId: p.string().length(100).nullable(),
    idempotencyKey: p.string().length(255).nullable(),
    requestDigest: p.string().length(80),
    canonicalRequest: p.json<Record<string, unknown>>(),
    /** The rate evidence inline (calculations stored before 2026-11-29), else null and named by rateEvidenceDigest. */
    rateEvidence: p.json<Record<string, unknown>>().nullable(),
    /** The `rate_evidence_doc` holding this calculation's rate evidence (one per rate window of a release). */
    rateEvidenceDigest: p.string().length(80).nullable(),
    rateEvidenceStatus: p.string().length(30),
    replayStatus: p.string().length(20),
    calculationVersion: p.string().length(60),
    executionDigest: p.string().length(80),
    manifestDigest: p.string().length(80),
  },
  indexes: [
    { properties: ['accountId', 'seq'] },
    { properties: ['accountId', 'transactionDate'] },
    { properties: ['accountId', 'sourceId'] },
  ],
  uniques: [{ properties: ['accountId', 'idempotencyKey'] }],
});

/**
 * The rate evidence of a window of a release, stored once and named by the SHA-256 of its JSON text: every
 * calculation pinned to that window refers to it (`calculation.rate_evidence_digest`). Append-only by trigger.
 */
export const RateEvidenceDoc = defineEntity({
  name: 'RateEvidenceDoc',
  tableName: 'rate_evidence_doc',
  properties: {
    digest: p.string().length(80).primary(),
    doc: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});

/** Account-owned label and channel definition for a raw source tag. */
export const SourceProfile = defineEntity({
  name: 'SourceProfile',
  tableName: 'source_profile',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint(),
    sourceKey: p.string().length(100),
    displayName: p.string().length(200),
    channelType: p.string().length(20),
    platform: p.string().length(100).nullable(),
    defaultCountry: p.string().length(2).nullable(),
    defaultCurrency: p.string().length(3).nullable(),
    supplierEstablishmentCountry: p.string().length(2).nullable(),
    dispatchCountry: p.string().length(2).nullable(),
    marketplaceDeemedSupplier: p.boolean(),
    active: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ properties: ['accountId', 'sourceKey'] }],
});

/**
 * Every state of a source profile, written by a database trigger on each insert and update of
 * `source_profile` (so no code path can skip one); immutable by trigger. A v2 decision seals one.
 */
export const SourceProfileRevision = defineEntity({
  name: 'SourceProfileRevision',
  tableName: 'source_profile_revision',
  properties: {
    id: p.bigint().primary().autoincrement(),
    profileId: p.bigint(),
    accountId: p.bigint(),
    revision: p.integer(),
    snapshot: p.json<Record<string, unknown>>(),
    digest: p.string().length(80),
    recordedAt: p.datetime(),
  },
  uniques: [{ properties: ['profileId', 'revision'] }],
});

/**
 * The latest revision of each source profile written to the outbox as `SourceProfileChanged` (with the
 * outbox row, in the transaction that stored the revision): at start, a profile whose latest revision is
 * newer, such as one stored before the event existed, is published then.
 */
export const SourceProfilePublication = defineEntity({
  name: 'SourceProfilePublication',
  tableName: 'source_profile_publication',
  properties: {
    profileId: p.bigint().primary().autoincrement(false),
    revision: p.integer(),
    eventId: p.uuid(),
    recordedAt: p.datetime(),
  },
});

/**
 * What calculation has published of its reference data and stored calculations for the other services'
 * projections (`RateReleasePublished`, `ExchangeRatesPublished`, `CalculationRecorded`): one row per
 * published VAT rate release and ECB import (`kind`, the release id), and `('calculations', 0)` once every
 * calculation stored before the ledger kept its own projection was published again. Written with the outbox
 * rows, in the same transaction; at start, what has no row yet is published then.
 */
export const ReferencePublication = defineEntity({
  name: 'ReferencePublication',
  tableName: 'reference_publication',
  properties: {
    kind: p.string().length(20).primary(),
    releaseId: p.bigint().primary().autoincrement(false),
    publishedAt: p.datetime(),
  },
});

/**
 * A `governed-treatment/v2` release: imported as a candidate, activated by a second operator (four eyes,
 * fresh TOTP); an active or retired release is immutable (trigger). `rate_release_digest` seals the VAT
 * rate release its rate windows come from.
 */
export const TreatmentRelease = defineEntity({
  name: 'TreatmentRelease',
  tableName: 'treatment_release',
  properties: {
    id: p.bigint().primary().autoincrement(),
    releaseId: p.string().length(100),
    status: p.string().length(20),
    fileSha256: p.string().length(64),
    digest: p.string().length(80),
    content: p.json<Record<string, unknown>>(),
    jurisdictions: p.json<string[]>(),
    legalFrom: p.string().length(10),
    legalTo: p.string().length(10).nullable(),
    rateReleaseDigest: p.string().length(80),
    importedBy: p.string().length(100),
    importedAt: p.datetime(),
    activatedBy: p.string().length(100).nullable(),
    activatedAt: p.datetime().nullable(),
  },
});

/** A durable v2 decision (immutable by trigger), with its idempotency identity. */
export const GovernedDecision = defineEntity({
  name: 'GovernedDecision',
  tableName: 'governed_decision',
  properties: {
    seq: p.bigint().primary().autoincrement(),
    id: p.uuid().unique(),
    accountId: p.bigint(),
    apiKeyId: p.bigint(),
    idempotencyKey: p.string().length(255),
    requestDigest: p.string().length(80),
    canonicalRequest: p.json<Record<string, unknown>>(),
    status: p.string().length(20),
    httpStatus: p.integer(),
    errorCode: p.string().length(60),
    detail: p.text(),
    decision: p.json<Record<string, unknown>>(),
    supersedesDecisionId: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
  uniques: [{ properties: ['accountId', 'idempotencyKey'] }],
  indexes: [{ properties: ['accountId', 'id'] }, { properties: ['accountId', 'seq'] }],
});

export const Outbox = defineOutboxEntity();

export const calculationEntities = [ReferenceRelease, RateReleaseSeedFiles, TaxClass, VatRate, RegionalVatRate, EcbRateDay, EcbRateSnapshot, Calculation, RateEvidenceDoc, SourceProfile, SourceProfileRevision, SourceProfilePublication, ReferencePublication, TreatmentRelease, GovernedDecision, Outbox];
