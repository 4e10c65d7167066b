import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { MarkUnionOssPeriodFiledResponseSchema, type MarkUnionOssPeriodFiledRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { aborted, invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { checkFilingRecord } from '../domain/filing-record';
import { jsonDocument, lockedPeriodJson } from '../union-oss-messages';
import { requireEndedQuarter } from '../union-oss-report';

/**
 * `locked` -> `filed` with the filing record (reference, day, note; each optional); a repeat keeps the
 * first filing audit and record; a quarter that is not locked is 409, as is one that has not ended.
 */
export async function markUnionOssPeriodFiled(deps: ComplianceReportsDeps, req: MarkUnionOssPeriodFiledRequest, ctx: HandlerContext) {
  const now = deps.now();
  const quarter = requireEndedQuarter(req.periodKey, now);
  const checked = checkFilingRecord({ submissionReference: req.submissionReference, filedOn: req.filedOn, note: req.note }, quarter.end, now.toISOString().slice(0, 10));
  if (!checked.ok) throw invalidArgument(checked.error.code, checked.error.detail);
  const caller = callerOf(ctx);
  const period = await deps.unionOssLocks.markFiled(caller.accountId, req.periodKey, caller.apiKeyId, now, 'Marked as filed; the locked snapshot is unchanged.', checked.record);
  if (!period) throw aborted('period_not_locked', `${req.periodKey} is not locked: lock it before marking it filed.`);
  const exports = await deps.unionOssLocks.exportsOf(caller.accountId, [period.id]);
  return create(MarkUnionOssPeriodFiledResponseSchema, { document: jsonDocument(lockedPeriodJson(period, now, exports), `union-oss-locked-${req.periodKey}.json`) });
}
