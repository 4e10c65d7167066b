import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { digestOf } from '@vat/platform/canonical-json';
import { loadTaxClasses, loadVatRates, seedDigest, seedFilesDigest, validateRateSeeds, type RateSource, type VatRateSeed } from '@vat/seeds/vat-rates';
import type { EcbDay } from './ecb-days';
import { ecbFileDigest, parseEcbFile, storeEcbFile } from './ecb-import';
import { ecbState } from '../repositories/ecb-rates';
import { rateReleaseStored, recordSeedFiles, releaseOfSeedFiles, storeRateRelease, type NewRateRelease } from '../repositories/rate-releases';

export const SHIPPED_ECB_FILE = new URL('../../../../seeds/ecb/eurofxref-hist.csv', import.meta.url);

/** The digest sealed into rate evidence for one rate window. */
export function rateRowDigest(country: string, row: Record<string, unknown>): string {
  return digestOf({ country, ...row });
}

/** A rate file's citations by id: each row names its sources, stored with it as cited. */
function citedSources(sources: readonly RateSource[]): (ids: readonly string[]) => { source_id: string; title: string; url: string; as_of: string }[] {
  const byId = new Map(sources.map((s) => [s.id, s]));
  return (ids) =>
    ids.map((id) => {
      const s = byId.get(id)!;
      return { source_id: s.id, title: s.title, url: s.url, as_of: s.as_of };
    });
}

/**
 * Loads the shipped tax classes and rate windows as one release, once per content digest.
 * A new digest (an operator updated the seed files) becomes the current release; old releases and
 * the rows they pinned stay, so stored calculations keep their evidence.
 */
export async function seedVatRates(pool: pg.Pool, now: Date, dirs: { classes?: string; rates?: string } = {}): Promise<{ digest: string; loaded: boolean }> {
  // Files loaded before (their bytes' digest recorded with the release) are neither parsed nor validated again.
  const files = `sha256:${seedFilesDigest(dirs.classes, dirs.rates)}`;
  const known = await releaseOfSeedFiles(pool, files);
  if (known) return { digest: known, loaded: false };
  const classes = loadTaxClasses(dirs.classes);
  const rates = loadVatRates(dirs.rates);
  const problems = validateRateSeeds(classes, rates);
  if (problems.length) throw new Error(`VAT rate seed data is invalid:\n- ${problems.join('\n- ')}`);
  const digest = `sha256:${seedDigest(classes, rates)}`;
  const loaded = (await rateReleaseStored(pool, digest)) ? false : await storeRateRelease(pool, releaseOf(classes, rates, digest, now));
  await recordSeedFiles(pool, files, digest);
  return { digest, loaded };
}

/** The release the parsed and validated seed files make, as it is stored. */
function releaseOf(classes: ReturnType<typeof loadTaxClasses>, rates: readonly VatRateSeed[], digest: string, now: Date): NewRateRelease {
  const groups = new Map(classes.groups.map((g) => [g.slug, g.name]));
  return {
    digest,
    version: classes.as_of,
    loadedAt: now,
    classes: classes.classes.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      source: c.source,
      groupSlug: c.group_slug,
      groupName: groups.get(c.group_slug) ?? c.group_slug,
      tags: c.tags,
      annexIiiPoints: c.annex_iii_points,
    })),
    windows: rates.flatMap((file) => {
      const sourcesOf = citedSources(file.sources);
      return file.rates.map((row) => ({
        country: file.country,
        taxClassId: row.tax_class_id,
        rateBps: row.rate_bps,
        validFrom: row.valid_from,
        validTo: row.valid_to,
        rateType: row.rate_type,
        conditional: row.conditional,
        conditions: row.conditions,
        sources: sourcesOf(row.source_ids),
        legalRef: row.legal_ref,
        tedbCategory: row.tedb_category,
        reviewStatus: row.review_status,
        note: row.note ?? null,
        rowDigest: rateRowDigest(file.country, row),
      }));
    }),
    regional: rates.flatMap((file) => {
      const sourcesOf = citedSources(file.sources);
      return (file.regional_rates ?? []).map((row) => ({
        country: file.country,
        region: row.region,
        rateBps: row.rate_bps,
        validFrom: row.valid_from,
        validTo: row.valid_to,
        rateType: row.rate_type,
        sources: sourcesOf(row.source_ids),
        legalRef: row.legal_ref,
        reviewStatus: row.review_status,
        note: row.note ?? null,
        rowDigest: rateRowDigest(file.country, row),
      }));
    }),
  };
}

/**
 * Imports the shipped ECB history once (by file digest, one query to check); later files come in through the
 * admin CLI. When nothing was stored before, the imported days are everything stored: they are returned so the
 * caller need not read them back.
 */
export async function seedEcbRates(pool: pg.Pool): Promise<{ loaded: boolean; everything?: EcbDay[] }> {
  const text = readFileSync(SHIPPED_ECB_FILE, 'utf8');
  const state = await ecbState(pool, ecbFileDigest(text));
  if (state.imported) return { loaded: false };
  const file = parseEcbFile('eurofxref-hist.csv', text);
  await storeEcbFile(pool, file);
  return { loaded: true, everything: state.imports === 0 ? file.days : undefined };
}
