import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListProductSupplyEventsResponseSchema, ProductSupplyEventSchema, type ListProductSupplyEventsRequest } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { isUuid } from '@vat/platform/http-inputs';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { LedgerDeps } from '../context';
import type { ProductEventRecord } from '../repositories/classification-decisions';

function productEventMessage(r: ProductEventRecord) {
  return create(ProductSupplyEventSchema, {
    id: r.id,
    eventId: r.eventId,
    orderReference: r.orderReference ?? undefined,
    variantReference: r.variantReference ?? undefined,
    occurredOn: r.occurredOn,
    countryOfConsumption: r.countryOfConsumption,
    originalClassificationStatus: r.originalStatus,
    originalTaxClassId: r.originalTaxClassId ?? undefined,
    classificationStatus: r.decisionStatus ?? r.originalStatus,
    taxClassId: (r.decisionId ? r.decisionTaxClassId : r.originalTaxClassId) ?? undefined,
    latestDecisionId: r.decisionId ?? undefined,
    latestDecisionSource: r.decisionSource ?? undefined,
  });
}

/** A product's events of one integration (the caller's account only), 1-1,000 per page, keyset cursor = last id. */
export async function listProductSupplyEvents(deps: LedgerDeps, req: ListProductSupplyEventsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, 1000, 500);
  if (req.cursor !== undefined && !isUuid(req.cursor)) throw invalidArgument('invalid_cursor', 'cursor must be a next_cursor value returned by this list.');
  if (req.productReference === '' || req.productReference.length > 200) throw invalidArgument('invalid_product_reference', 'product_reference must be 1 to 200 characters.');
  const rows = await deps.decisions.productEvents(accountId, req.integrationId, req.productReference, req.cursor, limit + 1);
  const page = rows.slice(0, limit);
  return create(ListProductSupplyEventsResponseSchema, { items: page.map(productEventMessage), nextCursor: rows.length > limit ? page.at(-1)!.id : undefined });
}
