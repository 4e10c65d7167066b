import type pg from 'pg';
import { insertRows, type Queryable } from '@vat/platform/sql';
import { pgTimestamp } from '@vat/platform/sql';
import type { Scheme } from '../domain/codes';
import type { CatalogRow } from '../domain/catalog-file';

const EDITION = '"classification".catalog_edition';
const CODE = '"classification".catalog_code';

/** A catalog revision without its raw bytes. */
export type EditionRecord = {
  id: bigint;
  scheme: Scheme;
  version: string;
  revision: number;
  status: 'under_review' | 'approved';
  legalFrom: string;
  legalTo: string | null;
  legalAct: string;
  sourceUrl: string;
  fileName: string;
  fileSha256: string;
  layout: string;
  codesDigest: string;
  digest: string;
  rowCount: number;
  levelCounts: Record<string, number>;
  diff: Record<string, unknown>;
  baseEditionId: bigint | null;
  importedBy: string;
  retrievedAt: Date;
  approvedBy: string | null;
  approvedAt: Date | null;
};

type NewEdition = Omit<EditionRecord, 'id' | 'status' | 'approvedBy' | 'approvedAt'> & { rawFile: Uint8Array };

type CodeRecord = Omit<CatalogRow, 'position'>;

const EDITION_COLUMNS = `id, scheme, version, revision, status, legal_from::text as legal_from, legal_to::text as legal_to, legal_act, source_url, file_name, file_sha256,
  layout, codes_digest, digest, row_count, level_counts, diff, base_edition_id, imported_by, retrieved_at, approved_by, approved_at`;

function edition(r: Record<string, any>): EditionRecord {
  return {
    id: BigInt(r.id),
    scheme: r.scheme,
    version: r.version,
    revision: r.revision,
    status: r.status,
    legalFrom: r.legal_from,
    legalTo: r.legal_to,
    legalAct: r.legal_act,
    sourceUrl: r.source_url,
    fileName: r.file_name,
    fileSha256: r.file_sha256,
    layout: r.layout,
    codesDigest: r.codes_digest,
    digest: r.digest,
    rowCount: r.row_count,
    levelCounts: r.level_counts,
    diff: r.diff,
    baseEditionId: r.base_edition_id === null ? null : BigInt(r.base_edition_id),
    importedBy: r.imported_by,
    retrievedAt: pgTimestamp(r.retrieved_at),
    approvedBy: r.approved_by,
    approvedAt: r.approved_at === null ? null : pgTimestamp(r.approved_at),
  };
}

function code(r: Record<string, any>): CodeRecord {
  return {
    code: r.code,
    displayCode: r.display_code,
    level: r.level,
    parentCode: r.parent_code,
    selfText: r.self_text,
    legalText: r.legal_text,
    includes: r.includes,
    excludes: r.excludes,
    conceptId: r.concept_id,
  };
}

/** Every statement on catalog editions and their codes. */
export class CatalogRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Inside an import's transaction: one import at a time numbers and stores its revision (readers are not blocked). */
  async lockForImport(db: Queryable): Promise<void> {
    await db.query(`lock table ${EDITION} in share row exclusive mode`);
  }

  async nextRevision(db: Queryable, scheme: Scheme, version: string): Promise<number> {
    const r = await db.query(`select coalesce(max(revision), 0) + 1 as next from ${EDITION} where scheme = $1 and version = $2`, [scheme, version]);
    return Number(r.rows[0].next);
  }

  /** Inserts a candidate and its codes (multi-row statements); returns its id. */
  async insertCandidate(db: Queryable, e: NewEdition, rows: readonly CatalogRow[]): Promise<bigint> {
    const r = await db.query(
      `insert into ${EDITION} (scheme, version, revision, status, legal_from, legal_to, legal_act, source_url, file_name, file_sha256, raw_file, layout, codes_digest, digest, row_count, level_counts, diff, base_edition_id, imported_by, retrieved_at)
       values ($1, $2, $3, 'under_review', $4::date, $5::date, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16::jsonb, $17, $18, $19) returning id`,
      [e.scheme, e.version, e.revision, e.legalFrom, e.legalTo, e.legalAct, e.sourceUrl, e.fileName, e.fileSha256, Buffer.from(e.rawFile), e.layout, e.codesDigest, e.digest, e.rowCount, JSON.stringify(e.levelCounts), JSON.stringify(e.diff), e.baseEditionId?.toString() ?? null, e.importedBy, e.retrievedAt],
    );
    const id = BigInt(r.rows[0].id);
    await insertRows(
      db,
      CODE,
      { edition_id: 'bigint', code: 'text', display_code: 'text', level: 'text', parent_code: 'text', self_text: 'text', legal_text: 'text', includes: 'text', excludes: 'text', concept_id: 'text', position: 'int' },
      rows.map((row) => ({ edition_id: id.toString(), code: row.code, display_code: row.displayCode, level: row.level, parent_code: row.parentCode, self_text: row.selfText, legal_text: row.legalText, includes: row.includes, excludes: row.excludes, concept_id: row.conceptId, position: row.position })),
    );
    return id;
  }

  async byId(id: bigint, db: Queryable = this.pool): Promise<EditionRecord | undefined> {
    const r = await db.query(`select ${EDITION_COLUMNS} from ${EDITION} where id = $1`, [id.toString()]);
    return r.rows[0] ? edition(r.rows[0]) : undefined;
  }

  async rawFile(id: bigint, db: Queryable = this.pool): Promise<Buffer> {
    const r = await db.query(`select raw_file from ${EDITION} where id = $1`, [id.toString()]);
    return r.rows[0].raw_file as Buffer;
  }

  async list(scheme?: Scheme): Promise<EditionRecord[]> {
    const r = await this.pool.query(`select ${EDITION_COLUMNS} from ${EDITION} where ($1::text is null or scheme = $1) order by scheme, version, revision`, [scheme ?? null]);
    return r.rows.map(edition);
  }

  /** The newest approved revision of each approved edition of the scheme, newest legal start first. */
  async approvedEditions(scheme: Scheme, db: Queryable = this.pool): Promise<EditionRecord[]> {
    const r = await db.query(
      `select * from (select distinct on (version) ${EDITION_COLUMNS} from ${EDITION} where scheme = $1 and status = 'approved' order by version, revision desc) e order by legal_from desc, version desc`,
      [scheme],
    );
    return r.rows.map(edition);
  }

  /** The served (newest approved) revision of one edition. */
  async servedRevision(scheme: Scheme, version: string, db: Queryable = this.pool): Promise<EditionRecord | undefined> {
    const r = await db.query(`select ${EDITION_COLUMNS} from ${EDITION} where scheme = $1 and version = $2 and status = 'approved' order by revision desc limit 1`, [scheme, version]);
    return r.rows[0] ? edition(r.rows[0]) : undefined;
  }

  async code(editionId: bigint, normalized: string, db: Queryable = this.pool): Promise<CodeRecord | undefined> {
    const r = await db.query(`select * from ${CODE} where edition_id = $1 and code = $2`, [editionId.toString(), normalized]);
    return r.rows[0] ? code(r.rows[0]) : undefined;
  }

  /** The code and its ancestors in the edition, nearest first (one recursive statement). */
  async lineage(editionId: bigint, normalized: string): Promise<CodeRecord[]> {
    const r = await this.pool.query(
      `with recursive up as (
         select c.*, 0 as depth from ${CODE} c where c.edition_id = $1 and c.code = $2
         union all
         select p.*, up.depth + 1 from ${CODE} p join up on p.edition_id = up.edition_id and p.code = up.parent_code
       ) select * from up order by depth`,
      [editionId.toString(), normalized],
    );
    return r.rows.map(code);
  }

  /** Every code of an edition in file order. */
  async codes(editionId: bigint, db: Queryable = this.pool): Promise<CodeRecord[]> {
    const r = await db.query(`select * from ${CODE} where edition_id = $1 order by position`, [editionId.toString()]);
    return r.rows.map(code);
  }

  /** Seals a candidate; false when it was no longer under review. */
  async approve(db: Queryable, id: bigint, by: string, at: Date): Promise<boolean> {
    const r = await db.query(`update ${EDITION} set status = 'approved', approved_by = $2, approved_at = $3 where id = $1 and status = 'under_review'`, [id.toString(), by, at]);
    return r.rowCount === 1;
  }
}
