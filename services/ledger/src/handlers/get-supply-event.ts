import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetSupplyEventResponseSchema, type GetSupplyEventRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { isUuid } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { notFound } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';
import { supplyEventMessage } from '../messages';

/** One committed event by the ledger's id; malformed, unknown and other accounts' ids are all not found. */
export async function getSupplyEvent(deps: LedgerDeps, req: GetSupplyEventRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const record = isUuid(req.id) ? await deps.supplyEvents.byId(accountId, req.id.toLowerCase()) : undefined;
  if (!record) throw notFound('supply_event_not_found', 'No such supply event.');
  return create(GetSupplyEventResponseSchema, { event: supplyEventMessage(record) });
}
