import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetThresholdStatusResponseSchema, type GetThresholdStatusRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { isValidDate } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { article59cView } from '../article59c/view';
import type { ThresholdsDeps } from '../context';
import { statusMessage } from '../messages';

/**
 * The Article 59c threshold status of the caller's account as of now (the current UTC day), or as of the
 * end of an earlier day `as_of` (its year and the preceding one; RPC only, for v2 decisions dated earlier).
 */
export async function getThresholdStatus(deps: ThresholdsDeps, req: GetThresholdStatusRequest, ctx: HandlerContext) {
  const today = deps.now().toISOString().slice(0, 10);
  if (req.asOf !== undefined && !isValidDate(req.asOf)) throw invalidArgument('invalid_as_of', '`as_of` must be a calendar date YYYY-MM-DD.');
  if (req.asOf !== undefined && req.asOf > today) throw invalidArgument('as_of_after_today', '`as_of` must not be later than today (UTC).');
  const view = await article59cView(deps, callerOf(ctx), req.asOf ?? today);
  return create(GetThresholdStatusResponseSchema, { status: statusMessage(view) });
}
