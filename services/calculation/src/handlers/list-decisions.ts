import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListDecisionsResponseSchema, type ListDecisionsRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { decodeCursor, encodeCursor, invalidCursor } from '../domain/cursor';
import type { DecisionStatus } from '../domain/governed/decision';
import { decisionMessage } from '../messages-governed';

const MAX_DECISION_PAGE = 200;
const DEFAULT_DECISION_PAGE = 50;
const STATUSES: readonly DecisionStatus[] = ['complete', 'partial', 'incomplete', 'conflicting', 'unsupported'];

/** The account's stored decisions, newest first (storage order, stable while decisions arrive). */
export async function listDecisions(deps: CalculationDeps, req: ListDecisionsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, MAX_DECISION_PAGE, DEFAULT_DECISION_PAGE);
  if (req.status !== undefined && !(STATUSES as readonly string[]).includes(req.status)) {
    throw invalidArgument('invalid_status', `status must be one of ${STATUSES.join(', ')}.`);
  }
  const page = await deps.decisions.page(accountId, limit, req.status, req.cursor === undefined ? undefined : decodeCursor(req.cursor));
  if (!page) throw invalidCursor();
  const last = page.rows[page.rows.length - 1];
  return create(ListDecisionsResponseSchema, {
    items: page.rows.map((r) => ({ decision: decisionMessage(r.decision), httpStatus: r.httpStatus, error: r.errorCode, detail: r.detail })),
    nextCursor: page.more && last ? encodeCursor(last.id) : undefined,
  });
}
