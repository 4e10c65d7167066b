import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CountSupplyEventsResponseSchema, type CountSupplyEventsRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { isValidDate } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';

/** How many events the account committed with a tax point in [from, to]. */
export async function countSupplyEvents(deps: LedgerDeps, req: CountSupplyEventsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  for (const d of [req.from, req.to]) if (d !== undefined && !isValidDate(d)) throw invalidArgument('invalid_date', 'dates must be YYYY-MM-DD.');
  return create(CountSupplyEventsResponseSchema, { count: await deps.supplyEvents.count(accountId, { from: req.from, to: req.to }) });
}
