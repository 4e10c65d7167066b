import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListTaxRegistrationsResponseSchema, type ListTaxRegistrationsRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import type { ComplianceReportsDeps } from '../context';
import { coverageOf } from '../domain/coverage';
import { registrationMessage } from '../messages';

/** The account's registrations, most recent effective window first, each with whether it counts toward coverage. */
export async function listTaxRegistrations(deps: ComplianceReportsDeps, _req: ListTaxRegistrationsRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const rows = await deps.registrations.list(accountId);
  return create(ListTaxRegistrationsResponseSchema, { items: rows.map((r) => registrationMessage(r, coverageOf(r, rows))) });
}
