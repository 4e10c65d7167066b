import { uuidv7 } from '@vat/platform/uuid7';
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CalculateResponseSchema, type CalculateRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { digestOf } from '@vat/platform/canonical-json';
import { callerOf } from '@vat/platform/principal';
import { Code, invalidArgument, rpcError } from '@vat/platform/rpc-errors';
import { storedCalculation } from '../calculation-record';
import type { CalculationDeps } from '../context';
import { canonicalize } from '../domain/canonical-request';
import { calculateVat } from '../domain/calculator';
import { calculationProvenance, pinRate, rateProvenance } from '../evidence';
import { calculationResult } from '../messages';
import { servableByV1 } from '../reference/rate-store';
import type { CalculationRecord } from '../repositories/calculations';

/** Refers a v1 caller to the v2 endpoint: named in the error only, as guidance. */
function needsV2(reason: string, detail: string) {
  return rpcError(Code.FailedPrecondition, reason, `${detail} Use POST /v2/vat/calculate, which evaluates context-dependent treatments and fails closed.`, { guidance: '/v2/vat/calculate' });
}

/**
 * v1 calculation. A stored (V2 key) calculation costs one statement on the request path: the
 * insert writes the row and its outbox event together; only a lost idempotency race reads again.
 */
export async function calculate(deps: CalculationDeps, req: CalculateRequest, ctx: HandlerContext) {
  const principal = callerOf(ctx);
  const now = deps.now();
  const canonical = canonicalize(req, now);
  const snap = await deps.rates.current();
  if (!snap.classById.has(canonical.tax_class_id)) throw invalidArgument('unknown_tax_class', `No tax class "${canonical.tax_class_id.slice(0, 60)}"; see GET /v1/tax-classes.`);
  if (principal.keyKind === 'legacy' && req.idempotencyKey !== undefined) {
    throw invalidArgument('idempotency_requires_v2_key', 'Legacy keys get unowned, unstored results; Idempotency-Key needs a V2 key.');
  }
  const requestDigest = digestOf(canonical);
  const date = canonical.transaction_date.slice(0, 10);
  const window = snap.windowAt(canonical.country, canonical.tax_class_id, date);
  if (!window || window.conditional || !servableByV1(window)) {
    // A stored answer for this key wins over today's rate data (the original, byte for byte).
    const stored = req.idempotencyKey === undefined || principal.keyKind !== 'v2' ? undefined : await deps.calculations.byIdempotencyKey(principal.accountId, req.idempotencyKey);
    if (stored) return replayOrConflict(stored, requestDigest);
    if (!window) throw needsV2('rate_unavailable', `No reviewed ${canonical.tax_class_id} rate exists for ${canonical.country} on ${date}; the service does not guess.`);
    if (window.conditional) throw needsV2('conditional_rate', `The ${canonical.tax_class_id} rate in ${canonical.country} on ${date} depends on conditions v1 cannot evaluate (${window.conditions ?? 'see the rate data'}).`);
    throw rpcError(Code.FailedPrecondition, 'rate_unreviewed', `The ${canonical.tax_class_id} rate in ${canonical.country} on ${date} is not yet backed by a cited source; the service does not apply unreviewed rates.`);
  }
  const amounts = calculateVat({ amountMinor: req.amountMinor, rateBps: window.rateBps, priceIncludesVat: canonical.price_includes_vat });
  const evidence = pinRate(snap.release, window);

  if (principal.keyKind === 'legacy') {
    return create(CalculateResponseSchema, {
      result: {
        calculationId: '',
        country: canonical.country,
        currency: canonical.currency,
        vatRateBps: window.rateBps,
        grossAmountMinor: amounts.grossMinor,
        netAmountMinor: amounts.netMinor,
        vatAmountMinor: amounts.vatMinor,
        transactionDate: canonical.transaction_date,
        rateProvenance: rateProvenance(evidence, canonical.transaction_date, requestDigest),
        calculationProvenance: calculationProvenance('unowned_compatibility', 'ineligible'),
      },
    });
  }

  // Version 7 (time-ordered): the calculation's id index and the ledger's summary key grow at their right edge.
  const id = uuidv7(now.getTime());
  const { record, event } = storedCalculation({ id, principal, canonical, requestDigest, window, amounts, evidence, now, idempotencyKey: req.idempotencyKey ?? null });
  const inserted = await deps.calculations.insertOnce(record, event);
  if (inserted) {
    deps.relay.kick();
    return create(CalculateResponseSchema, { result: calculationResult(inserted), replayed: false });
  }
  // The key was used before (or by a concurrent request that won the race): answer as that request did.
  const winner = await deps.calculations.byIdempotencyKey(principal.accountId, req.idempotencyKey ?? '');
  if (!winner) throw rpcError(Code.Unavailable, 'transient_conflict', 'Concurrent write; retry with the same Idempotency-Key.');
  return replayOrConflict(winner, requestDigest);
}

function replayOrConflict(stored: CalculationRecord, requestDigest: string) {
  if (stored.requestDigest !== requestDigest) {
    throw rpcError(Code.Aborted, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request body or X-Source-ID.');
  }
  return create(CalculateResponseSchema, { result: calculationResult(stored), replayed: true });
}
