import { toBinary } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { calculationGroupHead, calculationGroupPart, calculationsIn, calculationsRecorded } from '../src/calculation-recorded';
import { buildEvent, decodeEvent } from '../src/events';

const calculation = fc.record({
  calculationId: fc.uuid(),
  accountId: fc.bigInt({ min: 1n, max: 2n ** 62n }),
  apiKeyId: fc.bigInt({ min: 1n, max: 2n ** 62n }),
  country: fc.constantFrom('DE', 'FR', 'IE'),
  currency: fc.constantFrom('EUR', 'PLN', 'SEK'),
  taxClassId: fc.string({ maxLength: 40 }),
  vatRateBps: fc.integer({ min: 0, max: 2700 }),
  netAmountMinor: fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
  vatAmountMinor: fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
  grossAmountMinor: fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
  transactionDate: fc.constant('2026-03-01T00:00:00.000Z'),
  sourceId: fc.option(fc.string({ maxLength: 100 }), { nil: undefined }),
  recordedAt: fc.constant('2026-12-01T10:00:00.000Z'),
});

describe('group CalculationRecorded (head + parts, assembled in SQL by the calculation service)', () => {
  it('head followed by any of its calculations\' parts decodes as the group with those calculations, in order', () => {
    fc.assert(
      fc.property(fc.array(calculation, { minLength: 1, maxLength: 70 }), fc.bigInt({ min: 1n, max: 2n ** 62n }), (calcs, accountId) => {
        const events = calcs.map((c) => buildEvent(CalculationRecordedSchema, c));
        const head = calculationGroupHead(accountId);
        const payload = Buffer.concat([head.payload, ...events.map((e) => calculationGroupPart(e.payload))]);
        const group = decodeEvent(CalculationRecordedSchema, payload);
        expect(group.eventId).toBe(head.id);
        expect(group.accountId).toBe(accountId);
        expect(group.calculationId).toBe('');
        expect(calculationsIn(payload)).toBe(calcs.length);
        const expanded = calculationsRecorded([{ id: 'bus-id', subject: head.subject, data: payload }]);
        expect(expanded.map((e) => e.id)).toEqual(events.map((e) => e.id));
        expect(expanded.map((e) => e.event)).toEqual(events.map((e) => decodeEvent(CalculationRecordedSchema, e.payload)));
      }),
      { numRuns: 200 },
    );
  });

  it('a single event is itself: its event id (else the bus message id), counted once', () => {
    const single = buildEvent(CalculationRecordedSchema, { calculationId: 'c-1', accountId: 7n });
    expect(calculationsIn(single.payload)).toBe(1);
    expect(calculationsRecorded([{ id: 'bus-1', subject: single.subject, data: single.payload }]).map((e) => [e.id, e.event.calculationId])).toEqual([[single.id, 'c-1']]);
    const bare = buildEvent(CalculationRecordedSchema, { calculationId: 'c-2', accountId: 7n });
    const withoutId = decodeEvent(CalculationRecordedSchema, bare.payload);
    withoutId.eventId = '';
    expect(calculationsRecorded([{ id: 'bus-2', subject: bare.subject, data: toBinary(CalculationRecordedSchema, withoutId) }])[0]!.id).toBe('bus-2');
  });
});
