import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { digestOf } from '@vat/platform/canonical-json';
import { contentDigest } from '../src/domain/content-digest';
import type { NormalizedSupplyEvent } from '../src/domain/supply-event-rules';

/** The canonical content an event_id is bound to: a repeat with other content is a conflict. */
function canonicalContent(e: NormalizedSupplyEvent): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  // `region` and the customer's VAT number came later: absent when null, so the digests of events stored before them are unchanged.
  const later = new Set(['region', 'customerVatNumberDigest', 'customerVatNumberMasked']);
  for (const [k, val] of Object.entries(e)) if (!later.has(k) || val !== null) out[k] = typeof val === 'bigint' ? val.toString() : val;
  return out;
}

const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\u2028', '😀', 'é', '\u007f', '\u0000'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 20 });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const amount = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });

/** Any object of the normalized shape (the digest must not depend on the rules having passed). */
const event: fc.Arbitrary<NormalizedSupplyEvent> = fc.record({
  eventId: text, eventType: text, originalEventId: opt(text), occurredAt: text, supplyKind: text, customerType: text,
  countryOfConsumption: text, dispatchCountry: opt(text), supplierEstablishmentCountry: opt(text), currency: text,
  netAmountMinor: amount, vatAmountMinor: amount, vatRateBps: fc.integer({ min: 0, max: 10_000 }), rateCategory: text,
  classificationStatus: text, taxClassId: opt(text), productReference: opt(text), variantReference: opt(text), orderReference: opt(text),
  integrationId: opt(fc.bigInt({ min: 1n, max: 10n ** 18n })), sourceId: opt(text), calculationId: opt(text), consignmentReference: opt(text),
  intrinsicValueEurMinor: opt(amount), thirdCountryOrigin: opt(text), exciseGoods: opt(fc.boolean()), region: opt(text),
  customerVatNumberDigest: opt(text), customerVatNumberMasked: opt(text),
}) as fc.Arbitrary<NormalizedSupplyEvent>;

describe('contentDigest', () => {
  it('equals the generic canonical digest of the canonical content for any event', () => {
    fc.assert(fc.property(event, (e) => {
      expect(contentDigest(e)).toBe(digestOf(canonicalContent(e)));
    }), { numRuns: 2000 });
  });

  it('an event without a region keeps the digest it had before regions existed', () => {
    const e = { ...fc.sample(event, 1)[0]!, region: null };
    const { region: _none, ...before } = e;
    expect(contentDigest(e)).toBe(digestOf(canonicalContent(before as NormalizedSupplyEvent)));
    expect(contentDigest({ ...e, region: 'PT-30' })).not.toBe(contentDigest(e));
  });

  it('an event without a customer VAT number keeps its digest; another number is other content', () => {
    const e = { ...fc.sample(event, 1)[0]!, customerVatNumberDigest: null, customerVatNumberMasked: null };
    const { customerVatNumberDigest: _d, customerVatNumberMasked: _m, ...before } = e;
    expect(contentDigest(e)).toBe(digestOf(canonicalContent(before as NormalizedSupplyEvent)));
    const withNumber = { ...e, customerVatNumberDigest: 'a'.repeat(64), customerVatNumberMasked: 'DE*****5976' };
    expect(contentDigest(withNumber)).not.toBe(contentDigest(e));
    expect(contentDigest({ ...withNumber, customerVatNumberDigest: 'b'.repeat(64) })).not.toBe(contentDigest(withNumber));
  });

  it('refuses a lone surrogate like the generic serialiser', () => {
    const e = fc.sample(event, 1)[0]!;
    const bad = { ...e, productReference: 'x\ud800' };
    expect(() => digestOf(canonicalContent(bad))).toThrow(TypeError);
    expect(() => contentDigest(bad)).toThrow(TypeError);
  });
});
