import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetUnionOssReportResponseSchema, type GetUnionOssReportRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { jsonText } from '@vat/platform/json-text';
import { accountantPdf } from '../domain/accountant-pdf';
import { accountantReport, countryBreakdownPreview, summaryPreview } from '../domain/union-oss-documents';
import { JSON_TYPE, PDF_TYPE, reportDocument } from '../union-oss-messages';
import { buildReturn, unionOssQuarter } from '../union-oss-report';

const VIEWS = ['summary', 'country_breakdown', 'accountant_report'];

/** A preview (summary or breakdown, minor units) or the accountant report (major units; JSON or a printable PDF); never locks. */
export async function getUnionOssReport(deps: ComplianceReportsDeps, req: GetUnionOssReportRequest, ctx: HandlerContext) {
  unionOssQuarter(req.periodKey);
  if (!VIEWS.includes(req.view)) throw invalidArgument('invalid_view', `view must be one of ${VIEWS.join(', ')}.`);
  const format = req.format ?? 'json';
  if (format !== 'json' && !(format === 'pdf' && req.view === 'accountant_report')) throw invalidArgument('invalid_format', 'format must be json, or pdf for the accountant report.');
  const { context } = await buildReturn(deps, callerOf(ctx), req.periodKey);
  if (format === 'pdf') {
    return create(GetUnionOssReportResponseSchema, { document: reportDocument(PDF_TYPE, await accountantPdf(context, 'Accountant report'), `union-oss-accountant-report-${req.periodKey}.pdf`) });
  }
  const text =
    req.view === 'summary' ? jsonText(summaryPreview(context)) : req.view === 'country_breakdown' ? jsonText(countryBreakdownPreview(context)) : accountantReport(context);
  return create(GetUnionOssReportResponseSchema, { document: reportDocument(JSON_TYPE, text, `union-oss-${req.view.replace('_', '-')}-${req.periodKey}.json`) });
}
