import type { ConnectRouter } from '@connectrpc/connect';
import { TaxRegistrationService } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { bindHandlers } from '@vat/platform/service-module';
import type { ComplianceReportsDeps } from './context';
import { createTaxRegistration } from './handlers/create-tax-registration';
import { listTaxRegistrations } from './handlers/list-tax-registrations';
import { resolveUnionOssRegistration } from './handlers/resolve-union-oss-registration';
import { updateTaxRegistration } from './handlers/update-tax-registration';

export function routes(deps: ComplianceReportsDeps) {
  return (router: ConnectRouter) => {
    router.service(TaxRegistrationService, bindHandlers(deps, { listTaxRegistrations, createTaxRegistration, updateTaxRegistration, resolveUnionOssRegistration }));
  };
}
