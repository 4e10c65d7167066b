import { create } from '@bufbuild/protobuf';
import { SupplyEventSchema, type SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { SupplyEventRecord } from './repositories/supply-events';

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** The protobuf form of a stored event (the API and the SupplyCommitted event carry the same). */
export function supplyEventMessage(r: SupplyEventRecord): SupplyEvent {
  return create(SupplyEventSchema, {
    id: r.id,
    accountId: r.accountId,
    sequence: r.sequence,
    recordedAt: r.recordedAt.toISOString(),
    eventId: r.eventId,
    eventType: r.eventType,
    originalEventId: opt(r.originalEventId),
    occurredAt: r.occurredAt,
    supplyKind: r.supplyKind,
    customerType: r.customerType,
    countryOfConsumption: r.countryOfConsumption,
    dispatchCountry: opt(r.dispatchCountry),
    supplierEstablishmentCountry: opt(r.supplierEstablishmentCountry),
    currency: r.currency,
    netAmountMinor: r.netAmountMinor,
    vatAmountMinor: r.vatAmountMinor,
    vatRateBps: r.vatRateBps,
    rateCategory: r.rateCategory,
    classificationStatus: r.classificationStatus,
    taxClassId: opt(r.taxClassId),
    productReference: opt(r.productReference),
    variantReference: opt(r.variantReference),
    orderReference: opt(r.orderReference),
    integrationId: opt(r.integrationId),
    sourceId: opt(r.sourceId),
    calculationId: opt(r.calculationId),
    consignmentReference: opt(r.consignmentReference),
    intrinsicValueEurMinor: opt(r.intrinsicValueEurMinor),
    thirdCountryOrigin: opt(r.thirdCountryOrigin),
    exciseGoods: opt(r.exciseGoods),
    region: opt(r.region),
    ecbRateEvidence: r.ecbRateEvidence ?? undefined,
    customerVatNumberMasked: opt(r.customerVatNumberMasked),
    customerVatNumberDigest: opt(r.customerVatNumberDigest),
  });
}
