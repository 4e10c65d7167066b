import { create } from '@bufbuild/protobuf';
import { ReportDocumentSchema, type ReportDocument } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { jsonText } from '@vat/platform/json-text';
import { filingDueDate } from './domain/union-oss-return';
import type { ExportMeta, LockedPeriodRecord } from './repositories/union-oss-locks';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const CSV_TYPE = 'text/csv; charset=utf-8';
export const PDF_TYPE = 'application/pdf';

/** A finished document as the RPCs answer it. */
export function reportDocument(mediaType: string, content: string | Uint8Array, filename: string): ReportDocument {
  return create(ReportDocumentSchema, { mediaType, content: typeof content === 'string' ? Buffer.from(content, 'utf8') : content, filename });
}

export const jsonDocument = (value: unknown, filename: string) => reportDocument(JSON_TYPE, jsonText(value), filename);

/** A stored artifact of a locked quarter, named by its id (where to fetch it is the gateway's to say). */
export function exportMetaJson(e: ExportMeta) {
  return {
    export_id: e.id,
    export_kind: e.exportKind,
    format: e.format,
    media_type: e.mediaType,
    filename: e.filename,
    byte_size: e.byteSize,
    sha256: e.sha256,
    created_at: e.createdAt.toISOString(),
  };
}

/** The filer's record of the submission, or null before the quarter is marked filed. */
export function filingRecordJson(p: LockedPeriodRecord) {
  if (p.status !== 'filed') return null;
  return { submission_reference: p.submissionReference, filed_on: p.filedOn, note: p.filingNote };
}

/**
 * A locked quarter as every locked-period answer shows it, with its due date and whether it is overdue
 * on `now` (not filed after its due date); `exports` when the artifacts are listed.
 */
export function lockedPeriodJson(p: LockedPeriodRecord, now: Date, exports?: readonly ExportMeta[]) {
  const due = filingDueDate(p.periodKey);
  return {
    scheme_type: 'union_oss',
    period_key: p.periodKey,
    status: p.status,
    filing_status: p.filingStatus,
    filing_status_detail: p.filingStatusDetail,
    nil_return_eligible: p.nilReturnEligible,
    total_source_event_count: p.totalSourceEventCount,
    included_source_event_count: p.includedSourceEventCount,
    excluded_source_event_count: p.excludedSourceEventCount,
    warning_count: p.warningCount,
    jurisdiction_count: p.jurisdictionCount,
    export_count: exports?.length ?? undefined,
    member_state_identification: p.memberStateIdentification,
    return_currency: p.returnCurrency,
    registration_id: p.registrationId,
    ledger_position: p.ledgerPosition,
    locked_at: p.lockedAt.toISOString(),
    locked_by_api_key_id: p.lockedByApiKeyId,
    filed_at: p.filedAt?.toISOString() ?? null,
    filed_by_api_key_id: p.filedByApiKeyId,
    filing_record: filingRecordJson(p),
    filing_due_date: due,
    overdue: p.status !== 'filed' && now.toISOString().slice(0, 10) > due,
    ...(exports ? { exports: exports.map(exportMetaJson) } : {}),
  };
}
