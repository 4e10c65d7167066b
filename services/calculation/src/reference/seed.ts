import { readFileSync } from 'node:fs';
import type { MikroORM } from '@mikro-orm/postgresql';
import { digestOf } from '@vat/platform/canonical-json';
import { loadTaxClasses, loadVatRates, seedDigest, validateRateSeeds } from '@vat/seeds/vat-rates';
import { ReferenceRelease, TaxClass, VatRate } from '../entities/index';
import { importEcbFile } from './ecb-import';

export const SHIPPED_ECB_FILE = new URL('../../../../seeds/ecb/eurofxref-hist.csv', import.meta.url);

/** The digest sealed into rate evidence for one rate window. */
export function rateRowDigest(country: string, row: Record<string, unknown>): string {
  return digestOf({ country, ...row });
}

/**
 * Loads the shipped tax classes and rate windows as one release, once per content digest.
 * A new digest (an operator updated the seed files) becomes the current release; old releases and
 * the rows they pinned stay, so stored calculations keep their evidence.
 */
export async function seedVatRates(orm: MikroORM, now: Date): Promise<{ digest: string; loaded: boolean }> {
  const classes = loadTaxClasses();
  const rates = loadVatRates();
  const problems = validateRateSeeds(classes, rates);
  if (problems.length) throw new Error(`VAT rate seed data is invalid:\n- ${problems.join('\n- ')}`);
  const digest = `sha256:${seedDigest(classes, rates)}`;
  const em = orm.em.fork();
  if (await em.findOne(ReferenceRelease, { kind: 'vat_rates', digest })) return { digest, loaded: false };
  await em.transactional(async (tx) => {
    const release = tx.create(ReferenceRelease, { kind: 'vat_rates', digest, version: classes.as_of, rowCount: 0, loadedAt: now });
    await tx.flush();
    const groups = new Map(classes.groups.map((g) => [g.slug, g.name]));
    await tx.nativeDelete(TaxClass, {});
    classes.classes.forEach((c, i) =>
      tx.create(TaxClass, {
        id: c.id,
        name: c.name,
        description: c.description,
        source: c.source,
        groupSlug: c.group_slug,
        groupName: groups.get(c.group_slug) ?? c.group_slug,
        tags: c.tags,
        annexIiiPoints: c.annex_iii_points,
        sortOrder: i,
      }),
    );
    let count = 0;
    for (const file of rates) {
      const sources = new Map(file.sources.map((s) => [s.id, s]));
      for (const row of file.rates) {
        tx.create(VatRate, {
          releaseId: release.id,
          country: file.country,
          taxClassId: row.tax_class_id,
          rateBps: row.rate_bps,
          validFrom: row.valid_from,
          validTo: row.valid_to,
          rateType: row.rate_type,
          conditional: row.conditional,
          conditions: row.conditions,
          sources: row.source_ids.map((id) => {
            const s = sources.get(id)!;
            return { source_id: s.id, title: s.title, url: s.url, as_of: s.as_of };
          }),
          legalRef: row.legal_ref,
          tedbCategory: row.tedb_category,
          reviewStatus: row.review_status,
          note: row.note ?? null,
          rowDigest: rateRowDigest(file.country, row),
        });
        count++;
      }
    }
    release.rowCount = count;
  });
  return { digest, loaded: true };
}

/** Imports the shipped ECB history once (by file digest); later files come in through the admin CLI. */
export async function seedEcbRates(orm: MikroORM, databaseUrl: string): Promise<{ loaded: boolean }> {
  const text = readFileSync(SHIPPED_ECB_FILE, 'utf8');
  const { createHash } = await import('node:crypto');
  const digest = `sha256:${createHash('sha256').update(text).digest('hex')}`;
  if (await orm.em.fork().findOne(ReferenceRelease, { kind: 'ecb', digest })) return { loaded: false };
  await importEcbFile(databaseUrl, 'eurofxref-hist.csv', text);
  return { loaded: true };
}
