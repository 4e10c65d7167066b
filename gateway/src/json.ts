import type { CalculationProvenance, CalculationResult, RateProvenance, SourceProfile, TaxClass, TaxClassRate, TransactionSummary } from '@vat/gen/vat/calculation/v1/resources_pb';
import { jsonText } from '@vat/platform/json-text';

/**
 * The gateway's one JSON policy for int64 fields (the spec types them `integer`): an exact JSON integer.
 * Within ±(2^53 - 1) a plain number; beyond, the bigint itself, which `replyJson` writes as its exact
 * digits (as the Union OSS documents do): never rounded, never a string, never refused.
 */
export function num(v: bigint): number | bigint {
  return v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER) ? v : Number(v);
}

/** The reply serializer: plain `JSON.stringify`, and exact integers when an answer holds a bigint (see `num`). */
export function replyJson(payload: unknown): string {
  try {
    return JSON.stringify(payload);
  } catch (err) {
    if (err instanceof TypeError && /BigInt/i.test(err.message)) return jsonText(payload);
    throw err;
  }
}

export const opt = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export function rateProvenanceJson(p: RateProvenance | undefined) {
  if (!p) return null;
  return {
    schema_version: p.schemaVersion,
    evidence_status: p.evidenceStatus,
    source: p.source,
    effective_at: p.effectiveAt,
    source_evidence: p.sourceEvidence.map((s) => ({
      source_id: s.sourceId,
      title: s.title,
      url: s.url,
      as_of: s.asOf,
      legal_ref: s.legalRef || null,
      tedb_category: s.tedbCategory || null,
      review_status: s.reviewStatus,
    })),
    ...(p.approvedReleaseVersion !== undefined
      ? {
          approved_release_version: p.approvedReleaseVersion,
          rate_release_digest: opt(p.rateReleaseDigest),
          rate_row_digest: opt(p.rateRowDigest),
          snapshot_references: p.snapshotReferences.map((r) => ({ kind: r.kind, digest: r.digest })),
        }
      : {}),
  };
}

function calculationProvenanceJson(p: CalculationProvenance | undefined) {
  if (!p) return null;
  return {
    schema_version: p.schemaVersion,
    calculation_version: p.calculationVersion,
    execution_digest: p.executionDigest,
    algorithm_manifest_version: p.algorithmManifestVersion,
    algorithm_manifest_digest: p.algorithmManifestDigest,
    ownership: p.ownership,
    evidence_status: p.evidenceStatus,
    replay_status: p.replayStatus,
  };
}

/** The v1 result shape; a replay answer has the same fields. */
export function calculationResultJson(r: Omit<CalculationResult, '$typeName' | '$unknown'>) {
  return {
    calculation_id: r.calculationId || null,
    country: r.country,
    currency: r.currency,
    vat_rate_bps: r.vatRateBps,
    gross_amount_minor: num(r.grossAmountMinor),
    net_amount_minor: num(r.netAmountMinor),
    vat_amount_minor: num(r.vatAmountMinor),
    transaction_date: r.transactionDate,
    rate_provenance: rateProvenanceJson(r.rateProvenance),
    calculation_provenance: calculationProvenanceJson(r.calculationProvenance),
  };
}

export function transactionSummaryJson(t: TransactionSummary) {
  return {
    id: t.id,
    created_at: t.createdAt,
    transaction_date: t.transactionDate,
    country: t.country,
    currency: t.currency,
    tax_class_id: t.taxClassId,
    vat_rate_bps: t.vatRateBps,
    net_amount_minor: num(t.netAmountMinor),
    vat_amount_minor: num(t.vatAmountMinor),
    gross_amount_minor: num(t.grossAmountMinor),
    price_includes_vat: t.priceIncludesVat,
    source_id: opt(t.sourceId),
    api_key_id: num(t.apiKeyId),
    rate_evidence_status: t.rateEvidenceStatus,
    replay_status: t.replayStatus,
  };
}

export function rateJson(r: TaxClassRate) {
  return {
    country: r.country,
    tax_class_id: r.taxClassId,
    rate_bps: r.rateBps,
    valid_from: `${r.validFrom}T00:00:00Z`,
    valid_to: r.validTo ? `${r.validTo}T00:00:00Z` : null,
    rate_type: r.rateType,
    conditional: r.conditional,
    conditions: opt(r.conditions),
    review_status: r.reviewStatus,
    sources: r.sources.map((s) => ({ source_id: s.sourceId, title: s.title, url: s.url, as_of: s.asOf, legal_ref: s.legalRef || null, tedb_category: s.tedbCategory || null })),
  };
}

export function taxClassJson(c: TaxClass, opts: { preview?: boolean; rates?: boolean }) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    source: c.source,
    group_slug: c.groupSlug,
    group_name: c.groupName,
    tags: c.tags,
    annex_iii_points: c.annexIiiPoints,
    ...(opts.preview ? { preview_rate_bps: opt(c.previewRateBps) } : {}),
    ...(opts.rates ? { rates: c.rates.map(rateJson) } : {}),
  };
}

export function sourceProfileJson(p: SourceProfile) {
  return {
    id: num(p.id),
    source_key: p.sourceKey,
    display_name: p.displayName,
    channel_type: p.channelType,
    platform: opt(p.platform),
    default_country: opt(p.defaultCountry),
    default_currency: opt(p.defaultCurrency),
    supplier_establishment_country: opt(p.supplierEstablishmentCountry),
    dispatch_country: opt(p.dispatchCountry),
    marketplace_deemed_supplier: p.marketplaceDeemedSupplier,
    active: p.active,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}
