import { create, toBinary } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { EcbRateEvidenceSchema, SupplyEventSchema, type EcbRateEvidence as EcbRateEvidenceMessage, type SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { EcbRateEvidence, SupplyEventRecord } from './repositories/supply-events';

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

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

const EVIDENCE_FIELD = SupplyEventSchema.field.ecbRateEvidence.number;
const COMMITTED_ID_FIELD = SupplyCommittedSchema.field.eventId.number;
const COMMITTED_EVENTS_FIELD = SupplyCommittedSchema.field.supplyEvents.number;

/**
 * The encoded `ecb_rate_evidence` field of one commit's events, one per distinct evidence object (the events of one
 * tax-point day share theirs): each encoded once, not once per event.
 */
export function evidenceFields(): (e: EcbRateEvidence) => Uint8Array {
  const made = new Map<EcbRateEvidence, Uint8Array>();
  return (e) => made.get(e) ?? made.set(e, new BinaryWriter().tag(EVIDENCE_FIELD, WireType.LengthDelimited).bytes(toBinary(EcbRateEvidenceSchema, create(EcbRateEvidenceSchema, e))).finish()).get(e)!;
}

/**
 * The payload of a `SupplyCommitted` carrying `records` with their evidence, written on the wire directly: each
 * event's message without evidence (`messageOf`, the one the commit's answer carries too) followed by its evidence
 * field (`evidenceOf`, encoded once per distinct evidence). A reader decodes exactly the message `create` would
 * make of the records with their evidence (the evidence field comes last in each event's bytes instead of at its
 * number's place, which protobuf allows); the copy of each event's message with its evidence, and the encoding of
 * the same evidence once per event, are gone (docs/benchmarks.md, twenty-second session).
 */
export function supplyCommittedPayload(eventId: string, records: readonly SupplyEventRecord[], messageOf: (r: SupplyEventRecord) => SupplyEvent, evidenceOf: (e: EcbRateEvidence) => Uint8Array): Uint8Array {
  const w = new BinaryWriter().tag(COMMITTED_ID_FIELD, WireType.LengthDelimited).string(eventId);
  for (const r of records) {
    const message = messageOf(r);
    if (message.ecbRateEvidence) throw new Error('supplyCommittedPayload: the message must come without its evidence');
    const bytes = toBinary(SupplyEventSchema, message);
    const evidence = r.ecbRateEvidence ? evidenceOf(r.ecbRateEvidence) : undefined;
    w.tag(COMMITTED_EVENTS_FIELD, WireType.LengthDelimited).uint32(bytes.length + (evidence?.length ?? 0)).raw(bytes);
    if (evidence) w.raw(evidence);
  }
  return w.finish();
}
