import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretMatches } from '../src/keys';

const stored = (secret: string) => createHash('sha256').update(secret).digest('hex');

describe('secretMatches (the per-request key check) compares the SHA-256 of the presented secret with the stored hex', () => {
  it('accepts the secret whose hash is stored and refuses any other, a truncated hash and a non-hex one', () => {
    const secret = randomBytes(32).toString('base64url');
    expect(secretMatches(secret, stored(secret))).toBe(true);
    expect(secretMatches(`${secret}x`, stored(secret))).toBe(false);
    expect(secretMatches(secret, stored(secret).slice(0, 62))).toBe(false);
    expect(secretMatches(secret, 'z'.repeat(64))).toBe(false);
    expect(secretMatches('', stored(''))).toBe(true);
  });

  it('agrees with hashing both sides for any pair of secrets', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(secretMatches(a, stored(b))).toBe(stored(a) === stored(b));
        expect(secretMatches(a, stored(a))).toBe(true);
      }),
    );
  });
});
