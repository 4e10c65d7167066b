import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListVatNumberChecksResponseSchema, type ListVatNumberChecksRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { vatNumberCheckMessage } from '../vat-number-messages';

export const MAX_PAGE = 200;
export const DEFAULT_PAGE = 50;

const encodeCursor = (id: bigint) => Buffer.from(`v:${id}`).toString('base64url');
function decodeCursor(cursor: string): bigint {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  if (!/^v:[1-9][0-9]{0,17}$/.test(text) || encodeCursor(BigInt(text.slice(2))) !== cursor) throw invalidArgument('invalid_cursor', '`cursor` must be a next_cursor value from a previous page.');
  return BigInt(text.slice(2));
}

/** The account's VAT-number checks, newest first, keyset-paged. */
export async function listVatNumberChecks(deps: ComplianceReportsDeps, req: ListVatNumberChecksRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, MAX_PAGE, DEFAULT_PAGE);
  const beforeId = req.cursor === undefined ? undefined : decodeCursor(req.cursor);
  const page = await deps.vatNumberChecks.list(accountId, { beforeId, limit });
  const last = page.rows.at(-1);
  return create(ListVatNumberChecksResponseSchema, { items: page.rows.map(vatNumberCheckMessage), nextCursor: page.more && last ? encodeCursor(last.id) : undefined });
}
