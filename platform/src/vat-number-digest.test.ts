import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeVatNumber, vatNumberDigest, vatNumberDigestKey } from './vat-number-digest';

const keyA = vatNumberDigestKey(Buffer.alloc(32, 7).fill(9, 16));
const keyB = vatNumberDigestKey(Buffer.alloc(32, 3).fill(1, 16));

describe('VAT-number digests', () => {
  it('digest the normalized number: spacing, case and the GR prefix do not change it', () => {
    expect(normalizeVatNumber(' de 136.695-976 ')).toBe('DE136695976');
    expect(normalizeVatNumber('GR094259216')).toBe('EL094259216');
    expect(vatNumberDigest(keyA, 'de 136 695 976')).toBe(vatNumberDigest(keyA, 'DE136695976'));
    expect(vatNumberDigest(keyA, 'GR094259216')).toBe(vatNumberDigest(keyA, 'EL094259216'));
  });

  it('is 64 hex digits, differs between numbers and between keys', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{2}[0-9A-Z]{2,12}$/), fc.stringMatching(/^[A-Z]{2}[0-9A-Z]{2,12}$/), (a, b) => {
        const da = vatNumberDigest(keyA, a);
        expect(da).toMatch(/^[0-9a-f]{64}$/);
        expect(vatNumberDigest(keyB, a)).not.toBe(da);
        if (normalizeVatNumber(a) !== normalizeVatNumber(b)) expect(vatNumberDigest(keyA, b)).not.toBe(da);
      }),
    );
  });
});
