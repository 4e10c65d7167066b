import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListNotificationsResponseSchema, type ListNotificationsRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { pageLimit } from '@vat/platform/paging';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ThresholdsDeps } from '../context';
import { notificationMessage } from '../messages';

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 50;

const encodeCursor = (id: bigint) => Buffer.from(`n:${id}`).toString('base64url');
function decodeCursor(cursor: string): bigint {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  if (!/^n:[1-9][0-9]{0,17}$/.test(text)) throw invalidArgument('invalid_cursor', '`cursor` must be a next_cursor value from a previous page.');
  return BigInt(text.slice(2));
}

/** The account's threshold notifications, oldest first, keyset-paged; `unread` filters by read state. */
export async function listNotifications(deps: ThresholdsDeps, req: ListNotificationsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const limit = pageLimit(req.limit, MAX_PAGE, DEFAULT_PAGE);
  const afterId = req.cursor === undefined ? undefined : decodeCursor(req.cursor);
  const page = await deps.notifications.list(accountId, { afterId, unread: req.unread, limit });
  const last = page.rows[page.rows.length - 1];
  return create(ListNotificationsResponseSchema, { items: page.rows.map(notificationMessage), nextCursor: page.more && last ? encodeCursor(last.id) : undefined });
}
