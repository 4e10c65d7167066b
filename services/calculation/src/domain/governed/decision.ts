/**
 * The governed decision (`governed-calculation/v2`): exactly four obligations, each settled or not on its
 * own, and the aggregate status derived from them (spec "Status enumerations").
 */
export const SCHEMA_VERSION = 'governed-calculation/v2';
export const RESOLVER_VERSION = 'governed-treatment/v2';

const COMPONENT_KINDS = ['sales_vat', 'import_vat', 'customs_duty', 'fees'] as const;
type ComponentKind = (typeof COMPONENT_KINDS)[number];

/** `resolved` settles the treatment; the others leave the obligation open (fail closed). */
type TreatmentStatus = 'resolved' | 'incomplete' | 'unsupported' | 'conflicting';
/** `calculated` (an amount from the v1 arithmetic) or `zero_by_treatment` (no VAT charged by the merchant) settle it. */
type AmountStatus = 'calculated' | 'zero_by_treatment' | 'not_applicable' | 'incomplete' | 'unsupported' | 'conflicting';
export type DecisionStatus = 'complete' | 'partial' | 'incomplete' | 'conflicting' | 'unsupported';

export type Component = {
  kind: ComponentKind;
  treatment: string | null;
  treatment_status: TreatmentStatus;
  amount_status: AmountStatus;
  jurisdiction: string | null;
  place_of_supply_rule: string | null;
  liable_party: string | null;
  collection_point: string | null;
  rate_category: string | null;
  vat_rate_bps: number | null;
  net_amount_minor: string | null;
  amount_minor: string | null;
  gross_amount_minor: string | null;
  currency: string;
  calculation_id: string | null;
  legal_basis: string[];
  provenance: string[];
  deduction_status: 'unknown';
  findings: string[];
};

/** Settled: a resolved treatment with a calculated amount, an evidence-proven zero or a proven not-applicable outcome. */
function isSettled(c: Component): boolean {
  return c.treatment_status === 'resolved' && (c.amount_status === 'calculated' || c.amount_status === 'zero_by_treatment' || c.amount_status === 'not_applicable');
}

/**
 * complete: every obligation settled; conflicting: any component conflicts; partial: at least one settled;
 * incomplete: none settled and one needs more facts or authority; unsupported: none settled, none incomplete.
 */
export function aggregateStatus(components: readonly Component[]): DecisionStatus {
  if (components.some((c) => c.treatment_status === 'conflicting' || c.amount_status === 'conflicting')) return 'conflicting';
  const settled = components.filter(isSettled).length;
  if (settled === components.length) return 'complete';
  if (settled > 0) return 'partial';
  if (components.some((c) => c.treatment_status === 'incomplete' || c.amount_status === 'incomplete')) return 'incomplete';
  return 'unsupported';
}

function blank(kind: ComponentKind, currency: string): Component {
  return {
    kind,
    treatment: null,
    treatment_status: 'unsupported',
    amount_status: 'unsupported',
    jurisdiction: null,
    place_of_supply_rule: null,
    liable_party: null,
    collection_point: null,
    rate_category: null,
    vat_rate_bps: null,
    net_amount_minor: null,
    amount_minor: null,
    gross_amount_minor: null,
    currency,
    calculation_id: null,
    legal_basis: [],
    provenance: [],
    deduction_status: 'unknown',
    findings: [],
  };
}

/** A sales-VAT component that is not settled, with the reason(s) in findings. */
export function openSalesVat(currency: string, status: 'incomplete' | 'unsupported' | 'conflicting', findings: string[], extra: Partial<Component> = {}): Component {
  return { ...blank('sales_vat', currency), treatment_status: status, amount_status: status, findings, ...extra };
}

/**
 * The three obligations the initial release does not implement: always unsupported, with the legal basis of
 * the obligation and `unsupported_scope` (outside this release's scope never means no tax).
 */
export function unimplementedComponents(currency: string, jurisdiction: string): Component[] {
  return [
    { ...blank('import_vat', currency), jurisdiction, legal_basis: ['Directive 2006/112/EC Art. 2(1)(d), 30, 60, 61, 70, 201 (importation of goods)'], findings: ['unsupported_scope'] },
    { ...blank('customs_duty', currency), jurisdiction, legal_basis: ['Regulation (EU) No 952/2013 (Union Customs Code) Art. 56 and 77', 'Council Regulation (EEC) No 2658/87 (Common Customs Tariff)'], findings: ['unsupported_scope'] },
    { ...blank('fees', currency), jurisdiction, legal_basis: ['national charges levied on the supply or its clearance (not covered by governed-treatment/v2 releases)'], findings: ['unsupported_scope'] },
  ];
}

/** Every finding of the decision: its own first, then the components', each once. */
export function decisionFindings(own: readonly string[], components: readonly Component[]): string[] {
  return [...new Set([...own, ...components.flatMap((c) => c.findings)])];
}
