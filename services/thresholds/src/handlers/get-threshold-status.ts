import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetThresholdStatusResponseSchema, type GetThresholdStatusRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { callerOf } from '@vat/platform/principal';
import { article59cView } from '../article59c/view';
import type { ThresholdsDeps } from '../context';
import { statusMessage } from '../messages';

/** The Article 59c threshold status of the caller's account as of now (the current UTC day). */
export async function getThresholdStatus(deps: ThresholdsDeps, _req: GetThresholdStatusRequest, ctx: HandlerContext) {
  const view = await article59cView(deps, callerOf(ctx), deps.now().toISOString().slice(0, 10));
  return create(GetThresholdStatusResponseSchema, { status: statusMessage(view) });
}
