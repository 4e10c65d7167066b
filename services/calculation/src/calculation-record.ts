import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { buildEvent } from '@vat/platform/events';
import type { OutboxEvent } from '@vat/platform/outbox';
import type { Principal } from '@vat/platform/principal';
import { ALGORITHM_MANIFEST_DIGEST, EXECUTION_DIGEST } from './domain/algorithm-manifest';
import { CALCULATION_VERSION, type VatResult } from './domain/calculator';
import { replayStatusOf, type CanonicalRequest, type StoredRateEvidence } from './evidence';
import type { RateWindow } from './repositories/rate-releases';
import type { NewCalculation } from './repositories/calculations';

/**
 * A stored calculation and its `CalculationRecorded` event, from the v1 canonical request, the applied
 * window and the arithmetic. One definition for v1 calculations and v2's calculated sales-VAT components,
 * so both are listed, exported, aggregated and replayed alike.
 */
export function storedCalculation(p: {
  id: string;
  principal: Principal;
  canonical: CanonicalRequest;
  requestDigest: string;
  window: RateWindow;
  amounts: VatResult;
  evidence: StoredRateEvidence;
  now: Date;
  idempotencyKey: string | null;
}): { record: NewCalculation; event: OutboxEvent } {
  const { canonical, amounts, window } = p;
  const record: NewCalculation = {
    id: p.id,
    accountId: p.principal.accountId,
    apiKeyId: p.principal.apiKeyId,
    createdAt: p.now,
    transactionDate: new Date(canonical.transaction_date),
    country: canonical.country,
    currency: canonical.currency,
    taxClassId: canonical.tax_class_id,
    priceIncludesVat: canonical.price_includes_vat,
    amountMinor: BigInt(canonical.amount_minor),
    netMinor: amounts.netMinor,
    vatMinor: amounts.vatMinor,
    grossMinor: amounts.grossMinor,
    vatRateBps: window.rateBps,
    sourceId: canonical.source_id,
    idempotencyKey: p.idempotencyKey,
    requestDigest: p.requestDigest,
    canonicalRequest: canonical,
    rateEvidence: p.evidence,
    rateEvidenceStatus: p.evidence.evidence_status,
    replayStatus: replayStatusOf(p.requestDigest, canonical, p.evidence, CALCULATION_VERSION),
    calculationVersion: CALCULATION_VERSION,
    executionDigest: EXECUTION_DIGEST,
    manifestDigest: ALGORITHM_MANIFEST_DIGEST,
  };
  return { record, event: calculationRecordedEvent(record) };
}

/** The `CalculationRecorded` of a stored calculation (at its storing, and when calculations are published again). */
export function calculationRecordedEvent(c: NewCalculation): OutboxEvent {
  return buildEvent(CalculationRecordedSchema, {
    calculationId: c.id,
    accountId: c.accountId,
    apiKeyId: c.apiKeyId,
    country: c.country,
    currency: c.currency,
    taxClassId: c.taxClassId,
    vatRateBps: c.vatRateBps,
    netAmountMinor: c.netMinor,
    vatAmountMinor: c.vatMinor,
    grossAmountMinor: c.grossMinor,
    transactionDate: c.canonicalRequest.transaction_date,
    sourceId: c.sourceId ?? undefined,
    recordedAt: c.createdAt.toISOString(),
  });
}
