import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetLockedUnionOssExportResponseSchema, type GetLockedUnionOssExportRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { notFound } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { reportDocument } from '../union-oss-messages';

/** The stored bytes of one artifact of the account (byte-identical forever); anything else is 404. */
export async function getLockedUnionOssExport(deps: ComplianceReportsDeps, req: GetLockedUnionOssExportRequest, ctx: HandlerContext) {
  const a = await deps.unionOssLocks.artifact(callerOf(ctx).accountId, req.exportId);
  if (!a) throw notFound('export_not_found', 'No stored export with this id.');
  return create(GetLockedUnionOssExportResponseSchema, { document: reportDocument(a.mediaType, a.content, a.filename) });
}
