import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetMultiJurisdictionResponseSchema, type GetMultiJurisdictionRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import type { ComplianceReportsDeps } from '../context';
import { multiJurisdiction } from '../ioss-report';
import { jsonDocument } from '../union-oss-messages';

/** The per-Member-State filing-exposure preview (Union OSS sections 2a-2d and IOSS months; minor units). */
export async function getMultiJurisdiction(deps: ComplianceReportsDeps, req: GetMultiJurisdictionRequest, ctx: HandlerContext) {
  const body = await multiJurisdiction(deps, callerOf(ctx), req.periodKey);
  return create(GetMultiJurisdictionResponseSchema, { document: jsonDocument(body, `multi-jurisdiction-${req.periodKey}.json`) });
}
