import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetVatNumberEvidenceResponseSchema, type GetVatNumberEvidenceRequest } from '@vat/gen/vat/compliance_reports/v1/compliance_reports_service_pb';
import { isCalendarDate } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { vatNumberDigest } from '@vat/platform/vat-number-digest';
import type { ComplianceReportsDeps } from '../context';
import { maskIdentifier } from '../domain/identifiers';
import { evidenceWindow } from '../domain/vat-number-evidence';
import { parseVatNumberInput } from '../domain/vat-number-format';
import { vatNumberCheckMessage } from '../vat-number-messages';

/**
 * The evidence of one number at a legal date: valid, invalid, unavailable or none. The caller sends the
 * number; its keyed digest is derived here (the caller needs no key) and answered with the mask, which is
 * what the caller keeps.
 */
export async function getVatNumberEvidence(deps: ComplianceReportsDeps, req: GetVatNumberEvidenceRequest, ctx: HandlerContext) {
  const { accountId } = callerOf(ctx);
  const number = parseVatNumberInput(req.vatNumber);
  if (!isCalendarDate(req.legalDate)) throw invalidArgument('invalid_legal_date', 'legal_date must be a calendar date YYYY-MM-DD.');
  const digest = vatNumberDigest(deps.vatNumberDigestKey, number);
  const { from, until } = evidenceWindow(req.legalDate, deps.config.vies.reuseDays);
  const found = (await deps.vatNumberChecks.evidenceFor(accountId, [digest], from, until)).get(digest);
  return create(GetVatNumberEvidenceResponseSchema, {
    status: found?.result ?? 'none',
    check: found ? vatNumberCheckMessage(found) : undefined,
    vatNumberDigest: digest,
    vatNumberMasked: maskIdentifier(number),
  });
}
