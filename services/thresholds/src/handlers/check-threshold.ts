import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CheckThresholdResponseSchema, type CheckThresholdRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { isValidDate } from '@vat/platform/http-inputs';
import { callerOf } from '@vat/platform/principal';
import { failedPrecondition, invalidArgument } from '@vat/platform/rpc-errors';
import { checkIossConsignment } from '../article59c/ioss';
import { DISCLAIMER } from '../article59c/policy';
import { ossCheck } from '../article59c/status';
import { article59cView } from '../article59c/view';
import type { ThresholdsDeps } from '../context';

const MAX_CONSIGNMENT_MINOR = 10n ** 15n;

/** The cutoff day of an OSS check: `to` (not after today), `from` only as 1 January of that year. */
function ossCutoffDay(req: CheckThresholdRequest, today: string): string {
  if (req.amountMinor !== undefined) throw invalidArgument('unexpected_amount_minor', '`amount_minor` is the IOSS consignment value; an OSS check takes none.');
  if (req.to !== undefined && !isValidDate(req.to)) throw invalidArgument('invalid_to', '`to` must be a calendar date YYYY-MM-DD.');
  if (req.from !== undefined && !isValidDate(req.from)) throw invalidArgument('invalid_from', '`from` must be a calendar date YYYY-MM-DD.');
  const cutoff = req.to ?? today;
  if (cutoff > today) throw invalidArgument('to_after_today', '`to` must not be later than today (UTC).');
  const yearStart = `${cutoff.slice(0, 4)}-01-01`;
  if (req.from !== undefined && req.from !== yearStart) {
    throw invalidArgument('invalid_threshold_range', `\`from\` must be ${yearStart}, 1 January of the cutoff year: the threshold applies to calendar years, not partial ranges.`);
  }
  return cutoff;
}

/** OSS: the Article 59c comparison (422 when evidence is incomplete and no crossing is proven). IOSS: one consignment. */
export async function checkThreshold(deps: ThresholdsDeps, req: CheckThresholdRequest, ctx: HandlerContext) {
  const principal = callerOf(ctx);
  if (req.thresholdType === 'ioss') {
    if (req.from !== undefined || req.to !== undefined) throw invalidArgument('unexpected_date_range', 'An IOSS check compares one consignment; `from` and `to` are not accepted.');
    if (req.amountMinor === undefined) throw invalidArgument('missing_amount_minor', '`amount_minor` (the consignment value in EUR cents) is required for an IOSS check.');
    if (req.amountMinor < 0n || req.amountMinor > MAX_CONSIGNMENT_MINOR) throw invalidArgument('invalid_amount_minor', '`amount_minor` must be an integer from 0 to 10^15 (EUR cents).');
    const c = checkIossConsignment(req.amountMinor);
    return create(CheckThresholdResponseSchema, { thresholdType: 'ioss', currency: 'EUR', currencyScale: 2, evidenceStatus: 'resolved', historicalCrossingProven: false, disclaimer: DISCLAIMER, ...c });
  }
  if (req.thresholdType !== 'oss') throw invalidArgument('invalid_threshold_type', '`threshold_type` must be oss or ioss.');
  const cutoff = ossCutoffDay(req, deps.now().toISOString().slice(0, 10));
  const view = await article59cView(deps, principal, cutoff);
  const entry = view.checks[0];
  if (!entry) {
    throw failedPrecondition(
      'article_59c_evidence_incomplete',
      `The Article 59c comparison cannot be stated: ${view.evidenceStatus} (${view.issues.join(', ') || 'no establishment Member State is evidenced'}). See GET /v1/compliance/threshold-status for the blocking events.`,
    );
  }
  return create(CheckThresholdResponseSchema, { ...ossCheck(entry, view.evidenceStatus === 'resolved'), unconvertedCurrencies: view.unconvertedCurrencies, disclaimer: DISCLAIMER });
}
