import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';
import { supplyEventProperties } from '@vat/platform/supply-projection';
import { defineReferenceProjectionEntities } from '@vat/platform/reference-projection';

/**
 * A committed, filing-grade supply event: append-only (a trigger refuses UPDATE and DELETE), with
 * the ledger's knowledge time and the account's ledger position.
 */
export const SupplyEvent = defineEntity({
  name: 'SupplyEvent',
  tableName: 'supply_event',
  properties: {
    ...supplyEventProperties(),
    contentDigest: p.string().length(80),
    variantReference: p.string().length(200).nullable(),
    calculationId: p.uuid().nullable(),
    region: p.string().length(6).nullable(),
    /** ECB rates last published at the tax point (`{ rateDate, ratesPerEur }`), attached at commit; null before issue 19. */
    ecbRateEvidence: p.json().nullable(),
    /** The customer's VAT number (b2b): AES-256-GCM ciphertext bound to the account; the mask beside it. */
    customerVatNumberMasked: p.string().length(40).nullable(),
    customerVatNumberEncrypted: p.blob().nullable(),
  },
  uniques: [{ properties: ['accountId', 'eventId'] }, { properties: ['accountId', 'sequence'] }],
  indexes: [{ properties: ['accountId', 'occurredAt'] }],
});

/** The account's ledger position: the sequence of its last committed event (rows are locked to commit). */
export const LedgerHead = defineEntity({
  name: 'LedgerHead',
  tableName: 'ledger_head',
  properties: {
    accountId: p.bigint().primary().autoincrement(false),
    sequence: p.bigint(),
    /** How many classification decisions were appended (and published) for the account. */
    decisionCount: p.bigint().default(0),
  },
});

/**
 * A Union OSS quarter compliance-reports locked (or is locking): no decision is appended for the quarter's
 * events any more; they go to correction review. Written by `FenceReturnPeriod` before the lock freezes.
 */
export const ReturnPeriodFence = defineEntity({
  name: 'ReturnPeriodFence',
  tableName: 'return_period_fence',
  properties: {
    accountId: p.bigint().primary().autoincrement(false),
    periodKey: p.string().length(7).primary(),
    fencedAt: p.datetime(),
  },
});

/**
 * A successor classification decision for a committed event (the event itself is never edited): the
 * newest decision of an event is the one in effect. Append-only (a trigger refuses UPDATE and DELETE).
 */
export const ClassificationDecision = defineEntity({
  name: 'ClassificationDecision',
  tableName: 'classification_decision',
  properties: {
    id: p.uuid().primary(),
    accountId: p.bigint(),
    supplyEventId: p.uuid(),
    supersedes: p.uuid().nullable(),
    classificationStatus: p.string().length(20),
    taxClassId: p.string().length(60).nullable(),
    source: p.string().length(20),
    assignmentId: p.uuid().nullable(),
    assignmentRevision: p.integer().nullable(),
    ruleId: p.string().length(100).nullable(),
    reason: p.string().length(60).nullable(),
    coverageManifestDigest: p.string().length(80).nullable(),
    catalogDigest: p.string().length(80).nullable(),
    decidedAt: p.datetime(),
    /** The decision's place in its event's chain (1 = first); null only for decisions appended before it was recorded. */
    generation: p.integer().nullable(),
  },
  uniques: [{ properties: ['supplyEventId', 'supersedes'] }],
  indexes: [{ properties: ['accountId', 'supplyEventId'] }],
});

/** A reclassification the ledger did not apply automatically and that waits for a person. */
export const ClassificationCorrection = defineEntity({
  name: 'ClassificationCorrection',
  tableName: 'classification_correction',
  properties: {
    id: p.uuid().primary(),
    accountId: p.bigint(),
    supplyEventId: p.uuid(),
    orderReference: p.string().length(200).nullable(),
    reason: p.string().length(40),
    proposed: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
  indexes: [{ properties: ['accountId', 'createdAt'] }],
});

/**
 * How a person resolved a correction-review entry: one row per entry (the primary key), append-only
 * (a trigger refuses UPDATE and DELETE). `apply` records the manual decision it appended.
 */
export const ClassificationCorrectionResolution = defineEntity({
  name: 'ClassificationCorrectionResolution',
  tableName: 'classification_correction_resolution',
  properties: {
    correctionId: p.uuid().primary(),
    accountId: p.bigint(),
    action: p.string().length(10),
    note: p.string().length(1000),
    resolvedAt: p.datetime(),
    apiKeyId: p.bigint(),
    decisionId: p.uuid().nullable(),
  },
});

/**
 * The ledger's projection of calculation's `CalculationRecorded`: what a supply event linked to a v1
 * calculation (`calculation_id`) takes from it. Calculations are immutable, so a row never changes and a
 * redelivered event writes nothing (keyed by the calculation id: no inbox row).
 */
export const CalculationSummary = defineEntity({
  name: 'CalculationSummary',
  tableName: 'calculation_summary',
  properties: {
    calculationId: p.uuid().primary(),
    accountId: p.bigint(),
    country: p.string().length(2),
    currency: p.string().length(3),
    netAmountMinor: p.bigint(),
    vatAmountMinor: p.bigint(),
    vatRateBps: p.integer(),
  },
});

/** The ledger's copy of calculation's reference data (tax classes, rates in force, ECB days): see platform/src/reference-projection.ts. */
export const { RateReleaseProjection, EcbRateDayProjection, ReferenceProjectionVersion } = defineReferenceProjectionEntities();

export const Outbox = defineOutboxEntity();
export const ledgerEntities = [SupplyEvent, LedgerHead, ReturnPeriodFence, ClassificationDecision, ClassificationCorrection, ClassificationCorrectionResolution, CalculationSummary, RateReleaseProjection, EcbRateDayProjection, ReferenceProjectionVersion, Outbox];
