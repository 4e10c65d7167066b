import { describe, expect, it } from 'vitest';
import { loadShippedRelease, parseRelease, ReleaseRejected } from './release';

describe('Article 59c threshold release', () => {
  const shipped = loadShippedRelease();

  it('the shipped release is a complete EU-27 snapshot with EUR 10,000 for euro States and cited national amounts', () => {
    expect(shipped.document.member_states).toHaveLength(27);
    expect(shipped.thresholds.get('DE')).toEqual({ currency: 'EUR', amountMinor: 1_000_000n, scale: 2 });
    expect(shipped.thresholds.get('PL')).toEqual({ currency: 'PLN', amountMinor: 4_200_000n, scale: 2 });
    expect(shipped.thresholds.get('SE')).toEqual({ currency: 'SEK', amountMinor: 9_968_000n, scale: 2 });
    // RO: RON 46,337 as cited (= 10,000 × 4.6337, the ECB rate of 5 December 2017: 46,337.00 RON = 4,633,700 bani)
    expect(shipped.thresholds.get('RO')).toEqual({ currency: 'RON', amountMinor: 4_633_700n, scale: 2 });
    // BG: a euro State since 1 January 2026, the Directive amount; CZ, DK, HU: the sources state EUR 10,000
    for (const c of ['BG', 'CZ', 'DK', 'HU']) expect(shipped.thresholds.get(c)).toEqual({ currency: 'EUR', amountMinor: 1_000_000n, scale: 2 });
    // every State has an amount in this release (a null amount stays possible and blocks, see article59c.test.ts)
    expect(shipped.thresholds.size).toBe(27);
    expect(shipped.version).toBe('article59c-2026-11-24-r2');
  });

  it('rejects a release that lacks any Member State (a country-only successor)', () => {
    const partial = { ...shipped.document, release_version: 'partial', member_states: shipped.document.member_states.filter((r) => r.country !== 'FR') };
    expect(() => parseRelease(partial)).toThrow(ReleaseRejected);
    expect(() => parseRelease(partial)).toThrow(/missing FR/);
    const onlyDe = { ...shipped.document, member_states: shipped.document.member_states.filter((r) => r.country === 'DE') };
    expect(() => parseRelease(onlyDe)).toThrow(/complete EU-27/);
  });

  it('rejects duplicates, non-members, unknown sources and a null amount not marked as not found', () => {
    const rows = shipped.document.member_states;
    expect(() => parseRelease({ ...shipped.document, member_states: [...rows, rows[0]] })).toThrow(/twice/);
    expect(() => parseRelease({ ...shipped.document, member_states: [...rows, { ...rows[0]!, country: 'GB' }] })).toThrow(/not an EU Member State/);
    expect(() => parseRelease({ ...shipped.document, member_states: rows.map((r) => (r.country === 'AT' ? { ...r, source_ids: ['nope'] } : r)) })).toThrow(/unknown source/);
    expect(() => parseRelease({ ...shipped.document, member_states: rows.map((r) => (r.country === 'AT' ? { ...r, threshold_minor: null } : r)) })).toThrow(ReleaseRejected);
  });
});
