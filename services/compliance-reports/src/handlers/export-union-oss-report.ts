import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { ExportUnionOssReportResponseSchema, type ExportUnionOssReportRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { EXPORT_VERSION, exportCsv, exportJson, type ExportView } from '../domain/union-oss-documents';
import { requireBzstFile, returnDocumentText } from '../filing-files';
import { CSV_TYPE, JSON_TYPE, reportDocument } from '../union-oss-messages';
import { buildReturn, unionOssQuarter } from '../union-oss-report';

const NAMES: Record<ExportView, string> = { summary: 'oss-quarterly-summary', country_breakdown: 'country-vat-breakdown' };
const FORMATS = ['csv', 'json', 'oss-return', 'bzst-csv'];

/** An export package (manifest plus report, major units) as JSON or CSV, the Annex III document, or the BZSt upload file; never locks. */
export async function exportUnionOssReport(deps: ComplianceReportsDeps, req: ExportUnionOssReportRequest, ctx: HandlerContext) {
  unionOssQuarter(req.periodKey);
  if (req.view !== 'summary' && req.view !== 'country_breakdown') throw invalidArgument('invalid_view', 'view must be summary or country_breakdown.');
  if (!FORMATS.includes(req.format)) throw invalidArgument('invalid_format', `format must be one of ${FORMATS.join(', ')}.`);
  if (req.view !== 'summary' && (req.format === 'oss-return' || req.format === 'bzst-csv')) throw invalidArgument('invalid_format', `format ${req.format} is a whole return: ask the quarterly summary export for it.`);
  if (req.exportVersion !== undefined && req.exportVersion !== EXPORT_VERSION) throw invalidArgument('invalid_export_version', `export_version must be ${EXPORT_VERSION} (the only version of Union OSS exports).`);
  const { context } = await buildReturn(deps, callerOf(ctx), req.periodKey);
  if (req.format === 'bzst-csv') {
    const file = requireBzstFile(context);
    const manualCorrections = file.manualCorrections.map((m) => ({ memberStateOfConsumption: m.memberState, originalPeriod: m.originalPeriod, vatAmount: m.vatAmount }));
    return create(ExportUnionOssReportResponseSchema, { document: reportDocument(CSV_TYPE, file.text, `oss-bzst-${req.periodKey}.csv`), manualCorrections });
  }
  if (req.format === 'oss-return') return create(ExportUnionOssReportResponseSchema, { document: reportDocument(JSON_TYPE, returnDocumentText(context), `oss-return-${req.periodKey}.json`) });
  const filename = `${NAMES[req.view]}-${req.periodKey}.${req.format}`;
  const document = req.format === 'csv' ? reportDocument(CSV_TYPE, exportCsv(context, req.view), filename) : reportDocument(JSON_TYPE, exportJson(context, req.view), filename);
  return create(ExportUnionOssReportResponseSchema, { document });
}
