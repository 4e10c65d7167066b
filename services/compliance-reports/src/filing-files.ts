/**
 * The Member-State files and the Annex III document of a return, as exports and as lock artifacts
 * (issue 21). Every file is rendered from the Annex III document (`ossReturnDocument`).
 */
import { Code, rpcError } from '@vat/platform/rpc-errors';
import { jsonText } from '@vat/platform/json-text';
import { bzstCsv, type BzstFile } from './domain/bzst-csv';
import { ossReturnDocument, ossReturnJson } from './domain/oss-return-document';
import type { ReturnContext } from './domain/union-oss-documents';

/** Upload files by Member State of identification (only where an exact public layout could be cited). */
export const UPLOAD_FORMATS: Record<string, string> = { DE: 'bzst-csv' };

/** Export formats a return has for its MSI: the generic ones plus its upload file, if any. */
export const formatsFor = (msi: string) => ['csv', 'json', 'oss-return', ...(UPLOAD_FORMATS[msi] ? [UPLOAD_FORMATS[msi]!] : [])];

export const returnDocumentText = (c: ReturnContext) => jsonText({ ...ossReturnJson(ossReturnDocument(c.ret)), ledger_position: c.ledgerPosition, generated_at: c.generatedAt });

export function bzstFileOf(c: ReturnContext): BzstFile {
  return bzstCsv(ossReturnDocument(c.ret));
}

/** 422 `format_unavailable` for an upload file of another MSI; 422 `bzst_file_refused` listing the lines the portal would refuse. */
export function requireBzstFile(c: ReturnContext) {
  const msi = c.ret.memberStateIdentification;
  if (UPLOAD_FORMATS[msi] !== 'bzst-csv') {
    throw rpcError(Code.FailedPrecondition, 'format_unavailable', `bzst-csv is the upload file of Germany's BZSt; the Member State of identification is ${msi}, whose formats here are: ${formatsFor(msi).join(', ')}.`, { formats: formatsFor(msi).join(',') });
  }
  const file = bzstFileOf(c);
  if (!file.ok) {
    throw rpcError(Code.FailedPrecondition, 'bzst_file_refused', `The BZSt portal would refuse this file: ${file.problems.map((p) => p.detail).join(' ')}`, { problems: JSON.stringify(file.problems) });
  }
  return file;
}

/** The manifest stored with a German lock: the upload file's rows, what to enter by hand, or why no file was stored. */
export function bzstManifestText(c: ReturnContext, file: BzstFile) {
  return jsonText({
    manifest_kind: 'union_oss_bzst_upload_manifest',
    period_key: c.ret.periodKey,
    member_state_identification: c.ret.memberStateIdentification,
    format: 'bzst-csv',
    format_version: '2.0',
    sources: [
      'https://www.elster.de/bportal/helpGlobal?themaGlobal=osseust_import',
      'https://elster.de/eportal/helpGlobal?themaGlobal=allgemeine_csv-anleitung',
    ],
    file_stored: file.ok,
    row_count: file.ok ? file.rowCount : null,
    manual_corrections: file.ok ? file.manualCorrections.map((m) => ({ member_state_of_consumption: m.memberState, original_period: m.originalPeriod, vat_amount: m.vatAmount })) : [],
    manual_corrections_note: 'Corrections of earlier periods are not in the file (record type 6 has no citable layout): enter each in the BZSt portal with the return.',
    problems: file.ok ? [] : file.problems.map((p) => ({ code: p.code, member_state_of_consumption: p.memberState ?? null, origin_member_state: p.originMemberState ?? null, supply_type: p.supplyType ?? null, vat_rate_pct: p.vatRatePct ?? null, detail: p.detail })),
    ledger_position: c.ledgerPosition,
  });
}
