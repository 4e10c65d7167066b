/**
 * Strict loader and validator for seeds/sme-thresholds/sme-thresholds.json.
 *
 * - Unknown keys are rejected at every level (zod strict objects).
 * - Validation rules (validateSmeDocument):
 *   * every row's country is one of the 27 Member States (EL convention);
 *   * windows are well-formed (valid_to > valid_from, exclusive) and do not overlap per country;
 *   * the row currency equals the national currency on valid_from; if the national
 *     currency changes inside the row window, the row is reported as a transition-gap
 *     row (allowed: evaluation then yields `indeterminate` on the far side of the change);
 *   * thresholds are non-negative safe integers (whole units);
 *   * every row has a non-empty `note` (used to explain null thresholds and caveats);
 *   * a EUR row that stores both values must store the same number in both;
 *   * source_ids reference declared sources, source ids are unique;
 *   * every Member State has at least one row.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isCalendarDate } from '@vat/platform/http-inputs';
import { MEMBER_STATES, currenciesDuring, isMemberState, nationalCurrencyOn } from './national-currency.ts';


/** True for a real calendar date written YYYY-MM-DD (years 0001-9999). */
export function isIsoCalendarDate(value: unknown): value is string {
  return isCalendarDate(value);
}

const isoDate = z.string().refine(isIsoCalendarDate, { message: 'must be a YYYY-MM-DD calendar date' });
const wholeUnits = z.number().int().nonnegative().refine(Number.isSafeInteger, { message: 'must be a safe integer' });
const currencyCode = z.string().regex(/^[A-Z]{3}$/);

const SmeSourceSchema = z.strictObject({
  id: z.string().min(1),
  title: z.string().min(1),
  url: z.url(),
  as_of: isoDate,
});

const SmePolicySchema = z.strictObject({
  one_national_annual_threshold: z.boolean().nullable(),
  exclusion_article288_quarantine_period: z.string().min(1).nullable(),
  voluntary_cessation_article290: z.boolean().nullable(),
});

const SmeSectoralSchema = z.strictObject({
  sector: z.string().min(1).nullable(),
  exemption_threshold_eur: wholeUnits.nullable(),
  exemption_threshold_nac: wholeUnits.nullable(),
  comment: z.string().nullable(),
});

const SmeRowSchema = z.strictObject({
  country: z.string().regex(/^[A-Z]{2}$/),
  valid_from: isoDate,
  valid_to: isoDate.nullable(),
  currency: currencyCode,
  exemption_threshold_nac: wholeUnits.nullable(),
  exemption_threshold_eur: wholeUnits.nullable(),
  scheme_type: z.string().min(1),
  policy: SmePolicySchema,
  sectorals: z.array(SmeSectoralSchema),
  data_situation_on: isoDate,
  source_ids: z.array(z.string().min(1)).min(1),
  review_status: z.enum(['source_cited', 'knowledge_unverified']),
  note: z.string().min(1),
});

const SmeDocumentSchema = z.strictObject({
  schema_version: z.literal('sme-thresholds/v1'),
  sources: z.array(SmeSourceSchema).min(1),
  notes: z.string().min(1),
  rows: z.array(SmeRowSchema).min(1),
});

export type SmePolicy = z.infer<typeof SmePolicySchema>;
export type SmeThresholdRow = z.infer<typeof SmeRowSchema>;
export type SmeDocument = z.infer<typeof SmeDocumentSchema>;

interface SmeValidationReport {
  errors: string[];
  /** Rows whose window spans a national-currency change (e.g. a BGN row still open in 2026). */
  transitionGapRows: Array<{ country: string; valid_from: string; currency: string; currencies: string[] }>;
}

function rowLabel(r: SmeThresholdRow): string {
  return `${r.country} ${r.valid_from}..${r.valid_to ?? 'open'}`;
}

/** Semantic validation of a schema-valid document. Never throws. */
function validateSmeDocument(doc: SmeDocument, options: { requireAllMemberStates?: boolean } = {}): SmeValidationReport {
  const errors: string[] = [];
  const transitionGapRows: SmeValidationReport['transitionGapRows'] = [];
  const sourceIds = new Set<string>();
  for (const s of doc.sources) {
    if (sourceIds.has(s.id)) errors.push(`duplicate source id ${s.id}`);
    sourceIds.add(s.id);
  }
  const byCountry = new Map<string, SmeThresholdRow[]>();
  for (const r of doc.rows) {
    const label = rowLabel(r);
    if (!isMemberState(r.country)) errors.push(`${label}: not a Member State code in the EL convention`);
    if (r.valid_to !== null && r.valid_to <= r.valid_from) errors.push(`${label}: valid_to must be after valid_from (exclusive end)`);
    for (const id of r.source_ids) if (!sourceIds.has(id)) errors.push(`${label}: unknown source id ${id}`);
    const nat = nationalCurrencyOn(r.country, r.valid_from);
    if (nat === undefined) {
      errors.push(`${label}: no national currency known on ${r.valid_from}`);
    } else if (nat !== r.currency) {
      errors.push(`${label}: currency ${r.currency} differs from national currency ${nat} on ${r.valid_from}`);
    } else {
      const during = currenciesDuring(r.country, r.valid_from, r.valid_to);
      if (during.length > 1) transitionGapRows.push({ country: r.country, valid_from: r.valid_from, currency: r.currency, currencies: during });
    }
    if (r.currency === 'EUR' && r.exemption_threshold_nac !== null && r.exemption_threshold_eur !== null && r.exemption_threshold_nac !== r.exemption_threshold_eur) {
      errors.push(`${label}: EUR row with different national and EUR thresholds`);
    }
    const list = byCountry.get(r.country) ?? [];
    list.push(r);
    byCountry.set(r.country, list);
  }
  for (const [country, list] of byCountry) {
    const sorted = [...list].sort((a, b) => (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : 0));
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const cur = sorted[i]!;
      if (prev.valid_to === null || prev.valid_to > cur.valid_from) {
        errors.push(`${country}: overlapping windows ${rowLabel(prev)} and ${rowLabel(cur)}`);
      }
    }
  }
  if (options.requireAllMemberStates ?? true) {
    for (const ms of MEMBER_STATES) if (!byCountry.has(ms)) errors.push(`${ms}: no rows`);
  }
  return { errors, transitionGapRows };
}

type ParseSmeDocumentResult =
  | { ok: true; document: SmeDocument; report: SmeValidationReport }
  | { ok: false; errors: string[] };

/** Schema + semantic validation of raw JSON data. Never throws. */
export function parseSmeDocument(raw: unknown, options: { requireAllMemberStates?: boolean } = {}): ParseSmeDocumentResult {
  const parsed = SmeDocumentSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) };
  }
  const report = validateSmeDocument(parsed.data, options);
  if (report.errors.length > 0) return { ok: false, errors: report.errors };
  return { ok: true, document: parsed.data, report };
}

export const SME_THRESHOLDS_URL = new URL('../../../../seeds/sme-thresholds/sme-thresholds.json', import.meta.url);

let cached: SmeDocument | undefined;

/** Reads, validates and caches the seed file. Throws with all validation errors if invalid. */
export function loadSmeThresholds(url: URL = SME_THRESHOLDS_URL): SmeDocument {
  if (url === SME_THRESHOLDS_URL && cached) return cached;
  const raw: unknown = JSON.parse(readFileSync(url, 'utf8'));
  const result = parseSmeDocument(raw);
  if (!result.ok) throw new Error(`invalid SME thresholds data (${url.pathname}):\n- ${result.errors.join('\n- ')}`);
  if (url === SME_THRESHOLDS_URL) cached = result.document;
  return result.document;
}
