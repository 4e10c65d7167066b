import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetDecisionResponseSchema, type GetDecisionRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isUuid } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { notFound } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { decisionMessage } from '../messages-governed';

/** One stored decision of the account, as sealed; malformed, unknown and other accounts' ids are the same 404. */
export async function getDecision(deps: CalculationDeps, req: GetDecisionRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const r = isUuid(req.id) ? await deps.decisions.owned(accountId, req.id.toLowerCase()) : undefined;
  if (!r) throw notFound('decision_not_found', 'No such decision.');
  return create(GetDecisionResponseSchema, { decision: decisionMessage(r.decision), httpStatus: r.httpStatus, error: r.errorCode, detail: r.detail });
}
