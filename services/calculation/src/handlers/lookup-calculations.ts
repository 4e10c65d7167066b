import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { LookupCalculationsResponseSchema, type LookupCalculationsRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { isUuid } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { CalculationDeps } from '../context';
import { transactionSummary } from '../messages';

const MAX_LOOKUP_IDS = 1000;

/** The caller's own calculations among `ids` (another account's id is simply absent). */
export async function lookupCalculations(deps: CalculationDeps, req: LookupCalculationsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (req.ids.length > MAX_LOOKUP_IDS) throw invalidArgument('too_many_ids', `At most ${MAX_LOOKUP_IDS} ids per call.`);
  const ids = [...new Set(req.ids.filter(isUuid).map((id) => id.toLowerCase()))];
  const rows = ids.length ? await deps.calculations.ownedMany(accountId, ids) : [];
  return create(LookupCalculationsResponseSchema, { items: rows.map(transactionSummary) });
}
