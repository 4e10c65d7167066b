import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { CalculateGovernedResponseSchema, type CalculateGovernedRequest } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { digestOf } from '@vat/platform/canonical-json';
import { callerOf, principalHeaders, type Principal } from '@vat/platform/principal';
import { notFound, rpcError } from '@vat/platform/rpc-errors';
import type { Statement } from '@vat/platform/sql';
import { storedCalculation } from '../calculation-record';
import type { CalculationDeps } from '../context';
import { ALGORITHM_MANIFEST_DIGEST } from '../domain/algorithm-manifest';
import { calculateVat, CALCULATION_VERSION, type VatResult } from '../domain/calculator';
import { aggregateStatus, decisionFindings, openSalesVat, RESOLVER_VERSION, SCHEMA_VERSION, unimplementedComponents, type Component, type DecisionStatus } from '../domain/governed/decision';
import { canonicalizeGoverned, type GovernedCanonical } from '../domain/governed/request';
import { salesVatRule, thresholdPosition, type SupplyKind, type ThresholdPosition } from '../domain/governed/sales-vat';
import { expiredSources } from '../domain/treatment-release';
import { pinRate, type CanonicalRequest } from '../evidence';
import { decisionMessage } from '../messages-governed';
import type { RateSnapshot, RateWindow } from '../reference/rate-store';
import type { DecisionRecord, ProfileRevision } from '../repositories/decisions';
import type { TreatmentReleaseRecord } from '../repositories/treatment-releases';

type Selector = { taxClassId: string; supplyKind: SupplyKind; provenance: string[] };

/** A decision before it is stored: the components, the decision-level findings and how it is answered. */
type Draft = { components: Component[]; findings: string[]; error?: string; detail?: string; release?: TreatmentReleaseRecord; profile?: ProfileRevision; arithmetic?: Arithmetic };

/** The calculated sales VAT, stored as a calculation record (transaction history) with the decision. */
type Arithmetic = { calculationId: string; jurisdiction: string; taxClassId: string; window: RateWindow; amounts: VatResult };

/** Another service failed transiently: 503, nothing stored; a refusal of the input (4xx) passes through. */
function downstream(err: unknown): never {
  if (err instanceof ConnectError && [Code.InvalidArgument, Code.NotFound].includes(err.code)) throw err;
  throw rpcError(Code.Unavailable, 'service_unavailable', 'A service the decision depends on is temporarily unavailable; nothing was stored. Retry with the same Idempotency-Key.');
}

/**
 * `POST /v2/vat/calculate`. Every RPC (classification mapping, Article 59c status) is made before the
 * one statement that stores the decision; a replay of the key answers the stored original, whatever
 * was activated since.
 */
export async function calculateGoverned(deps: CalculationDeps, req: CalculateGovernedRequest, ctx: HandlerContext) {
  const principal = callerOf(ctx);
  const now = deps.now();
  const snap = await deps.rates.current();
  const canonical = canonicalizeGoverned(req, (id) => snap.classById.has(id));
  const requestDigest = digestOf(canonical);
  const stored = await deps.decisions.byIdempotencyKey(principal.accountId, req.idempotencyKey!);
  if (stored) return replayOrConflict(stored, requestDigest);
  if (canonical.supersedes_decision_id && !(await deps.decisions.owned(principal.accountId, canonical.supersedes_decision_id))) {
    throw notFound('decision_not_found', 'supersedes_decision_id names no decision of this account.');
  }
  const draft = await evaluate(deps, principal, canonical, snap, now);
  const components = draft.components;
  const status = aggregateStatus(components);
  const httpStatus = status === 'conflicting' ? 409 : status === 'complete' || status === 'partial' ? 200 : 422;
  const error = httpStatus === 200 ? '' : (draft.error ?? `decision_${status}`);
  const detail = httpStatus === 200 ? '' : (draft.detail ?? detailFor(status));
  const id = randomUUID();
  const decision = {
    decision_id: id,
    schema_version: SCHEMA_VERSION,
    status,
    components,
    legal_at: canonical.transaction_date,
    knowledge_at: now.toISOString(),
    resolver_version: RESOLVER_VERSION,
    findings: decisionFindings(draft.findings, components),
    supersedes_decision_id: canonical.supersedes_decision_id,
    treatment_release_id: draft.release?.releaseId ?? null,
    treatment_release_digest: draft.release?.digest ?? null,
    evidence_profile_revision_id: draft.profile?.revisionId ?? null,
    evidence_profile_revision_digest: draft.profile?.digest ?? null,
    source_id: canonical.source_id,
    created_at: now.toISOString(),
    request_digest: requestDigest,
  };
  const record: DecisionRecord = {
    id,
    accountId: principal.accountId,
    apiKeyId: principal.apiKeyId,
    idempotencyKey: req.idempotencyKey!,
    requestDigest,
    canonicalRequest: canonical,
    status,
    httpStatus,
    errorCode: error,
    detail,
    decision,
    supersedesDecisionId: canonical.supersedes_decision_id,
    createdAt: now,
  };
  const arithmetic = draft.arithmetic;
  const inserted = await deps.decisions.insertOnce(record, arithmetic && ((guard, offset) => calculationRecord(deps, principal, canonical, snap, arithmetic, now, guard, offset)));
  if (inserted) {
    if (arithmetic) deps.relay.kick();
    return answer(inserted, false);
  }
  const winner = await deps.decisions.byIdempotencyKey(principal.accountId, req.idempotencyKey!);
  if (!winner) throw rpcError(Code.Unavailable, 'service_unavailable', 'Concurrent write; retry with the same Idempotency-Key.');
  return replayOrConflict(winner, requestDigest);
}

/**
 * The transaction record of a calculated sales-VAT component: the v1 canonical form of the arithmetic (the
 * State whose VAT it is, the tax class the decision selected), its pinned rate window and the calculator, so
 * it is listed, exported and replayable like a v1 calculation. No idempotency key: the decision holds it.
 */
function calculationRecord(deps: CalculationDeps, principal: Principal, req: GovernedCanonical, snap: RateSnapshot, a: Arithmetic, now: Date, guard: string, offset: number): Statement {
  const canonical: CanonicalRequest = {
    schema: 'vat-calculate-request/v1',
    country: a.jurisdiction,
    currency: req.currency,
    tax_class_id: a.taxClassId,
    amount_minor: req.amount_minor,
    price_includes_vat: req.price_includes_vat,
    transaction_date: req.transaction_date,
    source_id: req.source_id,
  };
  const requestDigest = digestOf(canonical);
  const evidence = pinRate(snap.release, a.window);
  const { record, event } = storedCalculation({ id: a.calculationId, principal, canonical, requestDigest, window: a.window, amounts: a.amounts, evidence, now, idempotencyKey: null });
  return deps.calculations.guardedInsert(record, event, guard, offset);
}

function detailFor(status: DecisionStatus): string {
  return status === 'unsupported'
    ? 'No obligation could be settled: the required legal flow or authority is not implemented. The decision is stored; see its findings.'
    : 'No obligation could be settled from the supplied facts and authority. The decision is stored; see its findings.';
}

function answer(r: DecisionRecord, replayed: boolean) {
  return create(CalculateGovernedResponseSchema, { decision: decisionMessage(r.decision), httpStatus: r.httpStatus, error: r.errorCode, detail: r.detail, replayed });
}

function replayOrConflict(stored: DecisionRecord, requestDigest: string) {
  if (stored.requestDigest !== requestDigest) {
    throw rpcError(Code.Aborted, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request (body, X-Evidence-Profile or X-Source-ID).');
  }
  return answer(stored, true);
}

async function evaluate(deps: CalculationDeps, principal: Principal, req: GovernedCanonical, snap: RateSnapshot, now: Date): Promise<Draft> {
  const currency = req.currency;
  const legalDate = req.transaction_date.slice(0, 10);
  const ctxDestination = req.treatment_context.destination_country;
  const others = unimplementedComponents(currency, ctxDestination);
  const withSales = (sales: Component) => [sales, ...others];

  let profile: ProfileRevision | undefined;
  if (req.evidence_profile !== null) {
    const named = await deps.decisions.profilesNamed(principal.accountId, req.evidence_profile);
    if (named.length !== 1 || !named[0]!.active) {
      const why = named.length === 0 ? 'unknown to this account' : named.length > 1 ? 'ambiguous (it names more than one profile)' : 'archived (inactive)';
      return {
        components: withSales(openSalesVat(currency, 'incomplete', ['evidence_profile_unavailable'], { jurisdiction: ctxDestination })),
        findings: ['evidence_profile_unavailable'],
        error: 'evidence_profile_unavailable',
        detail: `X-Evidence-Profile is ${why}; send the id or source_key of one active source profile of the account.`,
      };
    }
    profile = named[0];
  }
  const profileProvenance = profile ? [`evidence_profile_revision:${profile.revisionId}:${profile.digest}`] : [];

  if (ctxDestination !== req.country) {
    return {
      components: withSales(openSalesVat(currency, 'conflicting', ['jurisdiction_conflict'], { jurisdiction: req.country, provenance: profileProvenance })),
      findings: ['jurisdiction_conflict'],
      error: 'jurisdiction_conflict',
      detail: `country ${req.country} differs from treatment_context.destination_country ${ctxDestination}; neither is assumed.`,
      profile,
    };
  }

  const release = await deps.treatments.inForce(req.country, legalDate);
  if (!release) {
    return {
      components: withSales(openSalesVat(currency, 'unsupported', ['treatment_coverage_unavailable'], { jurisdiction: req.country, provenance: profileProvenance })),
      findings: ['treatment_coverage_unavailable'],
      error: 'treatment_coverage_unavailable',
      detail: `No activated treatment release covers ${req.country} on ${legalDate}.`,
      profile,
    };
  }
  const releaseProvenance = [`treatment_release:${release.releaseId}:${release.digest}`, ...profileProvenance];
  const base = { release, profile };

  const selected = await selectTaxClass(deps, principal, req, release, legalDate);
  if ('conflict' in selected) {
    return {
      components: withSales(openSalesVat(currency, 'conflicting', ['classification_conflict', ...selected.reasons], { jurisdiction: req.country, provenance: releaseProvenance })),
      findings: ['classification_conflict'],
      error: 'classification_conflict',
      detail: selected.conflict,
      ...base,
    };
  }
  if ('open' in selected) {
    return { components: withSales(openSalesVat(currency, 'incomplete', selected.open, { jurisdiction: req.country, provenance: releaseProvenance })), findings: [], ...base };
  }

  const facts = {
    customerType: req.treatment_context.customer_type,
    establishment: req.treatment_context.supplier_establishment_country,
    dispatch: req.treatment_context.dispatch_country,
    destination: ctxDestination,
    supplyKind: selected.supplyKind,
    legalDate,
  };
  let threshold: ThresholdPosition | undefined;
  let outcome = salesVatRule(facts);
  if (outcome.kind === 'needs_threshold') {
    threshold = await article59cPosition(deps, principal, facts.establishment!, legalDate);
    outcome = salesVatRule(facts, threshold);
  }
  if (outcome.kind === 'needs_threshold') throw new Error('the rule walk asked for the Article 59c position twice');
  const provenance = [...releaseProvenance, ...selected.provenance, ...(threshold ? [`article_59c_position:${threshold}`] : [])];
  const rule = outcome.rule ? release.content.rules.find((r) => r.rule_id === outcome.rule) : undefined;
  const ruleFields: Partial<Component> = rule
    ? { treatment: rule.treatment, liable_party: rule.liable_party, collection_point: rule.collection_point, legal_basis: rule.legal_basis, place_of_supply_rule: rule.rule_id }
    : {};
  if (outcome.kind === 'open') {
    return { components: withSales(openSalesVat(currency, outcome.status, outcome.findings, { ...ruleFields, jurisdiction: outcome.jurisdiction, provenance })), findings: [], ...base };
  }
  const open = (findings: string[], extra: Partial<Component> = {}) => ({ components: withSales(openSalesVat(currency, 'incomplete', findings, { ...ruleFields, jurisdiction: outcome.jurisdiction, provenance, ...extra })), findings: [], ...base });
  if (!rule) return open(['treatment_rule_missing']);
  if (!release.jurisdictions.includes(outcome.jurisdiction)) return open(['treatment_coverage_unavailable']);
  const expired = expiredSources(release.content, rule, now);
  if (expired.length) return open(['source_review_expired', ...expired.map((s) => `source_review_expired:${s}`)]);
  if (rule.treatment !== 'taxable') {
    const sales: Component = { ...openSalesVat(currency, 'incomplete', []), ...ruleFields, jurisdiction: outcome.jurisdiction, provenance, treatment_status: 'resolved', amount_status: 'zero_by_treatment', amount_minor: '0' };
    return { components: withSales(sales), findings: [], ...base };
  }
  if (snap.release.digest !== release.rateReleaseDigest) return open(['rate_release_not_sealed']);
  const window = snap.windowAt(outcome.jurisdiction, selected.taxClassId, legalDate);
  if (!window) return open(['rate_unavailable']);
  if (window.conditional) return open(['conditional_rate_unresolved'], { rate_category: window.rateType });
  if (window.reviewStatus !== 'source_cited') return open(['rate_unreviewed'], { rate_category: window.rateType });
  const amounts = calculateVat({ amountMinor: BigInt(req.amount_minor), rateBps: window.rateBps, priceIncludesVat: req.price_includes_vat });
  const calculationId = randomUUID();
  const sales: Component = {
    ...openSalesVat(currency, 'incomplete', []),
    ...ruleFields,
    treatment_status: 'resolved',
    amount_status: 'calculated',
    jurisdiction: outcome.jurisdiction,
    rate_category: window.rateType,
    vat_rate_bps: window.rateBps,
    net_amount_minor: amounts.netMinor.toString(),
    amount_minor: amounts.vatMinor.toString(),
    gross_amount_minor: amounts.grossMinor.toString(),
    calculation_id: calculationId,
    provenance: [...provenance, `rate_release:${snap.release.digest}`, `rate_window:${window.rowDigest}`, `calculator:${CALCULATION_VERSION}`, `algorithm_manifest:${ALGORITHM_MANIFEST_DIGEST}`],
  };
  return { components: withSales(sales), findings: [], ...base, arithmetic: { calculationId, jurisdiction: outcome.jurisdiction, taxClassId: selected.taxClassId, window, amounts } };
}

/**
 * The tax class and supply kind: `tax_class_id` as given (supply kind unknown), the governed mapping of
 * `classification`, or both, which must agree (neither overrides the other).
 */
async function selectTaxClass(
  deps: CalculationDeps,
  principal: Principal,
  req: GovernedCanonical,
  release: TreatmentReleaseRecord,
  legalDate: string,
): Promise<Selector | { conflict: string; reasons: string[] } | { open: string[] }> {
  const c = req.classification;
  if (!c) return { taxClassId: req.tax_class_id!, supplyKind: 'unknown', provenance: ['mapping:tax-class-direct/v1'] };
  const editions = release.content.catalog_editions[c.scheme as 'cn' | 'cpa'] ?? [];
  if (!editions.includes(c.catalog_version)) {
    if (req.tax_class_id !== null) return { conflict: `${c.scheme.toUpperCase()} ${c.catalog_version} is not an edition of the treatment release in force, so the mapping of the code cannot be compared with tax_class_id.`, reasons: ['catalog_version_not_in_release'] };
    return { open: ['catalog_version_not_in_release'] };
  }
  const resolved = await deps.clients.classification
    .resolveTaxClass({ scheme: c.scheme, exactCode: c.code, catalogVersion: c.catalog_version, jurisdiction: req.country, legalDate }, { headers: principalHeaders(principal) })
    .catch(downstream);
  if (resolved.status !== 'resolved' || !resolved.taxClassId) {
    const reasons = resolved.reasons.map((r) => `classification_${r}`);
    if (req.tax_class_id !== null) return { conflict: `The governed mapping of ${c.scheme.toUpperCase()} ${c.code} is missing (${resolved.reasons.join(', ') || 'needs review'}); tax_class_id does not replace it.`, reasons };
    return { open: ['classification_needs_review', ...reasons] };
  }
  if (req.tax_class_id !== null && req.tax_class_id !== resolved.taxClassId) {
    return { conflict: `${c.scheme.toUpperCase()} ${c.code} maps to ${resolved.taxClassId}, not ${req.tax_class_id}; neither selector overrides the other.`, reasons: [] };
  }
  const kind = resolved.supplyKind === 'goods' || resolved.supplyKind === 'services' ? resolved.supplyKind : 'other';
  return {
    taxClassId: resolved.taxClassId,
    supplyKind: kind,
    provenance: [`mapping:${resolved.coverageManifest}:${resolved.coverageManifestVersion ?? ''}:${resolved.coverageManifestDigest ?? ''}:${resolved.ruleId ?? ''}`, `catalog:${resolved.catalogDigest ?? ''}`],
  };
}

async function article59cPosition(deps: CalculationDeps, principal: Principal, establishment: string, legalDate: string): Promise<ThresholdPosition> {
  // A sale dated before today is placed by the status as of the end of its own day (its year and the one
  // before); today or later, by today's status (a later year stays unknown: nothing can be known of it yet).
  const today = deps.now().toISOString().slice(0, 10);
  const asOf = legalDate < today ? legalDate : undefined;
  const res = await deps.clients.thresholds.getThresholdStatus({ asOf }, { headers: principalHeaders(principal) }).catch(downstream);
  const s = res.status;
  if (!s) return 'unknown';
  return thresholdPosition(
    {
      currentYear: s.currentYear,
      checks: s.checks.map((c) => ({ establishmentCountry: c.establishmentCountry, currentComparison: c.currentComparison, previousComparison: c.previousComparison, currentYearCrossingOccurredAt: c.currentYearCrossing?.occurredAt })),
    },
    establishment,
    legalDate,
  );
}
