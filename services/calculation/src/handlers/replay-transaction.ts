import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ReplayTransactionResponseSchema, type ReplayTransactionRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { digestOf } from '@vat/platform/canonical-json';
import { isUuid } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { notFound } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { calculateVat, CALCULATION_VERSION } from '../domain/calculator';
import { calculationProvenance, pinnedDigestMatches, rateProvenance } from '../evidence';

const hidden = () => notFound('calculation_not_found', 'No replayable calculation with this id.');

/**
 * Recomputes a stored calculation from its sealed canonical request and rate window with the
 * registered calculator; every failure (malformed, foreign, unavailable, tampered) is the same 404.
 */
export async function replayTransaction(deps: CalculationDeps, req: ReplayTransactionRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!isUuid(req.id)) throw hidden();
  const r = await deps.calculations.owned(accountId, req.id.toLowerCase());
  if (!r || r.replayStatus !== 'available' || r.calculationVersion !== CALCULATION_VERSION) throw hidden();
  const canonical = r.canonicalRequest;
  const e = r.rateEvidence;
  if (digestOf(canonical) !== r.requestDigest || !pinnedDigestMatches(e) || e.window.rate_bps !== r.vatRateBps) {
    deps.log.warn({ calculation: r.id }, 'replay refused: sealed evidence does not match');
    throw hidden();
  }
  const amounts = calculateVat({ amountMinor: BigInt(canonical.amount_minor), rateBps: e.window.rate_bps, priceIncludesVat: canonical.price_includes_vat });
  if (amounts.netMinor !== r.netMinor || amounts.vatMinor !== r.vatMinor || amounts.grossMinor !== r.grossMinor) {
    deps.log.warn({ calculation: r.id }, 'replay refused: recomputed amounts differ');
    throw hidden();
  }
  return create(ReplayTransactionResponseSchema, {
    exactMatch: true,
    calculationId: r.id,
    country: canonical.country,
    currency: canonical.currency,
    vatRateBps: e.window.rate_bps,
    grossAmountMinor: amounts.grossMinor,
    netAmountMinor: amounts.netMinor,
    vatAmountMinor: amounts.vatMinor,
    transactionDate: canonical.transaction_date,
    rateProvenance: rateProvenance(e, canonical.transaction_date, r.requestDigest),
    calculationProvenance: calculationProvenance('tenant_owned', 'available'),
  });
}
