import { defineSourceProfileDefaultEntity } from '@vat/platform/source-profile-projection';
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

/** A stored Article 59c threshold release (a validated, complete EU-27 snapshot); the newest is in force. */
export const Article59cRelease = defineEntity({
  name: 'Article59cRelease',
  tableName: 'article59c_release',
  properties: {
    version: p.string().length(80).primary(),
    digest: p.string().length(80),
    document: p.json<unknown>(),
    loadedAt: p.datetime(),
  },
});

/**
 * The running totals: committed events grouped by every fact that decides their Article 59c disposition,
 * their statutory year (a linked correction's is its original's) and their tax-point day. Kept by the
 * projection consumer in the batch's transaction, so the status reads a bounded set of rows, never the year.
 */
export const Article59cBucket = defineEntity({
  name: 'Article59cBucket',
  tableName: 'article59c_bucket',
  properties: {
    accountId: p.bigint().primary().autoincrement(false),
    bucketKey: p.string().length(400).primary(),
    year: p.integer(),
    occurredOn: p.string().length(10),
    eventClass: p.string().length(12),
    linkState: p.string().length(10),
    supplyKind: p.string().length(30),
    customerType: p.string().length(3),
    classificationStatus: p.string().length(20),
    countryOfConsumption: p.string().length(2),
    dispatchCountry: p.string().length(2).nullable(),
    supplierEstablishmentCountry: p.string().length(2).nullable(),
    currency: p.string().length(3),
    sourceId: p.string().length(100).nullable(),
    /** A `b2b` bucket's VIES evidence at the events' tax point: `valid`, or `missing` (flagged for review); null otherwise. */
    vatNumberEvidence: p.string().length(10).nullable(),
    eventCount: p.bigint(),
    netMinor: p.decimal().precision(38).scale(0),
    maxRecordedAt: p.datetime(),
    /** Per threshold currency: the events' amounts converted at their ECB rate evidence (exact decimal text), and how many events. */
    convertedMinor: p.json().default('{}'),
    convertedCount: p.json().default('{}'),
  },
  indexes: [{ properties: ['accountId', 'year'] }],
});

/**
 * The ECB rates the ledger attached to events at commit (Art. 91(2) evidence), kept to convert them again: each
 * distinct document once (public reference data, shared by every account), named by the SHA-256 of its rate date
 * and text; a fact names its document in `supply_fact.rate_doc`.
 */
export const Article59cRateDoc = defineEntity({
  name: 'Article59cRateDoc',
  tableName: 'article59c_rate_doc',
  properties: {
    digest: p.string().length(64).primary(),
    rateDate: p.string().length(10),
    rates: p.json(),
  },
});

/**
 * Corrections that precede their original sale in ledger order. While the original has not arrived
 * (`linkedAtSequence` null) the correction waits in its own year, unresolved; when it arrives the amount moves
 * to the original's bucket and `linkedAtSequence` records the original's ledger sequence: the ledger prefix
 * from which the correction is linked, which the marks walk needs until it has passed that prefix.
 */
export const Article59cPendingCorrection = defineEntity({
  name: 'Article59cPendingCorrection',
  tableName: 'article59c_pending_correction',
  properties: {
    factId: p.uuid().primary(),
    accountId: p.bigint(),
    originalEventId: p.string().length(100),
    bucketKey: p.string().length(400),
    linkedAtSequence: p.bigint().nullable(),
  },
  indexes: [{ properties: ['accountId', 'originalEventId'] }, { properties: ['accountId', 'linkedAtSequence'] }],
});

/**
 * The definitive VIES checks (`valid`, `invalid`) of customers' VAT numbers, from compliance-reports'
 * `VatNumberChecked` events: by the number's keyed digest, never the number. Only ever inserted.
 */
export const VatNumberEvidence = defineEntity({
  name: 'VatNumberEvidence',
  tableName: 'vat_number_evidence',
  properties: {
    accountId: p.bigint().primary().autoincrement(false),
    checkId: p.bigint().primary().autoincrement(false),
    vatNumberDigest: p.string().length(64),
    result: p.string().length(20),
    checkedAt: p.datetime(),
  },
  indexes: [{ properties: ['accountId', 'vatNumberDigest', 'checkedAt'] }],
});

/**
 * Each `b2b` fact's VIES evidence at its tax point as last evaluated (`valid` or `missing`): the running total
 * it is counted in. Evaluated from the facts and checks applied so far, again whenever a check of its number arrives.
 */
export const Article59cB2bFact = defineEntity({
  name: 'Article59cB2bFact',
  tableName: 'article59c_b2b_fact',
  properties: {
    factId: p.uuid().primary(),
    accountId: p.bigint(),
    vatNumberDigest: p.string().length(64).nullable(),
    occurredAt: p.datetime(),
    evidence: p.string().length(10),
  },
  indexes: [{ properties: ['accountId', 'vatNumberDigest', 'occurredAt'] }],
});

/**
 * Per account, how many `VatNumberChecked` events were applied: with the projection position row, the
 * version of a cached status snapshot (a check can move b2b facts between running totals).
 */
export const VatNumberEvidencePosition = defineEntity({
  name: 'VatNumberEvidencePosition',
  tableName: 'vat_number_evidence_position',
  properties: {
    accountId: p.bigint().primary().autoincrement(false),
    checksApplied: p.bigint(),
  },
});

/**
 * Per account, the ledger prefix (events 1..sequence, all applied) whose warning and crossing marks have been
 * evaluated: marks are found prefix by prefix in ledger order, whatever order the bus delivered the events in.
 */
export const Article59cMarksPosition = defineEntity({
  name: 'Article59cMarksPosition',
  tableName: 'article59c_marks_position',
  properties: {
    accountId: p.bigint().primary().autoincrement(false),
    sequence: p.bigint(),
  },
});

/**
 * An authenticated crossing of an account's calendar year, immutable (a trigger). A year has more than one
 * only when a backdated sale moved the crossing earlier: the earliest by tax point is the crossing, the others its history.
 */
export const Article59cCrossing = defineEntity({
  name: 'Article59cCrossing',
  tableName: 'article59c_crossing',
  properties: {
    accountId: p.bigint().primary().autoincrement(false),
    year: p.integer().primary().autoincrement(false),
    eventId: p.string().length(100),
    sequence: p.bigint().primary().autoincrement(false),
    occurredAt: p.datetime(),
    recordedAt: p.datetime(),
    eventAmountMinor: p.bigint(),
    cumulativeMinor: p.decimal().precision(38).scale(0),
    thresholdMinor: p.bigint(),
    currency: p.string().length(3),
    establishmentCountry: p.string().length(2),
    releaseVersion: p.string().length(80),
    policyVersion: p.string().length(40),
    provenAt: p.datetime(),
  },
});

/** Dashboard threshold notifications: one per account, year and kind (the unique key makes redelivery harmless). */
export const ThresholdNotification = defineEntity({
  name: 'ThresholdNotification',
  tableName: 'threshold_notification',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint(),
    year: p.integer(),
    kind: p.string().length(40),
    // The Article 59c mark and the event that reached it (null for a return_period_overdue notification).
    eventId: p.string().length(100).nullable(),
    cumulativeMinor: p.decimal().precision(38).scale(0).nullable(),
    thresholdMinor: p.bigint().nullable(),
    currency: p.string().length(3).nullable(),
    occurredAt: p.datetime().nullable(),
    recordedAt: p.datetime().nullable(),
    // return_period_overdue (from compliance-reports' ReturnPeriodOverdue): the period and its due date; '' for Article 59c.
    schemeType: p.string().length(20).nullable(),
    periodKey: p.string().length(7).default(''),
    dueDate: p.string().length(10).nullable(),
    createdAt: p.datetime(),
    readAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['accountId', 'year', 'kind', 'periodKey'] }],
  indexes: [{ properties: ['accountId', 'id'] }],
});

/**
 * The source-profile defaults the Article 59c summaries apply where an event lacks a fact: thresholds' own
 * projection of calculation's `SourceProfileChanged` (the profile's newest revision wins), so it never
 * asks calculation. Archived profiles keep supplying their defaults, as their events keep their source.
 */
export const SourceProfileDefault = defineSourceProfileDefaultEntity();

export const Outbox = defineOutboxEntity();
export const ProcessedEvent = defineInboxEntity();
export const { SupplyFact, ProjectionPosition } = defineSupplyProjectionEntities({
  /** The event's ECB rate evidence document (`article59c_rate_doc`), none when the ledger attached none. */
  rateDoc: p.string().length(64).nullable(),
});
export const thresholdEntities = [
  SmeThresholdRelease,
  Article59cRelease,
  Article59cBucket,
  Article59cRateDoc,
  Article59cPendingCorrection,
  Article59cMarksPosition,
  Article59cCrossing,
  VatNumberEvidence,
  Article59cB2bFact,
  VatNumberEvidencePosition,
  ThresholdNotification,
  SourceProfileDefault,
  Outbox,
  ProcessedEvent,
  SupplyFact,
  ProjectionPosition,
];
