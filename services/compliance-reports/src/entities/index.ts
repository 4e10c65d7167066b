import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineOutboxEntity } from '@vat/platform/outbox';

/** An OSS/IOSS registration; the full identifier is stored encrypted-at-rest elsewhere, never here in clear. */
export const TaxRegistration = defineEntity({
  name: 'TaxRegistration',
  tableName: 'tax_registration',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint().index(),
    schemeType: p.string().length(20),
    memberStateIdentification: p.string().length(2),
    vatRegistrationNumberMasked: p.string().length(40).nullable(),
    iossIntermediaryName: p.string().length(200).nullable(),
    iossIntermediaryNumberMasked: p.string().length(40).nullable(),
    effectiveFrom: p.string().length(10),
    effectiveTo: p.string().length(10).nullable(),
    status: p.string().length(10),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export const Outbox = defineOutboxEntity();
export const complianceEntities = [TaxRegistration, Outbox];
