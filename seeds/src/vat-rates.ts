/**
 * Reference data for EU VAT: tax classes and dated VAT rates per Member State.
 *
 * - `loadTaxClasses()` / `loadVatRates()` read and strictly parse the JSON seeds
 *   (unknown keys are rejected).
 * - `validateRateSeeds()` cross-checks the rate files against the classes and
 *   returns human-readable problems (empty array = valid).
 * - `seedDigest()` gives a sha256 over a canonical serialization so a calculation
 *   can record exactly which data release it used; `seedFilesDigest()` one over the
 *   files' bytes, so that a start recognises files it has loaded before unparsed.
 *
 * Windows are half-open: [valid_from, valid_to), valid_to null = still in force.
 * Coverage starts 2019-01-01. A class without a row for a country/date is ABSENT
 * and the calculator must fail closed; rows with `conditional: true` must not be
 * served as a plain number.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { canonicalJson } from '@vat/platform/canonical-json';
import { EU_MEMBER_STATES, type MemberState } from '@vat/platform/countries';

const COVERAGE_START = '2019-01-01';

const RATE_TYPES = ['standard', 'reduced', 'super_reduced', 'parking', 'zero', 'exempt'] as const;
export type RateType = (typeof RATE_TYPES)[number];

const REVIEW_STATUSES = ['source_cited', 'knowledge_unverified'] as const;

const DEFAULT_CLASSES_DIR = fileURLToPath(new URL('../tax-classes/', import.meta.url));
const DEFAULT_RATES_DIR = fileURLToPath(new URL('../vat-rates/', import.meta.url));

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a real calendar date');

const slug = z.string().regex(/^[a-z][a-z0-9_]*$/, 'expected lower_snake_case slug');

const TaxClassGroupSchema = z.strictObject({
  slug,
  name: z.string().min(1),
});

const TaxClassSchema = z.strictObject({
  id: slug,
  name: z.string().min(1),
  description: z.string().min(1),
  group_slug: slug,
  tags: z.array(slug),
  annex_iii_points: z.array(z.string().regex(/^\d+[a-z]?$/)),
  source: z.string().min(1),
});

const TaxClassSeedSchema = z.strictObject({
  schema_version: z.literal('tax-classes/v1'),
  source: z.string().min(1),
  as_of: isoDate,
  notes: z.string().min(1),
  groups: z.array(TaxClassGroupSchema).min(1),
  classes: z.array(TaxClassSchema).min(1),
});

const RateSourceSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  title: z.string().min(1),
  url: z.url(),
  as_of: isoDate,
  /** Date the source was read for this data (added with issue 13). */
  accessed: isoDate.optional(),
  /**
   * `false` for sources named only for their legal basis or as the general
   * reference (the TEDB root, the national VAT law) that were not fetched.
   * Such a source alone never supports `review_status: "source_cited"`.
   * Absent = the source was consulted.
   */
  consulted: z.boolean().optional(),
});

const VatRateRowSchema = z.strictObject({
  tax_class_id: slug,
  // Integer check is repeated by the validator with a friendlier message; the
  // schema accepts any number so that validateRateSeeds can report it.
  rate_bps: z.number(),
  valid_from: isoDate,
  valid_to: isoDate.nullable(),
  rate_type: z.enum(RATE_TYPES),
  conditional: z.boolean(),
  conditions: z.string().min(1).nullable(),
  source_ids: z.array(z.string().min(1)).min(1),
  legal_ref: z.string().min(1).nullable(),
  tedb_category: z.string().min(1).nullable(),
  review_status: z.enum(REVIEW_STATUSES),
  note: z.string().min(1).optional(),
});

/**
 * A rate that applies only in part of a Member State and is reported through OSS under that State
 * (Art. 105 of Directive 2006/112/EC: the Azores PT-20 and Madeira PT-30). Not per tax class: the
 * rates in force in the region, which a supply event naming the region may carry.
 */
export const RegionalRateRowSchema = z.strictObject({
  region: z.string().regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'expected an ISO 3166-2 code such as PT-30'),
  rate_bps: z.number(),
  valid_from: isoDate,
  valid_to: isoDate.nullable(),
  rate_type: z.enum(RATE_TYPES),
  source_ids: z.array(z.string().min(1)).min(1),
  legal_ref: z.string().min(1).nullable(),
  review_status: z.enum(REVIEW_STATUSES),
  note: z.string().min(1).optional(),
});

export const VatRateSeedSchema = z.strictObject({
  schema_version: z.literal('vat-rates/v1'),
  country: z.enum(EU_MEMBER_STATES),
  currency_note: z.string().min(1).optional(),
  sources: z.array(RateSourceSchema).min(1),
  rates: z.array(VatRateRowSchema),
  regional_rates: z.array(RegionalRateRowSchema).optional(),
});

export type TaxClass = z.infer<typeof TaxClassSchema>;
type TaxClassSeed = z.infer<typeof TaxClassSeedSchema>;
export type RateSource = z.infer<typeof RateSourceSchema>;
export type VatRateRow = z.infer<typeof VatRateRowSchema>;
export type VatRateSeed = z.infer<typeof VatRateSeedSchema>;
export type RegionalRateRow = z.infer<typeof RegionalRateRowSchema>;

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read seed file ${file}: ${(err as Error).message}`);
  }
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const res = schema.safeParse(value);
  if (!res.success) {
    const issues = res.error.issues
      .slice(0, 20)
      .map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('\n');
    throw new Error(`invalid seed file ${file}:\n${issues}`);
  }
  return res.data;
}

/** Load and strictly parse `tax-classes.json` from `dir` (default: seeds/tax-classes). */
export function loadTaxClasses(dir: string = DEFAULT_CLASSES_DIR): TaxClassSeed {
  const file = join(dir, 'tax-classes.json');
  return parseOrThrow(TaxClassSeedSchema, readJson(file), file);
}

/**
 * Load and strictly parse every `<CC>.json` in `dir` (default: seeds/vat-rates),
 * returned in EU_MEMBER_STATES order (files for unknown codes are rejected).
 */
export function loadVatRates(dir: string = DEFAULT_RATES_DIR): VatRateSeed[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const seeds: VatRateSeed[] = [];
  for (const f of files) {
    const file = join(dir, f);
    const seed = parseOrThrow(VatRateSeedSchema, readJson(file), file);
    if (`${seed.country}.json` !== f) {
      throw new Error(`seed file ${file} declares country ${seed.country}; file must be named ${seed.country}.json`);
    }
    seeds.push(seed);
  }
  const order = (cc: string) => EU_MEMBER_STATES.indexOf(cc as MemberState);
  return seeds.sort((a, b) => order(a.country) - order(b.country));
}

const cmpDate = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** `null` valid_to sorts after every date. */
const endKey = (d: string | null) => d ?? '9999-12-31';

/**
 * Cross-check rate seeds against the classes. Returns a list of human-readable
 * problems; an empty list means the data is consistent.
 */
export function validateRateSeeds(classes: TaxClassSeed, rates: VatRateSeed[]): string[] {
  const problems: string[] = [];
  const classIds = new Set<string>();
  const groupSlugs = new Set(classes.groups.map((g) => g.slug));

  for (const g of classes.groups) {
    if (classes.groups.filter((x) => x.slug === g.slug).length > 1) problems.push(`classes: duplicate group slug ${g.slug}`);
  }
  for (const c of classes.classes) {
    if (classIds.has(c.id)) problems.push(`classes: duplicate class id ${c.id}`);
    classIds.add(c.id);
    if (!groupSlugs.has(c.group_slug)) problems.push(`classes: class ${c.id} refers to unknown group ${c.group_slug}`);
  }
  if (!classIds.has('standard')) problems.push('classes: class "standard" is missing');

  const seen = new Set<string>();
  for (const seed of rates) {
    const cc = seed.country;
    if (seen.has(cc)) problems.push(`${cc}: more than one rate file for this country`);
    seen.add(cc);

    const sourceIds = new Set<string>();
    /** Sources that were actually consulted and have a URL (can back `source_cited`). */
    const citable = new Set<string>();
    for (const s of seed.sources) {
      if (sourceIds.has(s.id)) problems.push(`${cc}: duplicate source id ${s.id}`);
      sourceIds.add(s.id);
      if (s.consulted !== false && typeof s.url === 'string' && s.url.trim() !== '') citable.add(s.id);
    }
    const usedSources = new Set<string>();

    seed.rates.forEach((r, i) => {
      const where = `${cc} rates[${i}] (${r.tax_class_id} from ${r.valid_from})`;
      if (!classIds.has(r.tax_class_id)) problems.push(`${where}: unknown tax class id "${r.tax_class_id}"`);
      if (!Number.isInteger(r.rate_bps)) problems.push(`${where}: rate_bps ${r.rate_bps} is not an integer`);
      if (r.rate_bps < 0 || r.rate_bps > 10000) problems.push(`${where}: rate_bps ${r.rate_bps} outside 0..10000`);
      if (r.valid_to !== null && cmpDate(r.valid_to, r.valid_from) <= 0) {
        problems.push(`${where}: valid_to ${r.valid_to} <= valid_from ${r.valid_from}`);
      }
      if (cmpDate(r.valid_from, COVERAGE_START) < 0) {
        problems.push(`${where}: valid_from before coverage start ${COVERAGE_START}`);
      }
      if (!Array.isArray(r.source_ids) || r.source_ids.length === 0) {
        problems.push(`${where}: window has no source`);
      }
      if (!(REVIEW_STATUSES as readonly string[]).includes(r.review_status)) {
        problems.push(`${where}: window has no valid review_status (got ${JSON.stringify(r.review_status)})`);
      }
      if (r.review_status === 'source_cited' && !(r.source_ids ?? []).some((sid) => citable.has(sid))) {
        problems.push(`${where}: source_cited but no cited source with a URL was consulted`);
      }
      for (const sid of r.source_ids ?? []) {
        usedSources.add(sid);
        if (!sourceIds.has(sid)) problems.push(`${where}: source id "${sid}" not declared in sources`);
      }
      if (r.conditional && (r.conditions === null || r.conditions.trim() === '')) {
        problems.push(`${where}: conditional row without conditions text`);
      }
      if (!r.conditional && r.conditions !== null) {
        problems.push(`${where}: conditions text on a non-conditional row (set conditional: true or drop it)`);
      }
      if ((r.rate_type === 'zero' || r.rate_type === 'exempt') && r.rate_bps !== 0) {
        problems.push(`${where}: rate_type ${r.rate_type} must have rate_bps 0`);
      }
      if (r.rate_bps === 0 && r.rate_type !== 'zero' && r.rate_type !== 'exempt') {
        problems.push(`${where}: rate_bps 0 must be rate_type zero or exempt`);
      }
      if (r.rate_type === 'exempt' && !r.conditional) {
        problems.push(`${where}: exempt rows must be conditional (an exemption is not a 0% rate)`);
      }
      if (r.tax_class_id === 'standard') {
        if (r.rate_type !== 'standard') problems.push(`${where}: class standard must have rate_type standard`);
        if (r.conditional) problems.push(`${where}: class standard must not be conditional`);
      } else if (r.rate_type === 'standard' && r.conditional) {
        // allowed (standard rate served for a class only under conditions), nothing to do
      }
    });

    problems.push(...regionalRateProblems(seed, sourceIds, citable, usedSources));

    // Overlaps per (country, class)
    const byClass = new Map<string, VatRateRow[]>();
    for (const r of seed.rates) {
      const list = byClass.get(r.tax_class_id) ?? [];
      list.push(r);
      byClass.set(r.tax_class_id, list);
    }
    for (const [cls, list] of byClass) {
      const sorted = [...list].sort((a, b) => cmpDate(a.valid_from, b.valid_from));
      for (let i = 1; i < sorted.length; i++) {
        const prev = sorted[i - 1]!;
        const cur = sorted[i]!;
        if (cmpDate(endKey(prev.valid_to), cur.valid_from) > 0) {
          problems.push(
            `${cc}/${cls}: overlapping windows [${prev.valid_from}, ${prev.valid_to ?? 'open'}) and [${cur.valid_from}, ${cur.valid_to ?? 'open'})`,
          );
        }
      }
    }

    // Standard rate: continuous coverage from COVERAGE_START, open-ended last window.
    const std = [...(byClass.get('standard') ?? [])].sort((a, b) => cmpDate(a.valid_from, b.valid_from));
    if (std.length === 0) {
      problems.push(`${cc}: no standard rate`);
    } else {
      if (std[0]!.valid_from !== COVERAGE_START) {
        problems.push(`${cc}/standard: coverage gap from ${COVERAGE_START} to ${std[0]!.valid_from}`);
      }
      for (let i = 1; i < std.length; i++) {
        const prevEnd = std[i - 1]!.valid_to;
        if (prevEnd !== null && cmpDate(prevEnd, std[i]!.valid_from) < 0) {
          problems.push(`${cc}/standard: coverage gap from ${prevEnd} to ${std[i]!.valid_from}`);
        }
      }
      const last = std[std.length - 1]!;
      if (last.valid_to !== null) problems.push(`${cc}/standard: coverage ends at ${last.valid_to} (last window must be open)`);
    }

    for (const s of sourceIds) {
      if (!usedSources.has(s)) problems.push(`${cc}: source "${s}" is declared but not used by any row`);
    }
  }

  for (const cc of EU_MEMBER_STATES) {
    if (!seen.has(cc)) problems.push(`${cc}: no rate file for this Member State`);
  }
  return problems;
}

/** The regional windows of one country file: region of that country, sources, dates, no overlap per (region, rate). */
function regionalRateProblems(seed: VatRateSeed, sourceIds: Set<string>, citable: Set<string>, usedSources: Set<string>): string[] {
  const problems: string[] = [];
  const rows = seed.regional_rates ?? [];
  rows.forEach((r, i) => {
    const where = `${seed.country} regional_rates[${i}] (${r.region} ${r.rate_bps} from ${r.valid_from})`;
    if (!r.region.startsWith(`${seed.country}-`)) problems.push(`${where}: region is not a subdivision of ${seed.country}`);
    if (!Number.isInteger(r.rate_bps) || r.rate_bps < 0 || r.rate_bps > 10000) problems.push(`${where}: rate_bps must be an integer 0..10000`);
    if (r.valid_to !== null && cmpDate(r.valid_to, r.valid_from) <= 0) problems.push(`${where}: valid_to ${r.valid_to} <= valid_from ${r.valid_from}`);
    if (cmpDate(r.valid_from, COVERAGE_START) < 0) problems.push(`${where}: valid_from before coverage start ${COVERAGE_START}`);
    if ((r.rate_type === 'zero' || r.rate_type === 'exempt') !== (r.rate_bps === 0)) problems.push(`${where}: rate_bps 0 goes with rate_type zero or exempt, and only with them`);
    if (r.review_status === 'source_cited' && !r.source_ids.some((sid) => citable.has(sid))) problems.push(`${where}: source_cited but no cited source with a URL was consulted`);
    for (const sid of r.source_ids) {
      usedSources.add(sid);
      if (!sourceIds.has(sid)) problems.push(`${where}: source id "${sid}" not declared in sources`);
    }
    for (const o of rows.slice(0, i)) {
      if (o.region === r.region && o.rate_bps === r.rate_bps && cmpDate(endKey(o.valid_to), r.valid_from) > 0 && cmpDate(endKey(r.valid_to), o.valid_from) > 0) {
        problems.push(`${where}: overlaps another window of the same region and rate`);
      }
    }
  });
  return problems;
}

/**
 * What {@link loadTaxClasses} and {@link loadVatRates} make of the same bytes; part of {@link seedFilesDigest}.
 * Bump it with any change of theirs that could turn unchanged files into another release (a default, a transform).
 */
const SEED_PARSE_VERSION = 1;

/**
 * SHA-256 over the bytes of the files {@link loadTaxClasses} and {@link loadVatRates} read (each file's name,
 * length and bytes, in name order) and {@link SEED_PARSE_VERSION}: the same files give the same digest without
 * being parsed or validated (a restart reads 600 KB and hashes it instead of parsing, validating and
 * canonicalising them).
 */
export function seedFilesDigest(classesDir: string = DEFAULT_CLASSES_DIR, ratesDir: string = DEFAULT_RATES_DIR): string {
  const h = createHash('sha256');
  h.update(`vat-rate-seeds-v${SEED_PARSE_VERSION}\0`);
  const add = (name: string, file: string) => {
    const bytes = readFileSync(file);
    h.update(`${name}\0${bytes.length}\0`);
    h.update(bytes);
  };
  add('tax-classes.json', join(classesDir, 'tax-classes.json'));
  for (const f of readdirSync(ratesDir).filter((f) => f.endsWith('.json')).sort()) add(`vat-rates/${f}`, join(ratesDir, f));
  return h.digest('hex');
}

/**
 * sha256 (hex) over the canonical serialization of the classes file followed by
 * every rate file in EU_MEMBER_STATES order. Defaults to the shipped seeds.
 */
export function seedDigest(
  classes: TaxClassSeed = loadTaxClasses(),
  rates: VatRateSeed[] = loadVatRates(),
): string {
  const order = (cc: string) => EU_MEMBER_STATES.indexOf(cc as MemberState);
  const sorted = [...rates].sort((a, b) => order(a.country) - order(b.country));
  const h = createHash('sha256');
  h.update(canonicalJson(classes));
  for (const seed of sorted) {
    h.update('\n');
    h.update(canonicalJson(seed));
  }
  return h.digest('hex');
}

