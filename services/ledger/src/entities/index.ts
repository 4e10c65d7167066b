import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';

/**
 * A committed, filing-grade supply event: append-only (a trigger refuses UPDATE and DELETE), with
 * the ledger's knowledge time and the account's ledger position.
 */
export const SupplyEvent = defineEntity({
  name: 'SupplyEvent',
  tableName: 'supply_event',
  properties: {
    id: p.uuid().primary(),
    accountId: p.bigint(),
    sequence: p.bigint(),
    eventId: p.string().length(100),
    contentDigest: p.string().length(80),
    recordedAt: p.datetime(),
    eventType: p.string().length(20),
    originalEventId: p.string().length(100).nullable(),
    occurredAt: p.datetime(),
    supplyKind: p.string().length(30),
    customerType: p.string().length(3),
    countryOfConsumption: p.string().length(2),
    dispatchCountry: p.string().length(2).nullable(),
    supplierEstablishmentCountry: p.string().length(2).nullable(),
    currency: p.string().length(3),
    netAmountMinor: p.bigint(),
    vatAmountMinor: p.bigint(),
    vatRateBps: p.integer(),
    rateCategory: p.string().length(20),
    classificationStatus: p.string().length(20),
    taxClassId: p.string().length(60).nullable(),
    productReference: p.string().length(200).nullable(),
    variantReference: p.string().length(200).nullable(),
    orderReference: p.string().length(200).nullable(),
    integrationId: p.bigint().nullable(),
    sourceId: p.string().length(100).nullable(),
    calculationId: p.uuid().nullable(),
    consignmentReference: p.string().length(100).nullable(),
    intrinsicValueEurMinor: p.bigint().nullable(),
    thirdCountryOrigin: p.string().length(2).nullable(),
    exciseGoods: p.boolean().nullable(),
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

export const Outbox = defineOutboxEntity();
export const ledgerEntities = [SupplyEvent, LedgerHead, ClassificationDecision, ClassificationCorrection, Outbox];
