import type pg from 'pg';
import { insertStatement, pgTimestamp, type Queryable } from '@vat/platform/sql';
import type { TreatmentReleaseContent } from '../domain/treatment-release';
import { latestRateRelease } from './rate-releases';

const TABLE = '"calculation".treatment_release';

export type TreatmentReleaseRecord = {
  id: bigint;
  releaseId: string;
  status: 'candidate' | 'active';
  fileSha256: string;
  digest: string;
  content: TreatmentReleaseContent;
  jurisdictions: string[];
  legalFrom: string;
  legalTo: string | null;
  rateReleaseDigest: string;
  importedBy: string;
  importedAt: Date;
  activatedBy: string | null;
  activatedAt: Date | null;
};

function record(r: Record<string, any>): TreatmentReleaseRecord {
  return {
    id: BigInt(r.id),
    releaseId: r.release_id,
    status: r.status,
    fileSha256: r.file_sha256,
    digest: r.digest,
    content: r.content,
    jurisdictions: r.jurisdictions,
    legalFrom: r.legal_from,
    legalTo: r.legal_to,
    rateReleaseDigest: r.rate_release_digest,
    importedBy: r.imported_by,
    importedAt: pgTimestamp(r.imported_at),
    activatedBy: r.activated_by,
    activatedAt: r.activated_at === null ? null : pgTimestamp(r.activated_at),
  };
}

/** Every SQL statement of the treatment-release aggregate (candidates, activation, the release in force). */
export class TreatmentReleaseRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The digest of the VAT rate release a new candidate seals (the newest stored one). */
  async currentRateReleaseDigest(db: Queryable = this.pool): Promise<string | undefined> {
    return (await latestRateRelease(db))?.digest;
  }

  async insertCandidate(db: Queryable, c: Omit<TreatmentReleaseRecord, 'id' | 'status' | 'activatedBy' | 'activatedAt'>): Promise<bigint> {
    const st = insertStatement(TABLE, {
      release_id: c.releaseId,
      status: 'candidate',
      file_sha256: c.fileSha256,
      digest: c.digest,
      content: JSON.stringify(c.content),
      jurisdictions: JSON.stringify(c.jurisdictions),
      legal_from: c.legalFrom,
      legal_to: c.legalTo,
      rate_release_digest: c.rateReleaseDigest,
      imported_by: c.importedBy,
      imported_at: c.importedAt,
    }, { content: 'jsonb', jurisdictions: 'jsonb' });
    const r = await db.query(`${st.text} returning id`, st.values);
    return BigInt(r.rows[0].id);
  }

  async byId(id: bigint, db: Queryable = this.pool, forUpdate = false): Promise<TreatmentReleaseRecord | undefined> {
    const r = await db.query(`select * from ${TABLE} where id = $1${forUpdate ? ' for update' : ''}`, [id.toString()]);
    return r.rows[0] ? record(r.rows[0]) : undefined;
  }

  async list(): Promise<TreatmentReleaseRecord[]> {
    return (await this.pool.query(`select * from ${TABLE} order by id`)).rows.map(record);
  }

  /** Seals a candidate; false when it is no longer a candidate. */
  async activate(db: Queryable, id: bigint, by: string, at: Date): Promise<boolean> {
    const r = await db.query(`update ${TABLE} set status = 'active', activated_by = $2, activated_at = $3 where id = $1 and status = 'candidate'`, [id.toString(), by, at]);
    return r.rowCount === 1;
  }

  /**
   * The release in force for a jurisdiction on a legal date: the most recently activated active release
   * whose jurisdictions and legal range cover it (activation order decides, so a new activation cuts over).
   */
  async inForce(jurisdiction: string, legalDate: string): Promise<TreatmentReleaseRecord | undefined> {
    const r = await this.pool.query(
      `select * from ${TABLE} where status = 'active' and jurisdictions ? $1 and legal_from <= $2 and (legal_to is null or $2 < legal_to)
       order by activated_at desc, id desc limit 1`,
      [jurisdiction, legalDate],
    );
    return r.rows[0] ? record(r.rows[0]) : undefined;
  }
}
