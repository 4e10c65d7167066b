import { describe, expect, it } from 'vitest';
import { digestOf } from '@vat/platform/canonical-json';
import { pinnedDigestMatches, pinRate, type StoredRateEvidence } from './evidence';
import type { RateRelease, RateWindow } from './repositories/rate-releases';

const window = (): RateWindow => ({
  id: 7n,
  country: 'DE',
  taxClassId: 'standard',
  rateBps: 1900,
  validFrom: '2007-01-01',
  validTo: null,
  rateType: 'standard',
  conditional: false,
  conditions: null,
  sources: [{ source_id: 'de-ustg-12', title: 'UStG § 12 (1)', url: 'https://www.gesetze-im-internet.de/ustg_1980/__12.html', as_of: '2026-11-01' }],
  legalRef: 'UStG § 12 (1)',
  tedbCategory: null,
  reviewStatus: 'source_cited',
  note: null,
  rowDigest: 'sha256:row',
});
const release = (): RateRelease => ({ id: 1n, digest: 'sha256:release', version: '2026-11-22', approvedAt: new Date('2026-11-22T10:00:00Z'), approvedBy: 'operator@example.eu' });

/** The digest over the sealed part, computed from scratch (what a replay checks). */
function recomputed(e: StoredRateEvidence): string {
  const { pinned_digest: _d, evidence_status: _s, ...pinned } = e;
  return digestOf(JSON.parse(JSON.stringify(pinned)));
}

describe('pinRate: the evidence of a window, made once per window of a loaded release', () => {
  it('answers the same frozen evidence for every calculation in a window, its digest the one a replay recomputes', () => {
    const w = window();
    const r = release();
    const a = pinRate(r, w);
    expect(pinRate(r, w)).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.window) && Object.isFrozen(a.window.sources[0])).toBe(true);
    expect(a.pinned_digest).toBe(recomputed(a));
    expect(a.evidence_status).toBe('verified');
    expect(a.window.sources).toEqual(w.sources);
    // The window's own sources stay as they were (the evidence holds a copy).
    expect(Object.isFrozen(w.sources) || Object.isFrozen(w.sources[0])).toBe(false);
    expect(() => ((a as { release_version: string }).release_version = 'x')).toThrow(TypeError);
  });

  it('makes new evidence for another release, and when the same release object was approved since', () => {
    const w = window();
    const r = release();
    const a = pinRate(r, w);
    const other = pinRate({ ...r, digest: 'sha256:other', version: '2026-12-01' }, w);
    expect(other).not.toBe(a);
    expect([other.release_digest, other.release_version, other.pinned_digest]).toEqual(['sha256:other', '2026-12-01', recomputed(other)]);
    const unapproved: RateRelease = { ...release(), approvedAt: null, approvedBy: null };
    const before = pinRate(unapproved, w);
    expect([before.release_approved_at, before.evidence_status]).toEqual([null, 'legacy_unverifiable']);
    unapproved.approvedAt = new Date('2026-11-23T08:00:00Z');
    unapproved.approvedBy = 'operator@example.eu';
    const after = pinRate(unapproved, w);
    expect(after).not.toBe(before);
    expect([after.release_approved_at, after.evidence_status, after.pinned_digest]).toEqual(['2026-11-23T08:00:00.000Z', 'verified', recomputed(after)]);
    // A window whose row changed in place (another row digest) is pinned again.
    w.rateBps = 700;
    w.rowDigest = 'sha256:row-700';
    const changed = pinRate(unapproved, w);
    expect([changed.window.rate_bps, changed.row_digest, changed.pinned_digest]).toEqual([700, 'sha256:row-700', recomputed(changed)]);
  });

  it('checks evidence read back from storage against its digest: an altered copy does not match', () => {
    const e = pinRate(release(), window());
    const stored = JSON.parse(JSON.stringify(e)) as StoredRateEvidence;
    expect(pinnedDigestMatches(e)).toBe(true);
    expect(pinnedDigestMatches(stored)).toBe(true);
    const altered = { ...stored, window: { ...stored.window, rate_bps: 700 } };
    expect(pinnedDigestMatches(altered)).toBe(false);
  });
});
