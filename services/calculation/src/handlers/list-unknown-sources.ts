import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListUnknownSourcesResponseSchema, type ListUnknownSourcesRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import type { CalculationDeps } from '../context';

const MAX_UNKNOWN_LIMIT = 500;

/** Raw `X-Source-ID` tags seen in the account's calculations that no profile names, most frequent first. */
export async function listUnknownSources(deps: CalculationDeps, req: ListUnknownSourcesRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, MAX_UNKNOWN_LIMIT, 50);
  const tags = await deps.calculations.unknownSourceTags(accountId, limit);
  return create(ListUnknownSourcesResponseSchema, {
    items: tags.map((t) => ({ sourceId: t.sourceId, transactionCount: t.count, firstSeen: t.firstSeen, lastSeen: t.lastSeen })),
  });
}
