import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ThresholdNotificationSchema, ThresholdStatusSchema } from '@vat/gen/vat/thresholds/v1/resources_pb';
import type { ThresholdStatusView } from './article59c/status';
import type { NotificationRow } from './repositories/threshold-notifications';

/** The status view as its protobuf message (field names already match). */
export function statusMessage(v: ThresholdStatusView): MessageInitShape<typeof ThresholdStatusSchema> {
  return v;
}

export function notificationMessage(n: NotificationRow): MessageInitShape<typeof ThresholdNotificationSchema> {
  return { ...n, readAt: n.readAt };
}
