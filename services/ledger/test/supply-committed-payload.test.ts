import { create, equals, fromBinary, toBinary } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { SupplyEventSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import { subjectOf } from '@vat/platform/events';
import { EVENTS_PER_MESSAGE, supplyEventsIn } from '@vat/platform/supply-committed';
import { supplyCommittedEvents } from '../src/handlers/commit-supply-events';
import { evidenceFields, supplyCommittedPayload, supplyEventMessage } from '../src/messages';
import type { EcbRateEvidence, SupplyEventRecord } from '../src/repositories/supply-events';

const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', 'é', '😀', '\u0000'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 12 });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const amount = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });
const evidence: fc.Arbitrary<EcbRateEvidence> = fc.record({ rateDate: text, ratesPerEur: fc.dictionary(fc.constantFrom('USD', 'GBP', 'PLN', 'SEK', 'CHF', 'JPY'), fc.constantFrom('1.0812', '0.8543', '4.321', '162.5')) });

/** Any stored record; its evidence one of a few shared objects (the events of one tax-point day share theirs) or none. */
const records: fc.Arbitrary<SupplyEventRecord[]> = fc.array(evidence, { minLength: 1, maxLength: 3 }).chain((pool) =>
  fc.array(
    fc.record({
      id: fc.uuid(), accountId: fc.bigInt({ min: 1n, max: 10n ** 18n }), sequence: fc.bigInt({ min: 1n, max: 10n ** 18n }),
      recordedAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }), contentDigest: text,
      eventId: text, eventType: text, originalEventId: opt(text), occurredAt: text, supplyKind: text, customerType: text,
      countryOfConsumption: text, dispatchCountry: opt(text), supplierEstablishmentCountry: opt(text), currency: text,
      netAmountMinor: amount, vatAmountMinor: amount, vatRateBps: fc.integer({ min: 0, max: 10_000 }), rateCategory: text,
      classificationStatus: text, taxClassId: opt(text), productReference: opt(text), variantReference: opt(text), orderReference: opt(text),
      integrationId: opt(fc.bigInt({ min: 1n, max: 10n ** 18n })), sourceId: opt(text), calculationId: opt(fc.uuid()), consignmentReference: opt(text),
      intrinsicValueEurMinor: opt(amount), thirdCountryOrigin: opt(text), exciseGoods: opt(fc.boolean()), region: opt(text),
      customerVatNumberDigest: opt(text), customerVatNumberMasked: opt(text), customerVatNumberEncrypted: fc.constant(null),
      ecbRateEvidence: fc.option(fc.constantFrom(...pool), { nil: null }),
    }),
    { minLength: 1, maxLength: 30 },
  ),
) as fc.Arbitrary<SupplyEventRecord[]>;

const withoutEvidence = (r: SupplyEventRecord) => supplyEventMessage(r, null);

describe('SupplyCommitted written on the wire directly', () => {
  it('decodes to the message create makes of the records with their evidence, for any records', () => {
    fc.assert(fc.property(records, (rs) => {
      const payload = supplyCommittedPayload('01a231eb-6440-77f6-9b3c-6c77d2506973', rs, withoutEvidence, evidenceFields());
      const expected = create(SupplyCommittedSchema, { eventId: '01a231eb-6440-77f6-9b3c-6c77d2506973', supplyEvents: rs.map((r) => supplyEventMessage(r)) });
      expect(equals(SupplyCommittedSchema, fromBinary(SupplyCommittedSchema, payload), expected)).toBe(true);
      // The same size as protobuf-es's own encoding (only the evidence field's place in each event differs).
      expect(payload.length).toBe(toBinary(SupplyCommittedSchema, expected).length);
    }), { numRuns: 500 });
  });

  it('an evidence object is encoded once per commit (the same bytes for every event carrying it)', () => {
    const ev: EcbRateEvidence = { rateDate: '2026-03-02', ratesPerEur: { USD: '1.0812', GBP: '0.8543' } };
    const fields = evidenceFields();
    expect(fields(ev)).toBe(fields(ev));
    // Another object with the same rates is another encoding of the same bytes.
    expect(fields({ ...ev })).not.toBe(fields(ev));
    expect(fields({ ...ev })).toEqual(fields(ev));
  });

  it('a message that already carries its evidence is refused (it would be written twice)', () => {
    const r = fc.sample(records, 1)[0]![0]!;
    const ev: EcbRateEvidence = { rateDate: '2026-03-02', ratesPerEur: { USD: '1.0812' } };
    expect(() => supplyCommittedPayload('e', [{ ...r, ecbRateEvidence: ev }], (x) => supplyEventMessage(x), evidenceFields())).toThrow(/without its evidence/);
  });

  it('a commit of 2 × EVENTS_PER_MESSAGE + 1 events is three SupplyCommitted in ledger order, each named by its own event id', () => {
    const base = fc.sample(records, 1)[0]![0]!;
    const rs = Array.from({ length: 2 * EVENTS_PER_MESSAGE + 1 }, (_, i) => ({ ...base, sequence: BigInt(i + 1), eventId: `e-${i}` }));
    const out = supplyCommittedEvents(rs, withoutEvidence);
    expect(out.map((o) => supplyEventsIn(o.payload))).toEqual([EVENTS_PER_MESSAGE, EVENTS_PER_MESSAGE, 1]);
    expect(new Set(out.map((o) => o.subject))).toEqual(new Set([subjectOf(SupplyCommittedSchema)]));
    const decoded = out.map((o) => fromBinary(SupplyCommittedSchema, o.payload));
    expect(decoded.map((d) => d.eventId)).toEqual(out.map((o) => o.id));
    expect(decoded.flatMap((d) => d.supplyEvents.map((e) => e.sequence))).toEqual(rs.map((r) => r.sequence));
    expect(decoded.flatMap((d) => d.supplyEvents).every((e, i) => equals(SupplyEventSchema, e, supplyEventMessage(rs[i]!)))).toBe(true);
  });
});
