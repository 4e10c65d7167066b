import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { MarkNotificationReadResponseSchema, type MarkNotificationReadRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { callerOf } from '@vat/platform/principal';
import { notFound } from '@vat/platform/rpc-errors';
import type { ThresholdsDeps } from '../context';
import { notificationMessage } from '../messages';

/** Marks one of the account's notifications read (idempotent: the first read time is kept). */
export async function markNotificationRead(deps: ThresholdsDeps, req: MarkNotificationReadRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const missing = () => notFound('notification_not_found', 'No notification with this id exists for this account.');
  if (!/^[1-9][0-9]{0,17}$/.test(req.id)) throw missing();
  const row = await deps.notifications.markRead(accountId, BigInt(req.id), deps.now());
  if (!row) throw missing();
  return create(MarkNotificationReadResponseSchema, { notification: notificationMessage(row) });
}
