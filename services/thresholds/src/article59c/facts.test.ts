import { describe, expect, it } from 'vitest';
import { bucketKeyOf, candidateOf } from './facts';

const refund = {
  factId: '00000000-0000-0000-0000-000000000001',
  accountId: '1',
  eventId: 'r1',
  sequence: 2n,
  eventType: 'refund',
  originalEventId: 's1',
  occurredAt: '2026-01-10T00:00:00.000Z',
  recordedAt: '2026-01-10T00:00:01.000Z',
  supplyKind: 'goods',
  customerType: 'b2c',
  classificationStatus: 'classified',
  countryOfConsumption: 'FR',
  dispatchCountry: 'DE',
  supplierEstablishmentCountry: 'DE',
  currency: 'EUR',
  sourceId: null,
  netMinor: -100n,
};
const original = { eventType: 'sale', occurredAt: '2025-12-30T23:00:00.000Z', countryOfConsumption: 'FR', currency: 'EUR', sequence: 1n };

describe('linking a correction to its original', () => {
  it('a linked correction takes its original sale year (2025), not its own (2026)', () => {
    expect(candidateOf(refund, original)).toMatchObject({ eventClass: 'correction', linkState: 'linked', year: 2025 });
  });
  it('an original of another country, currency or type is an invalid link (own year, unresolved)', () => {
    expect(candidateOf(refund, { ...original, countryOfConsumption: 'IT' })).toMatchObject({ linkState: 'invalid', year: 2026 });
    expect(candidateOf(refund, { ...original, currency: 'PLN' })).toMatchObject({ linkState: 'invalid' });
    expect(candidateOf(refund, { ...original, eventType: 'refund' })).toMatchObject({ linkState: 'invalid' });
  });
  it('a missing original (or none named) is a missing link; a sale has none', () => {
    expect(candidateOf(refund, undefined)).toMatchObject({ linkState: 'missing', year: 2026 });
    expect(candidateOf({ ...refund, originalEventId: null }, original)).toMatchObject({ linkState: 'missing' });
    expect(candidateOf({ ...refund, eventType: 'sale', originalEventId: null, netMinor: 100n }, undefined)).toMatchObject({ eventClass: 'sale', linkState: 'none', year: 2026 });
  });
  it('the bucket key separates every deciding fact and the day', () => {
    const a = candidateOf(refund, original);
    expect(bucketKeyOf(a, '2026-01-10')).toBe('2025|2026-01-10|correction|linked|goods|b2c|classified|FR|DE|DE|EUR|');
    expect(bucketKeyOf({ ...a, dispatchCountry: null }, '2026-01-10')).not.toBe(bucketKeyOf(a, '2026-01-10'));
  });
});
