import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetLedgerHeadResponseSchema, type GetLedgerHeadRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { callerOf } from '@vat/platform/principal';
import type { LedgerDeps } from '../context';

/** The account's ledger position; a projection is current when it has applied this many events. */
export async function getLedgerHead(deps: LedgerDeps, _req: GetLedgerHeadRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  return create(GetLedgerHeadResponseSchema, await deps.supplyEvents.head(accountId));
}
