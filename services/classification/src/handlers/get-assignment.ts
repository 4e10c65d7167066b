import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetAssignmentResponseSchema, type GetAssignmentRequest } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { callerOf } from '@vat/platform/principal';
import { isUuid } from '@vat/platform/http-inputs';
import type { ClassificationDeps } from '../context';
import { revisionMessage } from '../domain/assignment-rules';
import { assignmentNotFound } from './assignment-successor';

/** One assignment with its whole revision history; other accounts' and integrations' ids are not found. */
export async function getAssignment(deps: ClassificationDeps, req: GetAssignmentRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!isUuid(req.assignmentId) || req.integrationId <= 0n) throw assignmentNotFound();
  const revisions = await deps.assignments.revisions(accountId, req.integrationId, req.assignmentId.toLowerCase());
  if (revisions.length === 0) throw assignmentNotFound();
  const last = revisions.length - 1;
  return create(GetAssignmentResponseSchema, { head: revisionMessage(revisions[last]!, true), revisions: revisions.map((r, i) => revisionMessage(r, i === last)) });
}
