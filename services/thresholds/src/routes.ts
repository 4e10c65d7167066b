import type { ConnectRouter } from '@connectrpc/connect';
import { SmeEligibilityService } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { bindHandlers } from '@vat/platform/service-module';
import { checkSmeEligibility } from './handlers/check-sme-eligibility';
import type { ThresholdsDeps } from './module';

export function routes(deps: ThresholdsDeps) {
  return (router: ConnectRouter) => router.service(SmeEligibilityService, bindHandlers(deps, { checkSmeEligibility }));
}
