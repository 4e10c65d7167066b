import { describe, expect, it } from 'vitest';
import { isUuid } from './http-inputs';
import { uuidv7 } from './uuid7';

describe('uuidv7', () => {
  it('is a version-7, variant-1 UUID that sorts by creation millisecond', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isUuid(a)).toBe(true);
    expect(a.slice(0, 13)).toBe('018bcfe5-6800');
    expect(a < b).toBe(true);
  });

  it('is unique across many calls in the same millisecond', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => uuidv7(1_700_000_000_000)));
    expect(ids.size).toBe(20_000);
  });
});

describe('buildEvent', () => {
  it('gives a new event a version-7 id (the outbox and inbox keys grow at their right edge) and keeps a given one', async () => {
    const { buildEvent } = await import('./events');
    const { CalculationRecordedSchema } = await import('@vat/gen/vat/calculation/v1/events_pb');
    const before = Date.now();
    const fresh = buildEvent(CalculationRecordedSchema, { calculationId: 'c', accountId: 1n });
    expect(fresh.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(fresh.id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(before);
    const given = buildEvent(CalculationRecordedSchema, { eventId: 'f47ac10b-58cc-4372-a567-0e02b2c3d479', calculationId: 'c', accountId: 1n });
    expect(given.id).toBe('f47ac10b-58cc-4372-a567-0e02b2c3d479');
  });
});
