import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ResolveUnionOssRegistrationResponseSchema, type ResolveUnionOssRegistrationRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { Code, invalidArgument, rpcError } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { coverageOf, parseQuarter, unionOssRegistrationFor } from '../domain/coverage';
import { registrationMessage } from '../messages';

/**
 * For reports: the single Union OSS registration that makes a quarter eligible (spec rule 7), or
 * a 422 `registration_required` / `registration_conflict` whose `blocking_registration_ids`
 * metadata lists the rows to fix (comma-separated).
 */
export async function resolveUnionOssRegistration(deps: ComplianceReportsDeps, req: ResolveUnionOssRegistrationRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const quarter = parseQuarter(req.periodKey);
  if (!quarter) throw invalidArgument('invalid_period', 'period must be YYYY-Qn (Q1 to Q4, years 1900 to 9999).');
  const rows = await deps.registrations.list(accountId);
  const r = unionOssRegistrationFor(rows, quarter);
  if (!r.ok) throw rpcError(Code.FailedPrecondition, r.reason, r.detail, { blocking_registration_ids: r.blockingIds.join(',') });
  return create(ResolveUnionOssRegistrationResponseSchema, {
    registration: registrationMessage(r.registration, coverageOf(r.registration, rows)),
    periodStart: quarter.start,
    periodEnd: quarter.end,
  });
}
