import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCheckAnswer } from './vies-client';

describe('reading a VIES check-vat-number answer', () => {
  it('valid and invalid answers; `---` is an undisclosed name or address', () => {
    expect(readCheckAnswer(200, { countryCode: 'DE', vatNumber: '136695976', requestDate: '2026-11-28T08:00:00.000Z', valid: true, requestIdentifier: 'WAPIAAAAX', name: 'ACME GmbH', address: '---' })).toEqual({
      kind: 'valid', requestDate: '2026-11-28T08:00:00.000Z', requestIdentifier: 'WAPIAAAAX', name: 'ACME GmbH', address: null, attempts: 0,
    });
    expect(readCheckAnswer(200, { valid: false, requestIdentifier: '', name: '---' })).toMatchObject({ kind: 'invalid', requestIdentifier: null, name: null });
  });

  it('an error body is an error whatever the HTTP status, and also says valid: false', () => {
    expect(readCheckAnswer(200, { actionSucceed: false, valid: false, errorWrappers: [{ error: 'MS_UNAVAILABLE', message: 'x' }] })).toEqual({ kind: 'error', code: 'MS_UNAVAILABLE' });
    expect(readCheckAnswer(500, { actionSucceed: false, errorWrappers: [{ error: 'SERVICE_UNAVAILABLE' }] })).toEqual({ kind: 'error', code: 'SERVICE_UNAVAILABLE' });
    expect(readCheckAnswer(500, undefined)).toEqual({ kind: 'error', code: 'HTTP_ERROR' });
    expect(readCheckAnswer(200, { actionSucceed: false, errorWrappers: [] })).toEqual({ kind: 'error', code: 'HTTP_ERROR' });
  });

  it('never reads anything but `valid: false` as invalid (any JSON body, any status)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.jsonValue(), (status, body) => {
        const a = readCheckAnswer(status, body);
        if (a.kind === 'invalid') {
          expect(status).toBe(200);
          expect((body as { valid?: unknown; isValid?: unknown }).valid === false || (body as { isValid?: unknown }).isValid === false).toBe(true);
        }
        if (a.kind === 'error') expect(a.code).toMatch(/^[A-Z0-9_-]{1,60}$/);
      }),
      { numRuns: 2000 },
    );
  });
});
