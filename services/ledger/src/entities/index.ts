import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';

/** A committed, filing-grade supply event (sale, refund, cancellation, credit note, adjustment). */
export const SupplyEvent = defineEntity({
  name: 'SupplyEvent',
  tableName: 'supply_event',
  properties: {
    id: p.uuid().primary(),
    accountId: p.bigint().index(),
    eventType: p.string().length(20),
    supplyKind: p.string().length(40),
    classificationStatus: p.string().length(20),
    occurredAt: p.datetime().index(),
    memberStateOfConsumption: p.string().length(2),
    currency: p.string().length(3),
    taxableAmountMinor: p.bigint(),
    vatAmountMinor: p.bigint(),
    vatRateBps: p.integer(),
    rateCategory: p.string().length(20),
    originalEventId: p.uuid().nullable(),
    committedAt: p.datetime().onCreate(() => new Date()),
  },
});

export const Outbox = defineOutboxEntity();
export const ledgerEntities = [SupplyEvent, Outbox];
