import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetFilingPrepResponseSchema, type GetFilingPrepRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import type { ComplianceReportsDeps } from '../context';
import { filingPrep } from '../ioss-report';
import { jsonDocument } from '../union-oss-messages';

/** The OSS/IOSS filing-prep workspace of a quarter (minor units; never locks). */
export async function getFilingPrep(deps: ComplianceReportsDeps, req: GetFilingPrepRequest, ctx: HandlerContext) {
  const body = await filingPrep(deps, callerOf(ctx), req.periodKey);
  return create(GetFilingPrepResponseSchema, { document: jsonDocument(body, `filing-prep-${req.periodKey}.json`) });
}
