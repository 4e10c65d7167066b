import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors';

describe('HttpError: a 4xx is an answer, a 5xx a fault', () => {
  it('captures no stack trace for a 4xx, keeps it for a 5xx, and leaves the process limit as it was', () => {
    const before = Error.stackTraceLimit;
    const answer = new HttpError(401, 'invalid_api_key', 'The API key is not valid or has been revoked.');
    const fault = new HttpError(500, 'internal', 'Something failed.');
    expect(Error.stackTraceLimit).toBe(before);
    // With no frames the stack is the name and message alone.
    expect(answer.stack).toBe('Error: The API key is not valid or has been revoked.');
    expect(fault.stack!.split('\n').length).toBeGreaterThan(1);
    expect(fault.stack).toContain('http-error.test.ts');
    expect(answer).toMatchObject({ status: 401, code: 'invalid_api_key', detail: 'The API key is not valid or has been revoked.', extra: {} });
    expect(answer).toBeInstanceOf(Error);
  });
});
