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
    rateEvidence: p.json<Record<string, unknown>>(),
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

export const Outbox = defineOutboxEntity();

export const calculationEntities = [ReferenceRelease, TaxClass, VatRate, EcbRateDay, Calculation, SourceProfile, Outbox];
