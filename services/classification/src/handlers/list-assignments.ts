import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListAssignmentsResponseSchema, type ListAssignmentsRequest } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { callerOf } from '@vat/platform/principal';
import { isUuid } from '@vat/platform/http-inputs';
import { pageLimit } from '@vat/platform/paging';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ClassificationDeps } from '../context';
import { ASSIGNMENT_STATES, revisionMessage } from '../domain/assignment-rules';

const encodeCursor = (id: string) => Buffer.from(`a:${id}`).toString('base64url');

function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,100}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const id = text.startsWith('a:') ? text.slice(2) : '';
  if (!isUuid(id) || encodeCursor(id) !== cursor) throw invalidArgument('invalid_cursor', 'cursor must be a next_cursor value returned by this list.');
  return id;
}

/** Current heads of an integration's assignments in creation order, 1-200 per page (default 50), keyset cursor. */
export async function listAssignments(deps: ClassificationDeps, req: ListAssignmentsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, 200, 50);
  if (req.state !== undefined && !(ASSIGNMENT_STATES as readonly string[]).includes(req.state)) throw invalidArgument('invalid_state', `state must be one of ${ASSIGNMENT_STATES.join(', ')}.`);
  if (req.productReference !== undefined && (req.productReference === '' || req.productReference.length > 200)) throw invalidArgument('invalid_product_reference', 'product_reference must be 1 to 200 characters.');
  const after = req.cursor === undefined ? undefined : decodeCursor(req.cursor);
  if (req.integrationId <= 0n) return create(ListAssignmentsResponseSchema, { items: [] });
  const rows = await deps.assignments.heads(accountId, req.integrationId, { product: req.productReference, state: req.state, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return create(ListAssignmentsResponseSchema, { items: page.map((r) => revisionMessage(r, true)), nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.assignmentId) : undefined });
}
