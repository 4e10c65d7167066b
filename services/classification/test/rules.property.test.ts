import fc from 'fast-check';
import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { csvRow } from '@vat/platform/csv';
import { cnParentCandidates, cpaParent, displayCode, normalizeCode } from '../src/domain/codes';
import { csvRecords } from '@vat/platform/csv-reader';
import type { CoverageRuleInput } from '../src/domain/coverage-manifest';
import { decide } from '../src/domain/resolve';
import { checkTotp, totpCode } from '../src/domain/totp';

const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((a) => a.join(''));

describe('exact codes', () => {
  it('normalizes every CN code from its compact and its display form, and nothing else', () => {
    fc.assert(
      fc.property(fc.constantFrom(2, 4, 6, 8).chain(digits), (code) => {
        expect(normalizeCode('cn', code)).toBe(code);
        expect(normalizeCode('cn', displayCode('cn', code))).toBe(code);
        expect(normalizeCode('cn', `${code}0`)).toBeUndefined();
        expect(normalizeCode('cn', `${code}.`)).toBeUndefined();
      }),
    );
  });

  it('refuses arbitrary text that is not a code, and never widens a code', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        const cn = normalizeCode('cn', text);
        if (cn !== undefined) expect(cn === text || cn === text.replace(/ /g, '')).toBe(true);
        const cpa = normalizeCode('cpa', text);
        if (cpa !== undefined) expect(cpa).toBe(text);
      }),
    );
  });

  it('gives every CPA code its parent by dropping the last digit', () => {
    expect(['01.11.11', '01.11.1', '01.11', '01.1', '01'].map(cpaParent)).toEqual(['01.11.1', '01.11', '01.1', '01', undefined]);
    expect(cnParentCandidates('04090000')).toEqual(['040900', '0409', '04']);
    expect(cnParentCandidates('01012910')).toEqual(['010129']);
    expect(cnParentCandidates('020500')).toEqual(['0205', '02']);
  });
});

describe('CSV records', () => {
  it('reads back exactly what an RFC 4180 writer wrote (commas, quotes, line breaks)', () => {
    const cell = fc.string({ maxLength: 20 }).map((s) => s.replace(/\r/g, ''));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }), (rows) => {
        const width = rows[0]!.length;
        const table = rows.map((r) => Array.from({ length: width }, (_, i) => `x${r[i] ?? ''}`));
        const text = table.map((r) => csvRow(r)).join('');
        expect([...csvRecords(text)].map((r) => r.cells)).toEqual(table);
      }),
    );
  });

  it('refuses an unterminated quote and text after a closing quote', () => {
    expect(() => [...csvRecords('a,"b\n')]).toThrow(/not closed/);
    expect(() => [...csvRecords('a,"b"c\n')]).toThrow(/after a closing quote/);
  });
});

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1 seed; the 6-digit code is the last 6 digits of the 8-digit vector.
  const secret = Secret.fromLatin1('12345678901234567890').base32;
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s gives the test vector %s', (seconds, vector) => {
    expect(totpCode(secret, new Date(seconds * 1000))).toBe(vector.slice(2));
  });

  it('accepts only the current step: an earlier step is stale, a later one invalid', () => {
    const at = new Date(1_700_000_015_000);
    const step = Math.floor(at.getTime() / 30_000);
    expect(checkTotp(secret, totpCode(secret, at), at)).toEqual({ ok: true, step });
    expect(checkTotp(secret, totpCode(secret, new Date(at.getTime() - 30_000)), at)).toEqual({ ok: false, reason: 'totp_stale' });
    expect(checkTotp(secret, totpCode(secret, new Date(at.getTime() + 30_000)), at)).toEqual({ ok: false, reason: 'totp_invalid' });
    expect(checkTotp(secret, '12345', at)).toEqual({ ok: false, reason: 'totp_invalid' });
  });
});

describe('lookup order', () => {
  const rule = (over: Partial<CoverageRuleInput>): CoverageRuleInput => ({
    ruleId: 'r', jurisdiction: 'DE', scheme: 'cn', catalogVersion: '2022', code: '02', coverage: 'full', legalFrom: '2022-01-01', legalTo: null, taxClassId: 'food', supplyKind: 'goods', status: 'approved', legalReference: 'x', ...over,
  });
  const lineage = ['02011000', '0201', '02', 'I'];

  it('never lets a broader or EU rule override a nearer jurisdiction rule', () => {
    const statuses = fc.constantFrom('approved', 'review_only', 'withdrawn') as fc.Arbitrary<CoverageRuleInput['status']>;
    const anyRule = fc.record({ jurisdiction: fc.constantFrom('DE', 'EU', 'FR'), code: fc.constantFrom(...lineage, '0202'), status: statuses, taxClassId: fc.constantFrom('food', 'standard') }).map((r) => rule({ ...r, ruleId: `${r.jurisdiction}-${r.code}-${r.status}-${r.taxClassId}` }));
    fc.assert(
      fc.property(fc.array(anyRule, { maxLength: 8 }), (rules) => {
        const d = decide(lineage, 'DE', rules);
        const nearestDe = lineage.findIndex((c) => rules.some((r) => r.jurisdiction === 'DE' && r.code === c));
        if (nearestDe >= 0) {
          if (d.status === 'resolved') expect(d.rule).toMatchObject({ jurisdiction: 'DE', code: lineage[nearestDe], status: 'approved' });
          expect(d.matchedBy).toBe(nearestDe === 0 ? 'exact' : 'ancestor');
        } else if (!rules.some((r) => r.jurisdiction === 'EU' && lineage.includes(r.code))) {
          expect(d).toEqual({ status: 'needs_review', reason: 'unmapped' });
        }
        if (d.status === 'resolved') expect(d.rule.status).toBe('approved');
      }),
    );
  });
});
