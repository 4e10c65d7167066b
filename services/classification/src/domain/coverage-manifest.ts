import { createHash } from 'node:crypto';
import { hasControlCharacter } from '@vat/platform/control-characters';
import { isCalendarDate } from '@vat/platform/http-inputs';
import { EU_MEMBER_STATES } from '@vat/platform/countries';
import { CATALOG_VERSIONS, isScheme, normalizeCode, type Scheme } from './codes';

export const COVERAGE_MANIFEST = 'classification_coverage_v1';

export const SUPPLY_KINDS = ['goods', 'services', 'imported_goods', 'new_means_of_transport', 'installed_goods'] as const;
const RULE_STATUSES = ['approved', 'review_only', 'withdrawn'] as const;
const COVERAGES = ['full', 'ex'] as const;

export type CoverageRuleInput = {
  ruleId: string;
  jurisdiction: string;
  scheme: Scheme;
  catalogVersion: string;
  code: string;
  coverage: (typeof COVERAGES)[number];
  legalFrom: string;
  legalTo: string | null;
  taxClassId: string;
  supplyKind: (typeof SUPPLY_KINDS)[number];
  status: (typeof RULE_STATUSES)[number];
  legalReference: string;
};

type ManifestIssue = { rule: number | null; field: string; error: string; detail: string };

export class ManifestError extends Error {
  constructor(readonly issues: ManifestIssue[]) {
    super(`the coverage manifest is refused: ${issues.length} problem(s); first: ${issues[0]!.rule === null ? '' : `rule #${issues[0]!.rule} `}${issues[0]!.field} ${issues[0]!.error}: ${issues[0]!.detail}`);
  }
}

const RULE_KEYS = ['rule_id', 'jurisdiction', 'scheme', 'catalog_version', 'code', 'coverage', 'legal_from', 'legal_to', 'tax_class_id', 'supply_kind', 'status', 'legal_reference'];
const MAX_RULES = 100_000;
const has = (list: readonly string[], v: unknown): boolean => typeof v === 'string' && list.includes(v);

/**
 * Parses a `classification_coverage_v1` file (JSON, see docs/classification.md): every rule checked field by field,
 * rule ids unique, a partial (`ex`) rule never `approved`. `taxClasses` is the set of known tax class ids.
 */
export function parseCoverageManifest(bytes: Uint8Array, taxClasses: ReadonlySet<string>): CoverageRuleInput[] {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ManifestError([{ rule: null, field: '(file)', error: 'invalid_json', detail: 'the manifest is not UTF-8 JSON.' }]);
  }
  const top = doc as Record<string, unknown>;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || Object.keys(top).sort().join(',') !== 'format,rules' || top.format !== COVERAGE_MANIFEST || !Array.isArray(top.rules)) {
    throw new ManifestError([{ rule: null, field: '(file)', error: 'invalid_manifest', detail: `the file is an object with exactly "format": "${COVERAGE_MANIFEST}" and "rules": [...].` }]);
  }
  if (top.rules.length === 0 || top.rules.length > MAX_RULES) throw new ManifestError([{ rule: null, field: 'rules', error: 'invalid_rules', detail: `1 to ${MAX_RULES} rules.` }]);
  const issues: ManifestIssue[] = [];
  const ids = new Set<string>();
  const rules: CoverageRuleInput[] = [];
  top.rules.forEach((raw, index) => {
    const n = index + 1;
    const bad = (field: string, error: string, detail: string) => issues.length < 100 && issues.push({ rule: n, field, error, detail });
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('(rule)', 'invalid_rule', 'each rule is an object.');
    const r = raw as Record<string, unknown>;
    for (const k of Object.keys(r)) if (!RULE_KEYS.includes(k)) bad(k, 'unknown_field', `rules have only ${RULE_KEYS.join(', ')}.`);
    const text = (k: string, max: number) => (typeof r[k] === 'string' && (r[k] as string).trim() !== '' && (r[k] as string).length <= max && !hasControlCharacter(r[k] as string) ? (r[k] as string) : undefined);
    const ruleId = text('rule_id', 100);
    if (!ruleId || !/^[A-Za-z0-9._:/-]+$/.test(ruleId)) bad('rule_id', 'invalid_rule_id', '1-100 letters, digits, ".", "_", ":", "/" or "-".');
    else if (ids.has(ruleId)) bad('rule_id', 'duplicate_rule_id', `${ruleId} appears twice.`);
    else ids.add(ruleId);
    if (!(r.jurisdiction === 'EU' || has(EU_MEMBER_STATES, r.jurisdiction))) bad('jurisdiction', 'invalid_jurisdiction', 'an EU Member State (ISO 3166-1, GR for Greece) or EU.');
    const scheme = isScheme(r.scheme) ? r.scheme : undefined;
    if (!scheme) bad('scheme', 'invalid_scheme', 'cn or cpa.');
    if (scheme && !has(CATALOG_VERSIONS[scheme], r.catalog_version)) bad('catalog_version', 'invalid_catalog_version', `one of ${scheme ? CATALOG_VERSIONS[scheme].join(', ') : ''}.`);
    const code = scheme && typeof r.code === 'string' ? normalizeCode(scheme, r.code) : undefined;
    if (!code || code !== r.code) bad('code', 'invalid_code', 'an exact code of the scheme in compact form (any level).');
    if (!has(COVERAGES, r.coverage)) bad('coverage', 'invalid_coverage', 'full, or ex (the rule covers only part of the code).');
    if (!isCalendarDate(r.legal_from)) bad('legal_from', 'invalid_legal_from', 'YYYY-MM-DD.');
    if (r.legal_to !== null && (!isCalendarDate(r.legal_to) || (isCalendarDate(r.legal_from) && (r.legal_to as string) <= r.legal_from))) bad('legal_to', 'invalid_legal_to', 'null (open) or a YYYY-MM-DD date after legal_from (exclusive).');
    if (typeof r.tax_class_id !== 'string' || !taxClasses.has(r.tax_class_id)) bad('tax_class_id', 'unknown_tax_class', 'a tax class id of GET /v1/tax-classes.');
    if (!has(SUPPLY_KINDS, r.supply_kind)) bad('supply_kind', 'invalid_supply_kind', `one of ${SUPPLY_KINDS.join(', ')} (stated per rule, never assumed from the scheme).`);
    if (!has(RULE_STATUSES, r.status)) bad('status', 'invalid_status', RULE_STATUSES.join(', '));
    if (r.coverage === 'ex' && r.status === 'approved') bad('status', 'partial_rule_approved', 'a partial (ex) rule is review_only or withdrawn: it cannot decide a mapping on its own.');
    const legalReference = text('legal_reference', 500);
    if (!legalReference) bad('legal_reference', 'invalid_legal_reference', 'the legal act or provision, 1-500 characters.');
    rules.push({ ruleId: ruleId ?? '', jurisdiction: r.jurisdiction as string, scheme: scheme!, catalogVersion: r.catalog_version as string, code: code ?? '', coverage: r.coverage as 'full', legalFrom: r.legal_from as string, legalTo: (r.legal_to as string | null) ?? null, taxClassId: r.tax_class_id as string, supplyKind: r.supply_kind as 'goods', status: r.status as 'approved', legalReference: legalReference ?? '' });
  });
  if (issues.length) throw new ManifestError(issues);
  return rules;
}

/** `sha256:` over the rules sorted by id, as canonical JSON arrays. */
export function manifestDigest(rules: readonly CoverageRuleInput[]): string {
  const sorted = [...rules].sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
  const canonical = JSON.stringify(sorted.map((r) => [r.ruleId, r.jurisdiction, r.scheme, r.catalogVersion, r.code, r.coverage, r.legalFrom, r.legalTo, r.taxClassId, r.supplyKind, r.status, r.legalReference]));
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}
