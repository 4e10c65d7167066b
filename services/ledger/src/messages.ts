import { create } from '@bufbuild/protobuf';
import { EcbRateEvidenceSchema, SupplyEventSchema, type EcbRateEvidence as EcbRateEvidenceMessage, type SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { EcbRateEvidence, SupplyEventRecord } from './repositories/supply-events';

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/**
 * The evidence messages of one commit, one per distinct evidence object: a batch's events of one tax-point day share
 * theirs ({@link SupplyEventRecord.ecbRateEvidence}), so each map of rates is built once per day, not once per event.
 */
export function evidenceMessages(): (e: EcbRateEvidence) => EcbRateEvidenceMessage {
  const made = new Map<EcbRateEvidence, EcbRateEvidenceMessage>();
  return (e) => made.get(e) ?? made.set(e, create(EcbRateEvidenceSchema, e)).get(e)!;
}

/**
 * The protobuf form of a stored event (the API and the SupplyCommitted event carry the same). `evidence` makes the
 * message of its ECB rate evidence (one per record by default); `null` leaves the evidence out (the commit's answer:
 * the gateway never shows it, and each event would carry a map of about nine rates to it and back).
 */
export function supplyEventMessage(r: SupplyEventRecord, evidence: ((e: EcbRateEvidence) => EcbRateEvidenceMessage) | null = (e) => create(EcbRateEvidenceSchema, e)): SupplyEvent {
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
    ecbRateEvidence: r.ecbRateEvidence && evidence ? evidence(r.ecbRateEvidence) : undefined,
    customerVatNumberMasked: opt(r.customerVatNumberMasked),
    customerVatNumberDigest: opt(r.customerVatNumberDigest),
  });
}
