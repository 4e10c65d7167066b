import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineInboxEntity, defineOutboxEntity } from '@vat/platform/outbox';
import { defineSupplyProjectionEntities } from '@vat/platform/supply-projection';
import { defineReferenceProjectionEntities } from '@vat/platform/reference-projection';
import { defineSourceProfileDefaultEntity } from '@vat/platform/source-profile-projection';

/**
 * An OSS/IOSS registration. The full identifiers are stored only as AES-256-GCM ciphertext
 * (`*_encrypted`, bound to the account and field); responses carry the masked forms.
 */
export const TaxRegistration = defineEntity({
  name: 'TaxRegistration',
  tableName: 'tax_registration',
  indexes: [{ properties: ['accountId', 'schemeType'] }],
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint().index(),
    schemeType: p.string().length(20),
    memberStateIdentification: p.string().length(2),
    vatRegistrationNumberMasked: p.string().length(40).nullable(),
    vatRegistrationNumberEncrypted: p.blob().nullable(),
    iossIntermediaryName: p.string().length(200).nullable(),
    iossIntermediaryNumberMasked: p.string().length(40).nullable(),
    iossIntermediaryNumberEncrypted: p.blob().nullable(),
    effectiveFrom: p.string().length(10),
    effectiveTo: p.string().length(10).nullable(),
    status: p.string().length(10),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

/**
 * A locked Union OSS quarter: the accountant preview frozen at a ledger position. Immutable in the
 * database (a trigger): only `locked` -> `filed` with its first filing audit may ever change.
 */
export const UnionOssLockedPeriod = defineEntity({
  name: 'UnionOssLockedPeriod',
  tableName: 'union_oss_locked_period',
  uniques: [{ properties: ['accountId', 'periodKey'] }],
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint(),
    periodKey: p.string().length(7),
    registrationId: p.bigint(),
    memberStateIdentification: p.string().length(2),
    returnCurrency: p.string().length(3),
    ledgerPosition: p.bigint(),
    status: p.string().length(10),
    filingStatus: p.string().length(30),
    filingStatusDetail: p.string().length(300),
    nilReturnEligible: p.boolean(),
    totalSourceEventCount: p.bigint(),
    includedSourceEventCount: p.bigint(),
    excludedSourceEventCount: p.bigint(),
    warningCount: p.integer(),
    jurisdictionCount: p.integer(),
    lockedAt: p.datetime(),
    lockedByApiKeyId: p.bigint(),
    filedAt: p.datetime().nullable(),
    filedByApiKeyId: p.bigint().nullable(),
    /** The filing record the filer gave (issue 21): the portal's reference, the day it was submitted, a note. */
    submissionReference: p.string().length(100).nullable(),
    filedOn: p.string().length(10).nullable(),
    filingNote: p.string().length(1000).nullable(),
  },
});

/** A return period found past its due date without being filed: recorded once, with its ReturnPeriodOverdue event. */
export const ReturnPeriodOverdue = defineEntity({
  name: 'ReturnPeriodOverdue',
  tableName: 'return_period_overdue',
  properties: {
    accountId: p.bigint().primary(),
    schemeType: p.string().length(20).primary(),
    periodKey: p.string().length(7).primary(),
    dueDate: p.string().length(10),
    detectedAt: p.datetime(),
  },
});

/** A stored artifact of a locked quarter: its exact bytes and SHA-256. Never updated or deleted (a trigger). */
export const UnionOssExport = defineEntity({
  name: 'UnionOssExport',
  tableName: 'union_oss_export',
  properties: {
    id: p.uuid().primary(),
    accountId: p.bigint(),
    lockedPeriodId: p.bigint().index(),
    periodKey: p.string().length(7),
    exportKind: p.string().length(60),
    format: p.string().length(4),
    mediaType: p.string().length(60),
    filename: p.string().length(120),
    content: p.blob(),
    sha256: p.string().length(64),
    byteSize: p.integer(),
    createdAt: p.datetime(),
  },
});

/** An event a Union OSS lock sealed, with its disposition and reason. Never updated or deleted (a trigger). */
export const UnionOssSealedEvent = defineEntity({
  name: 'UnionOssSealedEvent',
  tableName: 'union_oss_sealed_event',
  indexes: [{ properties: ['accountId', 'periodKey'] }],
  properties: {
    lockedPeriodId: p.bigint().primary(),
    ledgerSequence: p.bigint().primary(),
    accountId: p.bigint(),
    periodKey: p.string().length(7),
    eventId: p.string().length(100),
    eventType: p.string().length(20),
    occurredAt: p.datetime(),
    memberStateOfConsumption: p.string().length(2),
    supplyKind: p.string().length(30),
    customerType: p.string().length(3),
    currency: p.string().length(3),
    netAmountMinor: p.bigint(),
    vatAmountMinor: p.bigint(),
    late: p.boolean(),
    disposition: p.string().length(10),
    warningCode: p.string().length(60).nullable(),
    reason: p.string().length(60).nullable(),
    review: p.string().length(20).nullable(),
    vatNumberCheckId: p.bigint().nullable(),
  },
});

/**
 * One answer to a check of a customer's VAT number (VIES evidence, Art. 18 of Implementing Regulation
 * 282/2011). The number is stored as AES-256-GCM ciphertext bound to the account, its keyed digest (to
 * find earlier answers and match supplies) and its mask. Never updated or deleted (a trigger).
 */
export const VatNumberCheck = defineEntity({
  name: 'VatNumberCheck',
  tableName: 'vat_number_check',
  indexes: [{ properties: ['accountId', 'vatNumberDigest', 'checkedAt'] }, { properties: ['accountId', 'id'] }],
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint(),
    vatNumberDigest: p.string().length(64),
    vatNumberMasked: p.string().length(40),
    vatNumberEncrypted: p.blob(),
    memberState: p.string().length(2),
    result: p.string().length(20),
    reason: p.string().length(300).nullable(),
    checkedAt: p.datetime(),
    viesRequestDate: p.string().length(40).nullable(),
    consultationNumber: p.string().length(100).nullable(),
    name: p.string().length(500).nullable(),
    address: p.string().length(1000).nullable(),
    requesterVatNumberMasked: p.string().length(40).nullable(),
    memberStateAvailability: p.string().length(30),
    attempts: p.integer(),
  },
});

/**
 * The `VatNumberChecked` event of each check (written to the outbox in the check's transaction; checks
 * stored before the event existed are announced once at start). One row per check: announced once.
 */
export const VatNumberCheckEvent = defineEntity({
  name: 'VatNumberCheckEvent',
  tableName: 'vat_number_check_event',
  properties: {
    checkId: p.bigint().primary().autoincrement(false),
    eventId: p.uuid(),
  },
});

/**
 * What a Union OSS lock sealed instead of a copy of its events: the scope it read and each event key's
 * disposition (see repositories/union-oss-sealed-events.ts). Never updated or deleted (a trigger).
 */
export const UnionOssSealedBasis = defineEntity({
  name: 'UnionOssSealedBasis',
  tableName: 'union_oss_sealed_basis',
  uniques: [{ properties: ['accountId', 'periodKey'] }],
  properties: {
    lockedPeriodId: p.bigint().primary().autoincrement(false),
    accountId: p.bigint(),
    periodKey: p.string().length(7),
    scope: p.json(),
    dispositions: p.json(),
  },
});

/**
 * Running totals of the supply projection per (account, UTC day of the tax point, and every dimension a
 * Union OSS return groups by), kept by triggers on `supply_fact` (insert, classification update, and the
 * correction whose original arrives later), so a return reads thousands of groups instead of a million
 * facts. Foreign-currency events keep their per-event amounts (`unit_*`: converted per event).
 */
export const UnionOssDayTotal = defineEntity({
  name: 'UnionOssDayTotal',
  tableName: 'union_oss_day_total',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint(),
    day: p.date(),
    isSale: p.boolean(),
    classificationStatus: p.string().length(20),
    rateCategory: p.string().length(20),
    supplyKind: p.string().length(30),
    customerType: p.string().length(3),
    countryOfConsumption: p.string().length(2),
    dispatchCountry: p.string().length(2).nullable(),
    supplierEstablishmentCountry: p.string().length(2).nullable(),
    sourceId: p.string().length(100).nullable(),
    vatRateBps: p.integer(),
    currency: p.string().length(3),
    link: p.string().length(10),
    originalPeriod: p.string().length(7).nullable(),
    unitNet: p.bigint().nullable(),
    unitVat: p.bigint().nullable(),
    eventCount: p.bigint(),
    netSum: p.bigint(),
    vatSum: p.bigint(),
    /** The facts' applied classification-decision generations, summed (a lock compares them with the ledger's count). */
    decisionGenerationSum: p.bigint(),
  },
});

/**
 * Running totals of the imported-goods facts per (account, UTC day of the tax point, and everything an IOSS
 * month groups a fact by: its kind, a correction's link to its original and, when valid, the original's day;
 * the deciding sale's traits, EUR 150 test and rate, the State and currency, per-event amounts outside EUR),
 * kept by triggers on `supply_fact` (insert, an original projected after its correction, and any update such as
 * a classification decision, which also moves the corrections naming the fact), so the IOSS months of a quarter
 * read thousands of totals instead of scanning every fact of the quarter.
 */
export const IossDayTotal = defineEntity({
  name: 'IossDayTotal',
  tableName: 'ioss_day_total',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint(),
    day: p.date(),
    /** sale, correction or other (as the read classifies `event_type`). */
    kind: p.string().length(10),
    /** A correction's link to its original: ok, missing or invalid (none for the rest). */
    link: p.string().length(10),
    /** A correction with a valid link: its original's UTC day. */
    originalDay: p.date().nullable(),
    /** The deciding sale's traits: a sale's own, a validly linked correction's original's (else null). */
    customerType: p.string().length(3).nullable(),
    classificationStatus: p.string().length(20).nullable(),
    rateCategory: p.string().length(20).nullable(),
    exciseGoods: p.boolean().nullable(),
    hasOrigin: p.boolean().nullable(),
    /** The EUR 150 test: within, above or unverified (docs/ioss.md). */
    consignmentValue: p.string().length(10).nullable(),
    vatRateBps: p.integer().nullable(),
    countryOfConsumption: p.string().length(2),
    currency: p.string().length(3),
    unitNet: p.bigint().nullable(),
    unitVat: p.bigint().nullable(),
    eventCount: p.bigint(),
    netSum: p.bigint(),
    vatSum: p.bigint(),
  },
});

export const Outbox = defineOutboxEntity();
export const ProcessedEvent = defineInboxEntity();
export const { SupplyFact, ProjectionPosition } = defineSupplyProjectionEntities();
/** Compliance-reports' copies of calculation's reference data and source-profile defaults (platform projections), so it never calls calculation. */
export const { RateReleaseProjection, EcbRateDayProjection, ReferenceProjectionVersion } = defineReferenceProjectionEntities();
export const SourceProfileDefault = defineSourceProfileDefaultEntity();
export const complianceEntities = [TaxRegistration, UnionOssLockedPeriod, ReturnPeriodOverdue, UnionOssExport, UnionOssSealedEvent, VatNumberCheck, VatNumberCheckEvent, UnionOssSealedBasis, UnionOssDayTotal, IossDayTotal, Outbox, ProcessedEvent, SupplyFact, ProjectionPosition, RateReleaseProjection, EcbRateDayProjection, ReferenceProjectionVersion, SourceProfileDefault];
