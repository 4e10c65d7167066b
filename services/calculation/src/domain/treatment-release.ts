import { EU_MEMBER_STATES } from '@vat/platform/countries';
import { digestOf } from '@vat/platform/canonical-json';
import { hasControlCharacter } from '@vat/platform/control-characters';

const TREATMENT_FORMAT = 'governed-treatment/v2';

/** The rules the resolver implements (domain/sales-vat.ts); a release must state every one, and no other. */
export const RULE_IDS = [
  'domestic_supply',
  'distance_sale_goods_destination',
  'distance_sale_goods_origin',
  'intra_community_supply_b2b',
  'cross_border_services_b2b',
  'cross_border_services_b2c',
  'non_established_domestic_b2b',
  'imported_goods',
] as const;
export type RuleId = (typeof RULE_IDS)[number];

const TREATMENTS = ['taxable', 'reverse_charge', 'exempt_intra_community_supply'] as const;
const LIABLE_PARTIES = ['merchant', 'customer'] as const;
const COLLECTION_POINTS = ['checkout', 'customer_self_assessment'] as const;
const PLACES = ['destination', 'dispatch'] as const;

type ReleaseSource = { source_id: string; title: string; url: string; reviewed_at: string };
type ReleaseRule = {
  rule_id: RuleId;
  treatment: (typeof TREATMENTS)[number];
  liable_party: (typeof LIABLE_PARTIES)[number];
  collection_point: (typeof COLLECTION_POINTS)[number];
  place_of_supply: (typeof PLACES)[number];
  legal_basis: string[];
  sources: string[];
};

/** A validated `governed-treatment/v2` file. */
export type TreatmentReleaseContent = {
  format: typeof TREATMENT_FORMAT;
  release_id: string;
  title: string;
  notes?: string;
  jurisdictions: string[];
  legal_from: string;
  legal_to: string | null;
  catalog_editions: { cn: string[]; cpa: string[] };
  sources: ReleaseSource[];
  rules: ReleaseRule[];
};

/** A file that is not a valid release; `issues` lists every problem found. */
export class TreatmentReleaseError extends Error {
  constructor(readonly issues: string[]) {
    super(`${issues.length} problem(s); first: ${issues[0]}`);
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;
const TOP = ['format', 'release_id', 'title', 'notes', 'jurisdictions', 'legal_from', 'legal_to', 'catalog_editions', 'sources', 'rules'];
const SOURCE_FIELDS = ['source_id', 'title', 'url', 'reviewed_at'];
const RULE_FIELDS = ['rule_id', 'treatment', 'liable_party', 'collection_point', 'place_of_supply', 'legal_basis', 'sources'];

const isDate = (v: unknown): v is string => typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.trim().length > 0 && v.length <= max && !hasControlCharacter(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown, max: number): v is string[] => Array.isArray(v) && v.length > 0 && v.every((s) => isText(s, max));

function unknownMembers(o: Record<string, unknown>, allowed: string[], where: string, issues: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) issues.push(`${where}: unknown member "${k.slice(0, 40)}"`);
}

/** Parses and validates a release file; any problem refuses the whole file. */
export function parseTreatmentRelease(bytes: Uint8Array): TreatmentReleaseContent {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new TreatmentReleaseError(['the file is not UTF-8 JSON']);
  }
  const issues: string[] = [];
  if (!isObject(doc)) throw new TreatmentReleaseError(['the file is not a JSON object']);
  unknownMembers(doc, TOP, 'release', issues);
  if (doc.format !== TREATMENT_FORMAT) issues.push(`format must be "${TREATMENT_FORMAT}"`);
  if (typeof doc.release_id !== 'string' || !ID.test(doc.release_id)) issues.push('release_id must be 1-100 letters, digits, . _ : / -');
  if (!isText(doc.title, 500)) issues.push('title must be 1-500 characters');
  if (doc.notes !== undefined && !isText(doc.notes, 4000)) issues.push('notes must be 1-4000 characters');
  const states = EU_MEMBER_STATES as readonly string[];
  if (!Array.isArray(doc.jurisdictions) || doc.jurisdictions.length === 0) issues.push('jurisdictions must list EU Member States');
  else {
    for (const j of doc.jurisdictions) if (typeof j !== 'string' || !states.includes(j)) issues.push(`jurisdiction ${String(j).slice(0, 10)} is not an EU Member State`);
    if (new Set(doc.jurisdictions).size !== doc.jurisdictions.length) issues.push('jurisdictions repeat a State');
  }
  if (!isDate(doc.legal_from)) issues.push('legal_from must be a YYYY-MM-DD date');
  if (doc.legal_to !== null && !isDate(doc.legal_to)) issues.push('legal_to must be a date or null');
  if (isDate(doc.legal_from) && isDate(doc.legal_to) && doc.legal_to <= doc.legal_from) issues.push('legal_to must be after legal_from');
  const ed = doc.catalog_editions;
  if (!isObject(ed)) issues.push('catalog_editions must be an object with cn and cpa lists');
  else {
    unknownMembers(ed, ['cn', 'cpa'], 'catalog_editions', issues);
    if (!Array.isArray(ed.cn) || !ed.cn.every((v) => typeof v === 'string' && /^20(2[1-6])$/.test(v))) issues.push('catalog_editions.cn lists CN editions 2021-2026');
    if (!Array.isArray(ed.cpa) || !ed.cpa.every((v) => v === '2.1' || v === '2.2')) issues.push('catalog_editions.cpa lists CPA 2.1 or 2.2');
  }
  const sourceIds = new Set<string>();
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) issues.push('sources must list the cited sources');
  else
    for (const [i, s] of doc.sources.entries()) {
      if (!isObject(s)) {
        issues.push(`sources[${i}] is not an object`);
        continue;
      }
      unknownMembers(s, SOURCE_FIELDS, `sources[${i}]`, issues);
      if (typeof s.source_id !== 'string' || !ID.test(s.source_id)) issues.push(`sources[${i}].source_id is malformed`);
      else if (sourceIds.has(s.source_id)) issues.push(`sources[${i}].source_id repeats ${s.source_id}`);
      else sourceIds.add(s.source_id);
      if (!isText(s.title, 500)) issues.push(`sources[${i}].title must be 1-500 characters`);
      if (typeof s.url !== 'string' || !/^https:\/\/[^\s]{3,500}$/.test(s.url)) issues.push(`sources[${i}].url must be an https URL`);
      if (!isDate(s.reviewed_at)) issues.push(`sources[${i}].reviewed_at must be a YYYY-MM-DD date`);
    }
  const seen = new Set<string>();
  if (!Array.isArray(doc.rules)) issues.push('rules must be a list');
  else
    for (const [i, r] of doc.rules.entries()) {
      if (!isObject(r)) {
        issues.push(`rules[${i}] is not an object`);
        continue;
      }
      unknownMembers(r, RULE_FIELDS, `rules[${i}]`, issues);
      if (!(RULE_IDS as readonly unknown[]).includes(r.rule_id)) issues.push(`rules[${i}].rule_id ${String(r.rule_id).slice(0, 60)} is not a rule the resolver implements`);
      else if (seen.has(r.rule_id as string)) issues.push(`rules[${i}].rule_id repeats ${String(r.rule_id)}`);
      else seen.add(r.rule_id as string);
      if (!(TREATMENTS as readonly unknown[]).includes(r.treatment)) issues.push(`rules[${i}].treatment must be one of ${TREATMENTS.join(', ')}`);
      if (!(LIABLE_PARTIES as readonly unknown[]).includes(r.liable_party)) issues.push(`rules[${i}].liable_party must be one of ${LIABLE_PARTIES.join(', ')}`);
      if (!(COLLECTION_POINTS as readonly unknown[]).includes(r.collection_point)) issues.push(`rules[${i}].collection_point must be one of ${COLLECTION_POINTS.join(', ')}`);
      if (!(PLACES as readonly unknown[]).includes(r.place_of_supply)) issues.push(`rules[${i}].place_of_supply must be one of ${PLACES.join(', ')}`);
      if (!strings(r.legal_basis, 300)) issues.push(`rules[${i}].legal_basis must list 1-300 character citations`);
      if (!strings(r.sources, 100)) issues.push(`rules[${i}].sources must list source ids`);
      else for (const s of r.sources) if (!sourceIds.has(s)) issues.push(`rules[${i}].sources names unknown source ${s.slice(0, 60)}`);
    }
  for (const id of RULE_IDS) if (!seen.has(id) && Array.isArray(doc.rules)) issues.push(`rule ${id} is missing`);
  if (issues.length) throw new TreatmentReleaseError(issues.slice(0, 100));
  return doc as unknown as TreatmentReleaseContent;
}

/** `sha256:` over the canonical JSON of the validated content and the sealed rate release. */
export function releaseDigest(content: TreatmentReleaseContent, rateReleaseDigest: string): string {
  return digestOf({ content, rate_release_digest: rateReleaseDigest });
}

/** Days after its review date a source stops supporting decisions (spec "Source review renewal"). */
const SOURCE_REVIEW_DAYS = 180;

/** The sources of a rule whose review is older than 180 days at `at` (fail closed). */
export function expiredSources(content: TreatmentReleaseContent, rule: ReleaseRule, at: Date): string[] {
  const limit = at.getTime() - SOURCE_REVIEW_DAYS * 86_400_000;
  return rule.sources.filter((id) => {
    const s = content.sources.find((x) => x.source_id === id);
    return !s || Date.parse(`${s.reviewed_at}T00:00:00Z`) < limit;
  });
}
