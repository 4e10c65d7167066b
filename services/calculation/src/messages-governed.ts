import { create } from '@bufbuild/protobuf';
import { GovernedDecisionSchema, type GovernedDecision } from '@vat/gen/vat/calculation/v1/resources_pb';

const big = (v: unknown): bigint | undefined => (v === null || v === undefined ? undefined : BigInt(v as string));
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** A stored decision (JSON as sealed) as its RPC message. */
export function decisionMessage(d: Record<string, any>): GovernedDecision {
  return create(GovernedDecisionSchema, {
    decisionId: d.decision_id,
    schemaVersion: d.schema_version,
    status: d.status,
    components: (d.components as Record<string, any>[]).map((c) => ({
      kind: c.kind,
      treatment: opt(c.treatment),
      treatmentStatus: c.treatment_status,
      amountStatus: c.amount_status,
      jurisdiction: opt(c.jurisdiction),
      placeOfSupplyRule: opt(c.place_of_supply_rule),
      liableParty: opt(c.liable_party),
      collectionPoint: opt(c.collection_point),
      rateCategory: opt(c.rate_category),
      vatRateBps: opt(c.vat_rate_bps),
      netAmountMinor: big(c.net_amount_minor),
      amountMinor: big(c.amount_minor),
      grossAmountMinor: big(c.gross_amount_minor),
      currency: c.currency,
      calculationId: opt(c.calculation_id),
      legalBasis: c.legal_basis,
      provenance: c.provenance,
      deductionStatus: c.deduction_status,
      findings: c.findings,
    })),
    legalAt: d.legal_at,
    knowledgeAt: d.knowledge_at,
    resolverVersion: d.resolver_version,
    findings: d.findings,
    supersedesDecisionId: opt(d.supersedes_decision_id),
    treatmentReleaseId: opt(d.treatment_release_id),
    treatmentReleaseDigest: opt(d.treatment_release_digest),
    evidenceProfileRevisionId: opt(d.evidence_profile_revision_id),
    evidenceProfileRevisionDigest: opt(d.evidence_profile_revision_digest),
    sourceId: opt(d.source_id),
    createdAt: d.created_at,
    requestDigest: d.request_digest,
  });
}
