import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListTransactionsResponseSchema, type ListTransactionsRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import type { CalculationDeps } from '../context';
import { decodeCursor, encodeCursor, invalidCursor } from '../domain/cursor';
import { transactionQuery } from '../domain/transaction-filter';
import { transactionSummary } from '../messages';

export const MAX_PAGE = 500;
export const DEFAULT_PAGE = 50;

/** Newest first, keyset-paged over the storage sequence (stable while rows arrive). */
export async function listTransactions(deps: CalculationDeps, req: ListTransactionsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, MAX_PAGE, DEFAULT_PAGE);
  const snap = await deps.rates.current();
  const query = transactionQuery(req.filter, (id) => snap.classById.has(id), { requireRange: false });
  const page = await deps.calculations.page(accountId, query, limit, req.cursor === undefined ? undefined : decodeCursor(req.cursor));
  if (!page) throw invalidCursor();
  const last = page.rows[page.rows.length - 1];
  return create(ListTransactionsResponseSchema, {
    items: page.rows.map(transactionSummary),
    nextCursor: page.more && last ? encodeCursor(last.id) : undefined,
  });
}
