import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ArchiveAssignmentResponseSchema, type ArchiveAssignmentRequest } from '@vat/gen/vat/classification/v1/classification_service_pb';
import type { ClassificationDeps } from '../context';
import { revisionMessage } from '../domain/assignment-rules';
import { appendSuccessor } from './assignment-successor';

/** A tombstone successor: the assignment stops applying; its history stays. */
export async function archiveAssignment(deps: ClassificationDeps, req: ArchiveAssignmentRequest, ctx: HandlerContext) {
  return create(ArchiveAssignmentResponseSchema, { revision: revisionMessage(await appendSuccessor(deps, req, ctx, 'archived'), true) });
}
