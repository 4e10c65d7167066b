import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CheckSmeEligibilityResponseSchema, type CheckSmeEligibilityRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { rpcError } from '@vat/platform/rpc-errors';
import type { ThresholdsDeps } from '../context';
import { smeEligibility } from '../sme/eligibility';

/** Art. 284 eligibility: every request rule (the spec's codes and their order) is checked here, once. */
export async function checkSmeEligibility(deps: ThresholdsDeps, req: CheckSmeEligibilityRequest, _ctx: HandlerContext) {
  const today = deps.now().toISOString().slice(0, 10);
  const out = smeEligibility(req, today, await deps.sme.rows());
  if (!out.ok) throw rpcError(out.code, out.error, out.detail);
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
