import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ValidateAssignmentResponseSchema, type ValidateAssignmentRequest } from '@vat/gen/vat/classification/v1/classification_service_pb';
import type { ClassificationDeps } from '../context';
import { revisionMessage } from '../domain/assignment-rules';
import { appendSuccessor } from './assignment-successor';

/** A validated successor of a submitted head; the code is checked again against the served catalog revision. */
export async function validateAssignment(deps: ClassificationDeps, req: ValidateAssignmentRequest, ctx: HandlerContext) {
  return create(ValidateAssignmentResponseSchema, { revision: revisionMessage(await appendSuccessor(deps, req, ctx, 'validated'), true) });
}
