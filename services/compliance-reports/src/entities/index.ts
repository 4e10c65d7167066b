import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineInboxEntity, defineOutboxEntity } from '@vat/platform/outbox';
import { defineSupplyProjectionEntities } from '@vat/platform/supply-projection';

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

export const Outbox = defineOutboxEntity();
export const ProcessedEvent = defineInboxEntity();
export const { SupplyFact, ProjectionPosition } = defineSupplyProjectionEntities();
export const complianceEntities = [TaxRegistration, Outbox, ProcessedEvent, SupplyFact, ProjectionPosition];
