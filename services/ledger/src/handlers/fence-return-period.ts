import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { FenceReturnPeriodResponseSchema, type FenceReturnPeriodRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';

/**
 * Fences a Union OSS quarter before compliance-reports locks it: from the fence on, decisions for the
 * quarter's events go to correction review. Answers the head and the number of decisions the quarter's
 * events have (imported goods aside), which the locking projection must have applied before it freezes
 * the quarter. Idempotent.
 */
export async function fenceReturnPeriod(deps: LedgerDeps, req: FenceReturnPeriodRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!/^\d{4}-Q[1-4]$/.test(req.periodKey)) throw invalidArgument('invalid_period', 'period_key must be YYYY-Qn.');
  const at = await deps.fences.fence(accountId, req.periodKey, deps.now());
  return create(FenceReturnPeriodResponseSchema, { sequence: at.sequence, decisionCount: at.decisionCount, periodDecisionCount: at.periodDecisionCount });
}
