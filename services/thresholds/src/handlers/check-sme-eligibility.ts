import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CheckSmeEligibilityResponseSchema, type CheckSmeEligibilityRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { Code, rpcError } from '@vat/platform/rpc-errors';
import { smeEligibility } from '../sme/eligibility';
import type { ThresholdsDeps } from '../context';

const CODE_BY_STATUS = { 400: Code.InvalidArgument, 404: Code.NotFound, 422: Code.FailedPrecondition } as const;

/** Art. 284 eligibility: every request rule (the spec's codes and their order) is checked here, once. */
export async function checkSmeEligibility(deps: ThresholdsDeps, req: CheckSmeEligibilityRequest, _ctx: HandlerContext) {
  const body: Record<string, unknown> = { country: req.country, currency: req.currency, annual_turnover_nac: Number(req.annualTurnoverNac) };
  if (req.annualTurnoverNac > BigInt(Number.MAX_SAFE_INTEGER) || req.annualTurnoverNac < BigInt(Number.MIN_SAFE_INTEGER)) body.annual_turnover_nac = req.annualTurnoverNac.toString();
  if (req.referenceDate !== undefined) body.reference_date = req.referenceDate;
  const today = deps.now().toISOString().slice(0, 10);
  const out = smeEligibility(body, today, await deps.sme.rows());
  if (!out.ok) throw rpcError(CODE_BY_STATUS[out.status], out.error, out.detail);
  const r = out.result;
  return create(CheckSmeEligibilityResponseSchema, {
    result: {
      country: r.country,
      currency: r.currency,
      annualTurnoverNac: BigInt(r.annual_turnover_nac),
      referenceDate: r.reference_date,
      exemptionThresholdNac: r.exemption_threshold_nac ?? undefined,
      exemptionThresholdEur: r.exemption_threshold_eur ?? undefined,
      eligibilityStatus: r.eligibility_status,
      eligibleForExemption: r.eligible_for_exemption ?? undefined,
      exceededByNac: r.exceeded_by_nac === null ? undefined : BigInt(r.exceeded_by_nac),
      schemeType: r.scheme_type,
      policy: {
        oneNationalAnnualThreshold: r.policy.one_national_annual_threshold ?? undefined,
        exclusionArticle288QuarantinePeriod: r.policy.exclusion_article288_quarantine_period ?? undefined,
        voluntaryCessationArticle290: r.policy.voluntary_cessation_article290 ?? undefined,
      },
      sectorals: r.sectorals.map((s) => ({
        sector: s.sector ?? undefined,
        exemptionThresholdEur: s.exemption_threshold_eur ?? undefined,
        exemptionThresholdNac: s.exemption_threshold_nac ?? undefined,
        comment: s.comment ?? undefined,
      })),
      dataSituationOn: r.data_situation_on,
      disclaimer: r.disclaimer,
    },
  });
}
