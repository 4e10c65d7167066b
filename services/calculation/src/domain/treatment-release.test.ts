import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import { expiredSources, parseTreatmentRelease, releaseDigest, RULE_IDS, TreatmentReleaseError } from './treatment-release';

const SEED = readFileSync(new URL('../../../../seeds/treatment-releases/eu27-sales-vat-2026-11.json', import.meta.url));
const seed = () => JSON.parse(SEED.toString('utf8'));
const bytes = (v: unknown) => Buffer.from(JSON.stringify(v));
const issues = (v: unknown): string[] => {
  try {
    parseTreatmentRelease(Buffer.isBuffer(v) ? v : bytes(v));
  } catch (err) {
    if (err instanceof TreatmentReleaseError) return err.issues;
    throw err;
  }
  return [];
};

describe('governed-treatment/v2 release files', () => {
  it('the shipped candidate is valid, covers the EU-27 from 2021-07-01 and states every rule with cited, dated sources', () => {
    const r = parseTreatmentRelease(SEED);
    expect([...r.jurisdictions].sort()).toEqual([...EU_MEMBER_STATES].sort());
    expect(r.legal_from).toBe('2021-07-01');
    expect(r.rules.map((x) => x.rule_id).sort()).toEqual([...RULE_IDS].sort());
    for (const s of r.sources) expect(s.url).toMatch(/^https:\/\/eur-lex\.europa\.eu\//);
  });

  it.each([
    ['a wrong format', (d: any) => void (d.format = 'governed-treatment/v1'), /format/],
    ['an unknown member', (d: any) => void (d.extra = 1), /unknown member "extra"/],
    ['a non-EU jurisdiction', (d: any) => void d.jurisdictions.push('US'), /US is not an EU Member State/],
    ['a repeated jurisdiction', (d: any) => void d.jurisdictions.push('DE'), /repeat/],
    ['an impossible date', (d: any) => void (d.legal_from = '2021-02-30'), /legal_from/],
    ['legal_to before legal_from', (d: any) => void (d.legal_to = '2020-01-01'), /legal_to must be after/],
    ['a missing rule', (d: any) => void d.rules.pop(), /rule imported_goods is missing/],
    ['an unknown rule', (d: any) => void (d.rules[0].rule_id = 'guess'), /not a rule the resolver implements/],
    ['an unknown treatment', (d: any) => void (d.rules[0].treatment = 'zero_rated'), /treatment must be/],
    ['a rule citing an unknown source', (d: any) => void (d.rules[0].sources = ['blog']), /unknown source blog/],
    ['a source without review date', (d: any) => void delete d.sources[0].reviewed_at, /reviewed_at/],
    ['a non-https source', (d: any) => void (d.sources[0].url = 'http://example.org'), /https/],
    ['an unknown CN edition', (d: any) => void d.catalog_editions.cn.push('2027'), /CN editions/],
  ])('refuses %s', (_name, change, pattern) => {
    const d = seed();
    change(d);
    expect(issues(d).join('\n')).toMatch(pattern);
  });

  it('refuses a file that is not UTF-8 JSON', () => {
    expect(issues(Buffer.from([0xff, 0xfe]))).toEqual(['the file is not UTF-8 JSON']);
    expect(issues(Buffer.from('[1]'))).toEqual(['the file is not a JSON object']);
  });

  it('the digest covers the content and the sealed rate release', () => {
    const r = parseTreatmentRelease(SEED);
    expect(releaseDigest(r, 'sha256:a')).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(releaseDigest(r, 'sha256:a')).not.toBe(releaseDigest(r, 'sha256:b'));
    expect(releaseDigest(r, 'sha256:a')).toBe(releaseDigest(parseTreatmentRelease(SEED), 'sha256:a'));
  });

  it('a source reviewed more than 180 days before the decision no longer supports its rules', () => {
    const r = parseTreatmentRelease(SEED);
    const rule = r.rules.find((x) => x.rule_id === 'domestic_supply')!;
    const reviewed = Date.parse('2026-11-24T00:00:00Z');
    expect(expiredSources(r, rule, new Date(reviewed + 180 * 86_400_000))).toEqual([]);
    expect(expiredSources(r, rule, new Date(reviewed + 180 * 86_400_000 + 1))).toEqual(['vat-directive']);
  });
});
