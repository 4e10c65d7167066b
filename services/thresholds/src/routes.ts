import type { ConnectRouter } from '@connectrpc/connect';
import { SmeEligibilityService, ThresholdService } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { bindHandlers } from '@vat/platform/service-module';
import type { ThresholdsDeps } from './context';
import { checkSmeEligibility } from './handlers/check-sme-eligibility';
import { checkThreshold } from './handlers/check-threshold';
import { getThresholdSeries } from './handlers/get-threshold-series';
import { getThresholdStatus } from './handlers/get-threshold-status';
import { listNotifications } from './handlers/list-notifications';
import { markNotificationRead } from './handlers/mark-notification-read';

export function routes(deps: ThresholdsDeps) {
  return (router: ConnectRouter) =>
    router
      .service(SmeEligibilityService, bindHandlers(deps, { checkSmeEligibility }))
      .service(ThresholdService, bindHandlers(deps, { getThresholdStatus, getThresholdSeries, checkThreshold, listNotifications, markNotificationRead }));
}
