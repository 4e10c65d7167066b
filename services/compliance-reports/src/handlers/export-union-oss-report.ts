import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ExportUnionOssReportResponseSchema, type ExportUnionOssReportRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { EXPORT_VERSION, exportCsv, exportJson, type ExportView } from '../domain/union-oss-documents';
import { CSV_TYPE, JSON_TYPE, reportDocument } from '../union-oss-messages';
import { buildReturn, unionOssQuarter } from '../union-oss-report';

const NAMES: Record<ExportView, string> = { summary: 'oss-quarterly-summary', country_breakdown: 'country-vat-breakdown' };

/** An export package (manifest plus report, major units) as JSON or CSV; never locks. */
export async function exportUnionOssReport(deps: ComplianceReportsDeps, req: ExportUnionOssReportRequest, ctx: HandlerContext) {
  unionOssQuarter(req.periodKey);
  if (req.view !== 'summary' && req.view !== 'country_breakdown') throw invalidArgument('invalid_view', 'view must be summary or country_breakdown.');
  if (req.format !== 'csv' && req.format !== 'json') throw invalidArgument('invalid_format', 'format must be csv or json.');
  if (req.exportVersion !== undefined && req.exportVersion !== EXPORT_VERSION) throw invalidArgument('invalid_export_version', `export_version must be ${EXPORT_VERSION} (the only version of Union OSS exports).`);
  const { context } = await buildReturn(deps, callerOf(ctx), req.periodKey);
  const filename = `${NAMES[req.view]}-${req.periodKey}.${req.format}`;
  const document = req.format === 'csv' ? reportDocument(CSV_TYPE, exportCsv(context, req.view), filename) : reportDocument(JSON_TYPE, exportJson(context, req.view), filename);
  return create(ExportUnionOssReportResponseSchema, { document });
}
