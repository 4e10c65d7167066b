import fc from 'fast-check';
import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { SupplyEventInputSchema } from '@vat/gen/vat/ledger/v1/resources_pb';
import { impliedVat, MAX_EVENT_AMOUNT_MINOR, validateSupplyEvent as validateWith } from '../src/domain/supply-event-rules';

const TAX_CLASSES = new Set(['standard', 'reduced', 'food']);
const validateSupplyEvent = (input: Parameters<typeof validateWith>[0]) => validateWith(input, (id) => TAX_CLASSES.has(id));

const anyString = fc.oneof(fc.string(), fc.constantFrom('sale', 'refund', 'goods', 'b2c', 'DE', 'EUR', 'standard', 'classified', '2026-01-01', ''));
const anyInt = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -20000n, max: 20000n }));
const input = fc.record(
  {
    eventId: anyString, eventType: anyString, originalEventId: anyString, occurredAt: anyString, supplyKind: anyString, customerType: anyString,
    countryOfConsumption: anyString, dispatchCountry: anyString, currency: anyString, netAmountMinor: anyInt, vatAmountMinor: anyInt, vatRateBps: anyInt,
    rateCategory: anyString, classificationStatus: anyString, taxClassId: anyString, intrinsicValueEurMinor: anyInt, thirdCountryOrigin: anyString, exciseGoods: fc.boolean(),
  },
  { requiredKeys: [] },
);

const validSale = fc.record({
  net: fc.bigInt({ min: 0n, max: MAX_EVENT_AMOUNT_MINOR }),
  bps: fc.integer({ min: 0, max: 10_000 }),
  slack: fc.constantFrom(-1n, 0n, 1n),
});

describe('supply-event rules (property-based)', () => {
  it('never throws: any input gives either a normalized event or a non-empty list of violations', () => {
    fc.assert(
      fc.property(input, (raw) => {
        const r = validateSupplyEvent(create(SupplyEventInputSchema, raw));
        expect(r.event === undefined).toBe(r.violations.length > 0);
        for (const v of r.violations) expect(v.error).toMatch(/^[a-z][a-z0-9_]*$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('impliedVat is half-up of |net|·bps/10000 with the sign of net (checked against decimal arithmetic)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_EVENT_AMOUNT_MINOR, max: MAX_EVENT_AMOUNT_MINOR }), fc.integer({ min: 0, max: 10_000 }), (net, bps) => {
        const abs = net < 0n ? -net : net;
        const exact = abs * BigInt(bps); // VAT × 10000
        const floor = exact / 10_000n;
        const expected = exact % 10_000n >= 5_000n ? floor + 1n : floor;
        expect(impliedVat(net, bps)).toBe(net < 0n ? -expected : expected);
        expect(impliedVat(-net, bps)).toBe(-impliedVat(net, bps));
      }),
    );
  });

  it('a sale whose VAT is within one minor unit of the implied VAT is accepted; its amounts are kept exactly', () => {
    fc.assert(
      fc.property(validSale, ({ net, bps, slack }) => {
        const vat = impliedVat(net, bps) + slack;
        fc.pre(vat >= 0n && vat <= MAX_EVENT_AMOUNT_MINOR);
        const r = validateSupplyEvent(
          create(SupplyEventInputSchema, {
            eventId: 'p-1', eventType: 'sale', occurredAt: '2026-01-15', supplyKind: 'goods', customerType: 'b2c', countryOfConsumption: 'DE', currency: 'EUR',
            netAmountMinor: net, vatAmountMinor: vat, vatRateBps: BigInt(bps), rateCategory: bps === 0 ? 'zero' : 'standard', classificationStatus: 'classified',
          }),
        );
        expect(r.violations).toEqual([]);
        expect([r.event!.netAmountMinor, r.event!.vatAmountMinor]).toEqual([net, vat]);
      }),
    );
  });
});

describe('tax_class_id', () => {
  const sale = (taxClassId: string) =>
    validateSupplyEvent(
      create(SupplyEventInputSchema, {
        eventId: 't-1', eventType: 'sale', occurredAt: '2026-01-15', supplyKind: 'goods', customerType: 'b2c', countryOfConsumption: 'DE', currency: 'EUR',
        netAmountMinor: 1000n, vatAmountMinor: 190n, vatRateBps: 1900n, rateCategory: 'standard', classificationStatus: 'classified', taxClassId,
      }),
    );

  it('is one of the known classes, else unknown_tax_class (as everywhere else)', () => {
    expect(sale('food').event?.taxClassId).toBe('food');
    for (const id of ['no_such_thing', 'de', 'null', 'DE', 'Standard', 'standard ', '', 'x'.repeat(500)]) {
      expect(sale(id).violations, JSON.stringify(id)).toEqual([{ field: 'tax_class_id', error: 'unknown_tax_class', detail: expect.stringContaining('GET /v1/tax-classes') }]);
    }
  });
});
