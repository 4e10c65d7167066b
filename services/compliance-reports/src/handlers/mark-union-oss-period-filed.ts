import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { MarkUnionOssPeriodFiledResponseSchema, type MarkUnionOssPeriodFiledRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { aborted } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { jsonDocument, lockedPeriodJson } from '../union-oss-messages';
import { requireEndedQuarter } from '../union-oss-report';

/** `locked` -> `filed`; a repeat keeps the first filing audit; a quarter that is not locked is 409, as is one that has not ended. */
export async function markUnionOssPeriodFiled(deps: ComplianceReportsDeps, req: MarkUnionOssPeriodFiledRequest, ctx: HandlerContext) {
  requireEndedQuarter(req.periodKey, deps.now());
  const caller = callerOf(ctx);
  const period = await deps.unionOssLocks.markFiled(caller.accountId, req.periodKey, caller.apiKeyId, deps.now(), 'Marked as filed; the locked snapshot is unchanged.');
  if (!period) throw aborted('period_not_locked', `${req.periodKey} is not locked: lock it before marking it filed.`);
  const exports = await deps.unionOssLocks.exportsOf(caller.accountId, [period.id]);
  return create(MarkUnionOssPeriodFiledResponseSchema, { document: jsonDocument(lockedPeriodJson(period, exports), `union-oss-locked-${req.periodKey}.json`) });
}
