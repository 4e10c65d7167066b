import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ListLockedUnionOssPeriodsResponseSchema, type ListLockedUnionOssPeriodsRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import type { ComplianceReportsDeps } from '../context';
import { jsonDocument, lockedPeriodJson } from '../union-oss-messages';
import { unionOssQuarter } from '../union-oss-report';

/** The account's locked quarters, latest first; with a period, `current_period` and its artifacts. */
export async function listLockedUnionOssPeriods(deps: ComplianceReportsDeps, req: ListLockedUnionOssPeriodsRequest, ctx: HandlerContext) {
  if (req.periodKey !== undefined) unionOssQuarter(req.periodKey);
  const { accountId } = callerOf(ctx);
  const now = deps.now();
  const periods = await deps.unionOssLocks.list(accountId);
  const exports = await deps.unionOssLocks.exportsOf(accountId, periods.map((p) => p.id));
  const of = (id: bigint) => exports.filter((e) => e.lockedPeriodId === id);
  const body: Record<string, unknown> = { items: periods.map((p) => lockedPeriodJson(p, now, of(p.id))) };
  if (req.periodKey !== undefined) {
    const current = periods.find((p) => p.periodKey === req.periodKey);
    body.current_period = current ? lockedPeriodJson(current, now, of(current.id)) : null;
  }
  return create(ListLockedUnionOssPeriodsResponseSchema, { document: jsonDocument(body, 'union-oss-locked-periods.json') });
}
