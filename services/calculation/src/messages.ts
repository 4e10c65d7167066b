import { create } from '@bufbuild/protobuf';
import { CalculationResultSchema, type CalculationResult, type SourceProfile as SourceProfileMsg, type TaxClass as TaxClassMsg, type TaxClassRate, type TransactionSummary } from '@vat/gen/vat/calculation/v1/resources_pb';
import { calculationProvenance, rateProvenance } from './evidence';
import type { RateWindow, TaxClassRecord } from './repositories/rate-releases';
import type { CalculationRecord } from './repositories/calculations';
import type { SourceProfileRecord } from './repositories/source-profiles';

/** Protobuf messages from the service's records: the one place each mapping is written. */

export function calculationResult(r: CalculationRecord): CalculationResult {
  const transactionDate = r.transactionDate.toISOString();
  return create(CalculationResultSchema, {
    calculationId: r.id,
    country: r.country,
    currency: r.currency,
    vatRateBps: r.vatRateBps,
    grossAmountMinor: r.grossMinor,
    netAmountMinor: r.netMinor,
    vatAmountMinor: r.vatMinor,
    transactionDate,
    rateProvenance: rateProvenance(r.rateEvidence, transactionDate, r.requestDigest),
    calculationProvenance: calculationProvenance('tenant_owned', r.replayStatus === 'available' ? 'available' : 'ineligible'),
  });
}

export function transactionSummary(r: CalculationRecord): TransactionSummary {
  return {
    $typeName: 'vat.calculation.v1.TransactionSummary',
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    transactionDate: r.transactionDate.toISOString(),
    country: r.country,
    currency: r.currency,
    taxClassId: r.taxClassId,
    vatRateBps: r.vatRateBps,
    netAmountMinor: r.netMinor,
    vatAmountMinor: r.vatMinor,
    grossAmountMinor: r.grossMinor,
    priceIncludesVat: r.priceIncludesVat,
    sourceId: r.sourceId ?? undefined,
    apiKeyId: r.apiKeyId,
    rateEvidenceStatus: r.rateEvidenceStatus,
    replayStatus: r.replayStatus,
  };
}

export function rateMessage(w: RateWindow): TaxClassRate {
  return {
    $typeName: 'vat.calculation.v1.TaxClassRate',
    country: w.country,
    rateBps: w.rateBps,
    validFrom: w.validFrom,
    validTo: w.validTo ?? undefined,
    taxClassId: w.taxClassId,
    rateType: w.rateType,
    conditional: w.conditional,
    conditions: w.conditions ?? undefined,
    reviewStatus: w.reviewStatus,
    sources: w.sources.map((s) => ({ $typeName: 'vat.calculation.v1.SourceEvidence', sourceId: s.source_id, title: s.title, url: s.url, asOf: s.as_of, legalRef: w.legalRef ?? '', tedbCategory: w.tedbCategory ?? '', reviewStatus: w.reviewStatus })),
  };
}

export function taxClassMessage(c: TaxClassRecord, extra: Partial<TaxClassMsg> = {}): TaxClassMsg {
  return {
    $typeName: 'vat.calculation.v1.TaxClass',
    id: c.id,
    name: c.name,
    description: c.description,
    source: c.source,
    groupSlug: c.groupSlug,
    groupName: c.groupName,
    tags: c.tags,
    annexIiiPoints: c.annexIiiPoints,
    rates: [],
    ...extra,
  };
}

export function sourceProfileMessage(p: SourceProfileRecord): SourceProfileMsg {
  return {
    $typeName: 'vat.calculation.v1.SourceProfile',
    id: p.id,
    sourceKey: p.sourceKey,
    displayName: p.displayName,
    channelType: p.channelType,
    platform: p.platform ?? undefined,
    defaultCountry: p.defaultCountry ?? undefined,
    defaultCurrency: p.defaultCurrency ?? undefined,
    supplierEstablishmentCountry: p.supplierEstablishmentCountry ?? undefined,
    dispatchCountry: p.dispatchCountry ?? undefined,
    marketplaceDeemedSupplier: p.marketplaceDeemedSupplier,
    active: p.active,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
