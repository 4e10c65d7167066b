/**
 * The VAT rate release aggregate's SQL, all of it: releases (`reference_release` rows of kind `vat_rates`), the
 * tax classes and the dated rate windows of each release. Everything runs through the service's one pool; rows
 * are mapped by column name.
 */
import type pg from 'pg';
import { insertRows, type Queryable } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';
import type { RateSource } from '../entities/index';

export type RateWindow = {
  id: bigint;
  country: string;
  taxClassId: string;
  rateBps: number;
  validFrom: string;
  validTo: string | null;
  rateType: string;
  conditional: boolean;
  conditions: string | null;
  sources: RateSource[];
  legalRef: string | null;
  tedbCategory: string | null;
  reviewStatus: string;
  note: string | null;
  rowDigest: string;
};

export type TaxClassRecord = {
  id: string;
  name: string;
  description: string;
  source: string;
  groupSlug: string;
  groupName: string;
  tags: string[];
  annexIiiPoints: string[];
};

export type RateRelease = { id: bigint; digest: string; version: string; approvedAt: Date | null; approvedBy: string | null };

/** A rate in force only in one region of a Member State (ISO 3166-2), whatever the class. */
export type RegionalRateWindow = {
  country: string;
  region: string;
  rateBps: number;
  validFrom: string;
  validTo: string | null;
  rateType: string;
  sources: RateSource[];
  legalRef: string | null;
  reviewStatus: string;
  note: string | null;
  rowDigest: string;
};

const RELEASES = '"calculation".reference_release';
const CLASSES = '"calculation".tax_class';
const WINDOWS = '"calculation".vat_rate';
const REGIONAL = '"calculation".regional_vat_rate';
const SEED_FILES = '"calculation".rate_release_seed_files';

/** `approved_at` travels as ISO 8601 text: the service pool's type parsers leave timestamps as strings. */
type ReleaseRow = { id: string; digest: string; version: string; approved_at: string | null; approved_by: string | null };

const releaseOf = (r: ReleaseRow): RateRelease => ({
  id: BigInt(r.id),
  digest: r.digest,
  version: r.version,
  approvedAt: r.approved_at === null ? null : new Date(r.approved_at),
  approvedBy: r.approved_by,
});

/** The newest loaded release, or undefined before the first seed. */
export async function latestRateRelease(db: Queryable): Promise<RateRelease | undefined> {
  const res = await db.query<ReleaseRow>(
    `select id::text as id, digest, version, to_char(approved_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as approved_at, approved_by
     from ${RELEASES} r where kind = 'vat_rates' order by r.id desc limit 1`,
  );
  return res.rows[0] && releaseOf(res.rows[0]);
}

/** The digest of the stored release the seed files with `filesDigest` were loaded as, if any. */
export async function releaseOfSeedFiles(db: Queryable, filesDigest: string): Promise<string | undefined> {
  const res = await db.query<{ digest: string }>(
    `select f.release_digest as digest from ${SEED_FILES} f join ${RELEASES} r on r.kind = 'vat_rates' and r.digest = f.release_digest where f.files_digest = $1`,
    [filesDigest],
  );
  return res.rows[0]?.digest;
}

/** Records that the seed files with `filesDigest` are the stored release `releaseDigest` (once; replicas race harmlessly). */
export async function recordSeedFiles(db: Queryable, filesDigest: string, releaseDigest: string): Promise<void> {
  await db.query(`insert into ${SEED_FILES} (files_digest, release_digest, recorded_at) values ($1, $2, now()) on conflict (files_digest) do nothing`, [filesDigest, releaseDigest]);
}

/** True when the release with this content digest is loaded. */
export async function rateReleaseStored(db: Queryable, digest: string): Promise<boolean> {
  const res = await db.query(`select 1 from ${RELEASES} where kind = 'vat_rates' and digest = $1`, [digest]);
  return res.rowCount === 1;
}

/** The tax classes in their published order. */
export async function storedTaxClasses(db: Queryable): Promise<TaxClassRecord[]> {
  const res = await db.query<{ id: string; name: string; description: string; source: string; group_slug: string; group_name: string; tags: string[]; annex_iii_points: string[] }>(
    `select id, name, description, source, group_slug, group_name, tags, annex_iii_points from ${CLASSES} order by sort_order`,
  );
  return res.rows.map((r) => ({ id: r.id, name: r.name, description: r.description, source: r.source, groupSlug: r.group_slug, groupName: r.group_name, tags: r.tags, annexIiiPoints: r.annex_iii_points }));
}

/** The columns of a rate window that rate evidence seals, as stored. */
export type RateWindowColumns = {
  country: string;
  tax_class_id: string;
  rate_bps: number;
  valid_from: string;
  valid_to: string | null;
  rate_type: string;
  conditional: boolean;
  review_status: string;
  legal_ref: string | null;
  tedb_category: string | null;
};

/** A window's sealed columns, by column name. */
export function windowColumns(w: Omit<RateWindow, 'id'>): RateWindowColumns {
  return {
    country: w.country,
    tax_class_id: w.taxClassId,
    rate_bps: w.rateBps,
    valid_from: w.validFrom,
    valid_to: w.validTo,
    rate_type: w.rateType,
    conditional: w.conditional,
    review_status: w.reviewStatus,
    legal_ref: w.legalRef,
    tedb_category: w.tedbCategory,
  };
}

type WindowRow = RateWindowColumns & { id: string; conditions: string | null; sources: RateWindow['sources']; note: string | null; row_digest: string };

/** Every rate window of one release. */
export async function rateWindowsOf(db: Queryable, releaseId: bigint): Promise<RateWindow[]> {
  const res = await db.query<WindowRow>(
    `select id::text as id, country, tax_class_id, rate_bps, valid_from, valid_to, rate_type, conditional, conditions, sources,
            legal_ref, tedb_category, review_status, note, row_digest
     from ${WINDOWS} where release_id = $1`,
    [releaseId.toString()],
  );
  return res.rows.map((r) => ({
    id: BigInt(r.id),
    country: r.country,
    taxClassId: r.tax_class_id,
    rateBps: r.rate_bps,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    rateType: r.rate_type,
    conditional: r.conditional,
    conditions: r.conditions,
    sources: r.sources,
    legalRef: r.legal_ref,
    tedbCategory: r.tedb_category,
    reviewStatus: r.review_status,
    note: r.note,
    rowDigest: r.row_digest,
  }));
}

/** Every regional rate window of one release. */
export async function regionalRateWindowsOf(db: Queryable, releaseId: bigint): Promise<RegionalRateWindow[]> {
  const res = await db.query<{ country: string; region: string; rate_bps: number; valid_from: string; valid_to: string | null; rate_type: string; sources: RegionalRateWindow['sources']; legal_ref: string | null; review_status: string; note: string | null; row_digest: string }>(
    `select country, region, rate_bps, valid_from, valid_to, rate_type, sources, legal_ref, review_status, note, row_digest from ${REGIONAL} where release_id = $1 order by id`,
    [releaseId.toString()],
  );
  return res.rows.map((r) => ({ country: r.country, region: r.region, rateBps: r.rate_bps, validFrom: r.valid_from, validTo: r.valid_to, rateType: r.rate_type, sources: r.sources, legalRef: r.legal_ref, reviewStatus: r.review_status, note: r.note, rowDigest: r.row_digest }));
}

/** A release to store: its content digest, version, classes (in order), windows and regional windows. */
export type NewRateRelease = { digest: string; version: string; loadedAt: Date; classes: TaxClassRecord[]; windows: Omit<RateWindow, 'id'>[]; regional?: RegionalRateWindow[] };

const CLASS_COLUMNS = { id: 'varchar', name: 'varchar', description: 'text', source: 'text', group_slug: 'varchar', group_name: 'varchar', tags: 'jsonb', annex_iii_points: 'jsonb', sort_order: 'int' };
const REGIONAL_COLUMNS = {
  release_id: 'bigint',
  country: 'varchar',
  region: 'varchar',
  rate_bps: 'int',
  valid_from: 'varchar',
  valid_to: 'varchar',
  rate_type: 'varchar',
  sources: 'jsonb',
  legal_ref: 'text',
  review_status: 'varchar',
  note: 'text',
  row_digest: 'varchar',
};
const WINDOW_COLUMNS = {
  release_id: 'bigint',
  country: 'varchar',
  tax_class_id: 'varchar',
  rate_bps: 'int',
  valid_from: 'varchar',
  valid_to: 'varchar',
  rate_type: 'varchar',
  conditional: 'boolean',
  conditions: 'text',
  sources: 'jsonb',
  legal_ref: 'text',
  tedb_category: 'text',
  review_status: 'varchar',
  note: 'text',
  row_digest: 'varchar',
};

/**
 * Stores a release in one transaction with a few multi-row statements; the classes table is replaced by the
 * release's classes. False when a concurrent start stored the same digest first.
 */
export async function storeRateRelease(pool: pg.Pool, release: NewRateRelease): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const res = await client.query<{ id: string }>(
      `insert into ${RELEASES} (kind, digest, version, row_count, loaded_at) values ('vat_rates', $1, $2, $3, $4)
       on conflict (kind, digest) do nothing returning id::text as id`,
      [release.digest, release.version, release.windows.length, release.loadedAt],
    );
    const id = res.rows[0]?.id;
    if (id === undefined) return false; // nothing was written
    await client.query(`delete from ${CLASSES}`);
    const classes = release.classes.map((c, i) => ({ id: c.id, name: c.name, description: c.description, source: c.source, group_slug: c.groupSlug, group_name: c.groupName, tags: c.tags, annex_iii_points: c.annexIiiPoints, sort_order: i }));
    await insertRows(client, CLASSES, CLASS_COLUMNS, classes);
    const windows = release.windows.map((w) => ({ release_id: id, ...windowColumns(w), conditions: w.conditions, sources: w.sources, note: w.note, row_digest: w.rowDigest }));
    await insertRows(client, WINDOWS, WINDOW_COLUMNS, windows);
    const regional = (release.regional ?? []).map((w) => ({
      release_id: id,
      country: w.country,
      region: w.region,
      rate_bps: w.rateBps,
      valid_from: w.validFrom,
      valid_to: w.validTo,
      rate_type: w.rateType,
      sources: w.sources,
      legal_ref: w.legalRef,
      review_status: w.reviewStatus,
      note: w.note,
      row_digest: w.rowDigest,
    }));
    if (regional.length) await insertRows(client, REGIONAL, REGIONAL_COLUMNS, regional);
    return true;
  });
}

/** Records a reviewer's approval of the newest release (a first approval stays); returns the release, if any. */
export async function approveLatestRateRelease(db: Queryable, reviewer: string, now: Date): Promise<RateRelease | undefined> {
  await db.query(
    `update ${RELEASES} set approved_at = $1, approved_by = $2
     where id = (select max(id) from ${RELEASES} where kind = 'vat_rates') and approved_at is null`,
    [now, reviewer],
  );
  return latestRateRelease(db);
}
