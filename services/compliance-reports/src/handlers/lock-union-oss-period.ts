import { createHash, randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { LockUnionOssPeriodResponseSchema, type LockUnionOssPeriodRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { callerOf } from '@vat/platform/principal';
import { Code, rpcError } from '@vat/platform/rpc-errors';
import { projectionPosition } from '@vat/platform/supply-projection';
import type { ComplianceReportsDeps } from '../context';
import { accountantReport, exportCsv, filingStatusOf, type ReturnContext } from '../domain/union-oss-documents';
import { bzstFileOf, bzstManifestText, returnDocumentText, UPLOAD_FORMATS } from '../filing-files';
import type { NewArtifact } from '../repositories/union-oss-locks';
import { CSV_TYPE, JSON_TYPE, PDF_TYPE, jsonDocument, lockedPeriodJson } from '../union-oss-messages';
import { accountantPdf } from '../domain/accountant-pdf';
import { buildReturn, fencePeriod, requireEndedQuarter } from '../union-oss-report';

const alreadyLocked = (period: string) => rpcError(Code.AlreadyExists, 'period_already_locked', `${period} is already locked; a locked quarter never changes (later events are reported in the next open quarter).`);

const MEDIA_TYPES = { json: JSON_TYPE, csv: CSV_TYPE, pdf: PDF_TYPE } as const;

function artifact(exportKind: string, format: keyof typeof MEDIA_TYPES, filename: string, body: string | Buffer): NewArtifact {
  const content = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { id: randomUUID(), exportKind, format, mediaType: MEDIA_TYPES[format], filename, content, sha256: createHash('sha256').update(content).digest('hex') };
}

/** The upload file of the MSI (Germany: the BZSt CSV, when the portal would accept it) and its manifest. */
function memberStateFiles(c: ReturnContext, periodKey: string): NewArtifact[] {
  if (UPLOAD_FORMATS[c.ret.memberStateIdentification] !== 'bzst-csv') return [];
  const file = bzstFileOf(c);
  return [
    ...(file.ok ? [artifact('union_oss_bzst_upload_locked', 'csv', `oss-bzst-${periodKey}.csv`, file.text)] : []),
    artifact('union_oss_bzst_manifest_locked', 'json', `oss-bzst-manifest-${periodKey}.json`, bzstManifestText(c, file)),
  ];
}

/**
 * Only a quarter whose last day has passed (409 period_not_ended). Fences the quarter in the ledger, then freezes the accountant preview at the ledger head the fence
 * answered: refuses while the projection is behind it or has not applied every classification decision of
 * the quarter's events,
 * stores the JSON and CSV artifacts with their SHA-256, and never changes the ledger.
 */
export async function lockUnionOssPeriod(deps: ComplianceReportsDeps, req: LockUnionOssPeriodRequest, ctx: HandlerContext) {
  requireEndedQuarter(req.periodKey, deps.now());
  const caller = callerOf(ctx);
  if ((await deps.unionOssLocks.list(caller.accountId)).some((l) => l.periodKey === req.periodKey)) throw alreadyLocked(req.periodKey);
  // The fence first: from here on the ledger appends no classification decision for the quarter's events
  // (they go to correction review), and every decision it appended before is in `periodDecisions`.
  const { sequence: head, periodDecisionCount } = await fencePeriod(deps, caller, req.periodKey);
  const applied = await projectionPosition(deps.pool, 'compliance_reports', caller.accountId);
  const decisions = await deps.unionOssLocks.appliedDecisionCount(caller.accountId, req.periodKey);
  if (applied < head || decisions < periodDecisionCount) {
    throw rpcError(Code.Unavailable, 'projection_lagging', `The report projection is at ledger position ${applied} of ${head} (classification decisions of the quarter: ${decisions} of ${periodDecisionCount}); retry when it has caught up.`, {
      ledger_head: String(head),
      projection_position: String(applied),
      period_decision_count: String(periodDecisionCount),
      projection_period_decision_count: String(decisions),
    });
  }
  // What the lock seals with its artifacts: the scope it read and each event key's disposition, from which
  // the locked quarter's drill-down lists exactly the events it saw (the facts up to `head` are frozen).
  const { context, sealed } = await buildReturn(deps, caller, req.periodKey, { position: head, seal: true });
  const sealedCount = sealed!.dispositions.reduce((n, d) => n + d.count, 0);
  if (sealedCount !== context.ret.totalSourceEventCount) throw new Error(`the sealed events (${sealedCount}) are not the return's (${context.ret.totalSourceEventCount})`);
  const locked = { ...context, periodStatus: 'locked' };
  const ret = context.ret;
  const status = filingStatusOf(ret);
  const artifacts = [
    artifact('union_oss_accountant_report_locked', 'json', `oss-accountant-report-${req.periodKey}.json`, accountantReport(locked, 'union_oss_accountant_report_locked', true)),
    artifact('union_oss_accountant_report_pdf_locked', 'pdf', `oss-accountant-report-${req.periodKey}.pdf`, await accountantPdf(locked, 'Accountant report (locked)')),
    artifact('union_oss_quarterly_summary_locked', 'csv', `oss-quarterly-summary-${req.periodKey}.csv`, exportCsv(locked, 'summary', 'union_oss_quarterly_summary_locked', true)),
    artifact('union_oss_return_locked', 'json', `oss-return-${req.periodKey}.json`, returnDocumentText(locked)),
    ...memberStateFiles(locked, req.periodKey),
  ];
  const stored = await deps.unionOssLocks.lock(
    caller.accountId,
    {
      periodKey: req.periodKey,
      registrationId: context.registrationId,
      memberStateIdentification: ret.memberStateIdentification,
      returnCurrency: ret.returnCurrency,
      ledgerPosition: head,
      filingStatus: status.status,
      filingStatusDetail: status.detail,
      nilReturnEligible: status.status === 'nil_return',
      totalSourceEventCount: BigInt(ret.totalSourceEventCount),
      includedSourceEventCount: BigInt(ret.includedSourceEventCount),
      excludedSourceEventCount: BigInt(ret.excludedSourceEventCount),
      warningCount: ret.warnings.length,
      jurisdictionCount: ret.balances.length,
      lockedAt: new Date(context.generatedAt),
      lockedByApiKeyId: caller.apiKeyId,
    },
    artifacts,
    sealed!,
  );
  if (!stored) throw alreadyLocked(req.periodKey);
  const period = (await deps.unionOssLocks.list(caller.accountId)).find((p) => p.periodKey === req.periodKey)!;
  const exports = await deps.unionOssLocks.exportsOf(caller.accountId, [period.id]);
  return create(LockUnionOssPeriodResponseSchema, { document: jsonDocument(lockedPeriodJson(period, deps.now(), exports), `union-oss-locked-${req.periodKey}.json`) });
}
