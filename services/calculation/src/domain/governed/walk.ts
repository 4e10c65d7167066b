/**
 * The rule walk of a governed decision (`POST /v2/vat/calculate`): from the canonical request, the facts the
 * walk asks for (`GovernedLookups`) and the rate release, the four components and how the decision is
 * answered. Nothing here reads a database or calls a service itself.
 */
import { uuidv7 } from '@vat/platform/uuid7';
import type { ResolveTaxClassResponse } from '@vat/gen/vat/classification/v1/classification_service_pb';
import type { RateSnapshot } from '../../reference/rate-store';
import type { RateWindow } from '../../repositories/rate-releases';
import type { ProfileRevision } from '../../repositories/decisions';
import type { TreatmentReleaseRecord } from '../../repositories/treatment-releases';
import { ALGORITHM_MANIFEST_DIGEST } from '../algorithm-manifest';
import { calculateVat, CALCULATION_VERSION, type VatResult } from '../calculator';
import { expiredSources } from '../treatment-release';
import { openSalesVat, unimplementedComponents, type Component, type DecisionStatus } from './decision';
import type { GovernedCanonical } from './request';
import { salesVatRule, type SupplyKind, type ThresholdPosition } from './sales-vat';

/** What the walk asks of the world; each answer comes from a repository or another service. */
export type GovernedLookups = {
  /** The account's source profiles an `X-Evidence-Profile` value names (its id or source_key). */
  profilesNamed(ref: string): Promise<ProfileRevision[]>;
  /** The activated treatment release covering a State on a legal date. */
  treatmentInForce(country: string, legalDate: string): Promise<TreatmentReleaseRecord | undefined>;
  /** The governed mapping of an exact code (classification service). */
  resolveTaxClass(q: { scheme: string; exactCode: string; catalogVersion: string; jurisdiction: string; legalDate: string }): Promise<ResolveTaxClassResponse>;
  /** The supplier's Article 59c position for a sale on a legal date (thresholds service). */
  article59cPosition(establishment: string, legalDate: string): Promise<ThresholdPosition>;
};

/**
 * The customer's VAT number as compliance-reports' evidence at the legal date: its VIES code (first two
 * characters), the status (`none`: no check in the window) and the check it rests on.
 */
export type CustomerVatEvidence = {
  state: string;
  masked: string;
  status: 'valid' | 'invalid' | 'unavailable' | 'none';
  check?: { id: string; result: string; consultationNumber: string | null; checkedAt: string; viesRequestDate: string | null };
};

/** The provenance entry citing a VIES check: `vat_number_check:<id>:<result>:<consultation number>:<checked at>`. */
export function vatNumberCheckProvenance(e: CustomerVatEvidence): string[] {
  const c = e.check;
  return c ? [`vat_number_check:${c.id}:${c.result}:${c.consultationNumber ?? ''}:${c.checkedAt}`] : [`vat_number_check:none:${e.masked}`];
}

type Selector = { taxClassId: string; supplyKind: SupplyKind; provenance: string[] };

/** A decision before it is stored: the components, the decision-level findings and how it is answered. */
type Draft = { components: Component[]; findings: string[]; error?: string; detail?: string; release?: TreatmentReleaseRecord; profile?: ProfileRevision; arithmetic?: Arithmetic };

/** The calculated sales VAT, stored as a calculation record (transaction history) with the decision. */
export type Arithmetic = { calculationId: string; jurisdiction: string; taxClassId: string; window: RateWindow; amounts: VatResult };

/** The HTTP status, error code and detail a decision of this status is answered with. */
export function answerOf(status: DecisionStatus, draft: Draft): { httpStatus: number; error: string; detail: string } {
  const httpStatus = status === 'conflicting' ? 409 : status === 'complete' || status === 'partial' ? 200 : 422;
  if (httpStatus === 200) return { httpStatus, error: '', detail: '' };
  return { httpStatus, error: draft.error ?? `decision_${status}`, detail: draft.detail ?? detailFor(status) };
}

function detailFor(status: DecisionStatus): string {
  return status === 'unsupported'
    ? 'No obligation could be settled: the required legal flow or authority is not implemented. The decision is stored; see its findings.'
    : 'No obligation could be settled from the supplied facts and authority. The decision is stored; see its findings.';
}

/**
 * Walks the rules in order (evidence profile, jurisdiction, treatment release, tax class, place of supply with the
 * Article 59c position when it matters, the release's rule, the rate window): the first open question leaves the
 * sales-VAT component open, with its findings; otherwise it is settled, calculated or zero by treatment.
 */
export async function evaluateGoverned(req: GovernedCanonical, lookups: GovernedLookups, snap: RateSnapshot, now: Date, customerVat?: CustomerVatEvidence): Promise<Draft> {
  const currency = req.currency;
  const legalDate = req.transaction_date.slice(0, 10);
  const ctxDestination = req.treatment_context.destination_country;
  const others = unimplementedComponents(currency, ctxDestination);
  const withSales = (sales: Component) => [sales, ...others];

  let profile: ProfileRevision | undefined;
  if (req.evidence_profile !== null) {
    const named = await lookups.profilesNamed(req.evidence_profile);
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

  const release = await lookups.treatmentInForce(req.country, legalDate);
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

  const selected = await selectTaxClass(lookups, req, release, legalDate);
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
    customerVat: !customerVat
      ? undefined
      : customerVat.status === 'valid'
        ? { status: 'valid' as const, state: customerVat.state }
        : { status: customerVat.status === 'invalid' ? ('invalid' as const) : ('unverified' as const) },
  };
  let threshold: ThresholdPosition | undefined;
  let outcome = salesVatRule(facts);
  if (outcome.kind === 'needs_threshold') {
    threshold = await lookups.article59cPosition(facts.establishment!, legalDate);
    outcome = salesVatRule(facts, threshold);
  }
  if (outcome.kind === 'needs_threshold') throw new Error('the rule walk asked for the Article 59c position twice');
  const provenance = [
    ...releaseProvenance,
    ...selected.provenance,
    ...(customerVat && facts.customerType === 'b2b' ? vatNumberCheckProvenance(customerVat) : []),
    ...(threshold ? [`article_59c_position:${threshold}`] : []),
  ];
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
  const calculationId = uuidv7(now.getTime());
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
async function selectTaxClass(lookups: GovernedLookups, req: GovernedCanonical, release: TreatmentReleaseRecord, legalDate: string): Promise<Selector | { conflict: string; reasons: string[] } | { open: string[] }> {
  const c = req.classification;
  if (!c) return { taxClassId: req.tax_class_id!, supplyKind: 'unknown', provenance: ['mapping:tax-class-direct/v1'] };
  const editions = release.content.catalog_editions[c.scheme as 'cn' | 'cpa'] ?? [];
  if (!editions.includes(c.catalog_version)) {
    if (req.tax_class_id !== null) return { conflict: `${c.scheme.toUpperCase()} ${c.catalog_version} is not an edition of the treatment release in force, so the mapping of the code cannot be compared with tax_class_id.`, reasons: ['catalog_version_not_in_release'] };
    return { open: ['catalog_version_not_in_release'] };
  }
  const resolved = await lookups.resolveTaxClass({ scheme: c.scheme, exactCode: c.code, catalogVersion: c.catalog_version, jurisdiction: req.country, legalDate });
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
