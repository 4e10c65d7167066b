import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { MarkNotificationReadResponseSchema, type MarkNotificationReadRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { isRowId } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { notFound } from '@vat/platform/rpc-errors';
import type { ThresholdsDeps } from '../context';
import { notificationMessage } from '../messages';

/** Marks one of the account's notifications read (idempotent: the first read time is kept). */
export async function markNotificationRead(deps: ThresholdsDeps, req: MarkNotificationReadRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const missing = () => notFound('notification_not_found', 'No notification with this id exists for this account.');
  if (!isRowId(req.id)) throw missing();
  const row = await deps.notifications.markRead(accountId, BigInt(req.id), deps.now());
  if (!row) throw missing();
  return create(MarkNotificationReadResponseSchema, { notification: notificationMessage(row) });
}
