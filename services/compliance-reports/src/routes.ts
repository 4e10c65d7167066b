import type { ConnectRouter } from '@connectrpc/connect';
import { TaxRegistrationService, UnionOssReportService, VatNumberService } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { bindHandlers } from '@vat/platform/service-module';
import type { ComplianceReportsDeps } from './context';
import { createTaxRegistration } from './handlers/create-tax-registration';
import { exportUnionOssReport } from './handlers/export-union-oss-report';
import { getFilingCalendar } from './handlers/get-filing-calendar';
import { getFilingPrep } from './handlers/get-filing-prep';
import { getMultiJurisdiction } from './handlers/get-multi-jurisdiction';
import { getLockedUnionOssExport } from './handlers/get-locked-union-oss-export';
import { getUnionOssReport } from './handlers/get-union-oss-report';
import { listLockedUnionOssPeriods } from './handlers/list-locked-union-oss-periods';
import { listIossEvents } from './handlers/list-ioss-events';
import { listUnionOssEvents } from './handlers/list-union-oss-events';
import { lockUnionOssPeriod } from './handlers/lock-union-oss-period';
import { markUnionOssPeriodFiled } from './handlers/mark-union-oss-period-filed';
import { listTaxRegistrations } from './handlers/list-tax-registrations';
import { resolveUnionOssRegistration } from './handlers/resolve-union-oss-registration';
import { updateTaxRegistration } from './handlers/update-tax-registration';
import { checkVatNumber } from './handlers/check-vat-number';
import { getVatNumberEvidence } from './handlers/get-vat-number-evidence';
import { listVatNumberChecks } from './handlers/list-vat-number-checks';

export function routes(deps: ComplianceReportsDeps) {
  return (router: ConnectRouter) => {
    router.service(TaxRegistrationService, bindHandlers(deps, { listTaxRegistrations, createTaxRegistration, updateTaxRegistration, resolveUnionOssRegistration }));
    router.service(
      UnionOssReportService,
      bindHandlers(deps, { getUnionOssReport, exportUnionOssReport, listLockedUnionOssPeriods, lockUnionOssPeriod, markUnionOssPeriodFiled, getLockedUnionOssExport, getFilingPrep, getMultiJurisdiction, listUnionOssEvents, listIossEvents, getFilingCalendar }),
    );
    router.service(VatNumberService, bindHandlers(deps, { checkVatNumber, listVatNumberChecks, getVatNumberEvidence }));
  };
}
