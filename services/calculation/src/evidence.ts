import { digestOf } from '@vat/platform/canonical-json';
import { ALGORITHM_MANIFEST_DIGEST, ALGORITHM_MANIFEST_VERSION, EXECUTION_DIGEST } from './domain/algorithm-manifest';
import { CALCULATION_VERSION } from './domain/calculator';
import { deepFreeze } from './domain/deep-freeze';
import { windowColumns, type RateRelease, type RateWindow, type RateWindowColumns } from './repositories/rate-releases';

const RATE_EVIDENCE_SCHEMA = 'rate-evidence/v1';
const CALCULATION_EVIDENCE_SCHEMA = 'calculation-evidence/v1';
export const MAPPING_VERSION = 'tax-class-direct/v1';

/** The canonical calculation request: what idempotency compares and replay recomputes from. */
export type CanonicalRequest = {
  schema: 'vat-calculate-request/v1';
  country: string;
  currency: string;
  tax_class_id: string;
  amount_minor: string;
  price_includes_vat: boolean;
  transaction_date: string;
  source_id: string | null;
};

/** The rate window exactly as applied, sealed with the release it came from. */
type PinnedRate = {
  release_digest: string;
  release_version: string;
  release_approved_at: string | null;
  release_approved_by: string | null;
  row_digest: string;
  window: RateWindowColumns & { sources: { source_id: string; title: string; url: string; as_of: string }[] };
};

export type StoredRateEvidence = PinnedRate & { pinned_digest: string; evidence_status: string };

/** Verified only for a source-cited row of an operator-approved release; never inferred from a number. */
export function rateEvidenceStatus(release: RateRelease, w: RateWindow): 'verified' | 'legacy_unverifiable' {
  return release.approvedAt && w.reviewStatus === 'source_cited' ? 'verified' : 'legacy_unverifiable';
}

/**
 * The evidence pinRate made for a window of a loaded release. Every calculation in that window seals the same
 * evidence (kilobytes of cited sources), so its canonical JSON and digest are computed once per window, not per
 * request (they were a tenth of the stored calculation's CPU profile). A hit is taken only for the same release
 * object with the same identity and approval, and the window with the same row digest, as when the evidence was made.
 */
const pinnedByWindow = new WeakMap<RateWindow, { release: RateRelease; evidence: StoredRateEvidence }>();
/** Evidence objects made (and frozen) by pinRate: their digest is the one just computed over them. */
const sealedHere = new WeakSet<StoredRateEvidence>();

/** The window exactly as applied, with the release it came from and the digest over both (frozen, shared). */
export function pinRate(release: RateRelease, w: RateWindow): StoredRateEvidence {
  const approvedAt = release.approvedAt?.toISOString() ?? null;
  const hit = pinnedByWindow.get(w);
  if (hit && hit.release === release) {
    const e = hit.evidence;
    if (e.row_digest === w.rowDigest && e.release_digest === release.digest && e.release_version === release.version && e.release_approved_at === approvedAt && e.release_approved_by === release.approvedBy && e.evidence_status === rateEvidenceStatus(release, w)) return e;
  }
  const pinned: PinnedRate = {
    release_digest: release.digest,
    release_version: release.version,
    release_approved_at: approvedAt,
    release_approved_by: release.approvedBy,
    row_digest: w.rowDigest,
    // Copies: freezing the evidence must not freeze the window's own sources.
    window: { ...windowColumns(w), sources: structuredClone(w.sources) },
  };
  const evidence = deepFreeze({ ...pinned, pinned_digest: digestOf(pinned), evidence_status: rateEvidenceStatus(release, w) }) as StoredRateEvidence;
  pinnedByWindow.set(w, { release, evidence });
  sealedHere.add(evidence);
  return evidence;
}

/** Splits stored evidence back into the sealed part and recomputes its digest (evidence pinRate made here is known to match). */
export function pinnedDigestMatches(e: StoredRateEvidence): boolean {
  if (sealedHere.has(e)) return true;
  const { pinned_digest, evidence_status: _s, ...pinned } = e;
  return digestOf(pinned) === pinned_digest;
}

/** Ordered, public-safe references to the sealed evidence (kinds and digests only). */
export function snapshotReferences(requestDigest: string, e: StoredRateEvidence, manifestDigest = ALGORITHM_MANIFEST_DIGEST): { kind: string; digest: string }[] {
  return [
    { kind: 'canonical_request', digest: requestDigest },
    { kind: 'rate_window', digest: e.pinned_digest },
    { kind: 'rate_release', digest: e.release_digest },
    { kind: 'algorithm_manifest', digest: manifestDigest },
  ];
}

export function rateProvenance(e: StoredRateEvidence, effectiveAt: string, requestDigest: string) {
  const verified = e.evidence_status === 'verified';
  return {
    schemaVersion: RATE_EVIDENCE_SCHEMA,
    evidenceStatus: e.evidence_status,
    source: `EU VAT rate reference release ${e.release_version}`,
    effectiveAt,
    sourceEvidence: e.window.sources.map((s) => ({
      sourceId: s.source_id,
      title: s.title,
      url: s.url,
      asOf: s.as_of,
      legalRef: e.window.legal_ref ?? '',
      tedbCategory: e.window.tedb_category ?? '',
      reviewStatus: e.window.review_status,
    })),
    ...(verified
      ? {
          approvedReleaseVersion: e.release_version,
          rateReleaseDigest: e.release_digest,
          rateRowDigest: e.row_digest,
          snapshotReferences: snapshotReferences(requestDigest, e),
        }
      : {}),
  };
}

export function calculationProvenance(ownership: 'tenant_owned' | 'unowned_compatibility', replayStatus: 'available' | 'ineligible') {
  return {
    schemaVersion: CALCULATION_EVIDENCE_SCHEMA,
    calculationVersion: CALCULATION_VERSION,
    executionDigest: EXECUTION_DIGEST,
    algorithmManifestVersion: ALGORITHM_MANIFEST_VERSION,
    algorithmManifestDigest: ALGORITHM_MANIFEST_DIGEST,
    ownership,
    evidenceStatus: 'captured',
    replayStatus,
  };
}

/** Replay needs the canonical request, the sealed rate and a registered calculator version. */
export function replayStatusOf(requestDigest: string, canonical: CanonicalRequest | undefined, e: StoredRateEvidence | undefined, version: string): 'available' | 'ineligible' {
  return canonical && e && version === CALCULATION_VERSION && digestOf(canonical) === requestDigest && pinnedDigestMatches(e) ? 'available' : 'ineligible';
}
