import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetVatNumberEvidenceResponseSchema, type GetVatNumberEvidenceRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { isCalendarDate } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import type { ComplianceReportsDeps } from '../context';
import { evidenceWindow } from '../domain/vat-number-evidence';
import { vatNumberCheckMessage } from '../vat-number-messages';

/** The evidence of one number (by keyed digest) at a legal date: valid, invalid, unavailable or none. */
export async function getVatNumberEvidence(deps: ComplianceReportsDeps, req: GetVatNumberEvidenceRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  if (!/^[0-9a-f]{64}$/.test(req.vatNumberDigest)) throw invalidArgument('invalid_vat_number_digest', 'vat_number_digest must be 64 lowercase hex digits.');
  if (!isCalendarDate(req.legalDate)) throw invalidArgument('invalid_legal_date', 'legal_date must be a calendar date YYYY-MM-DD.');
  const { from, until } = evidenceWindow(req.legalDate, deps.config.vies.reuseDays);
  const found = (await deps.vatNumberChecks.evidenceFor(accountId, [req.vatNumberDigest], from, until)).get(req.vatNumberDigest);
  return create(GetVatNumberEvidenceResponseSchema, { status: found?.result ?? 'none', check: found ? vatNumberCheckMessage(found) : undefined });
}
