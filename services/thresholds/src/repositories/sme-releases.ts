/**
 * The SME threshold releases' SQL: one `sme_threshold_release` row per content digest, holding the document as
 * loaded; the newest by load time is current.
 */
import type { Queryable } from '@vat/platform/sql';

const RELEASES = '"thresholds".sme_threshold_release';

/** Stores a release unless its digest is stored already (one statement: safe when replicas seed together). */
export async function insertSmeRelease(db: Queryable, r: { digest: string; document: unknown; rowCount: number; loadedAt: Date }): Promise<void> {
  await db.query(`insert into ${RELEASES} (digest, document, row_count, loaded_at) values ($1, $2::jsonb, $3, $4) on conflict (digest) do nothing`, [
    r.digest,
    JSON.stringify(r.document),
    r.rowCount,
    r.loadedAt,
  ]);
}

/** The digest of the current release (one indexed query), undefined before the first. */
export async function currentSmeDigest(db: Queryable): Promise<string | undefined> {
  const res = await db.query<{ digest: string }>(`select digest from ${RELEASES} order by loaded_at desc limit 1`);
  return res.rows[0]?.digest;
}

/** The stored document of a release. */
export async function smeDocument(db: Queryable, digest: string): Promise<unknown> {
  const res = await db.query<{ document: unknown }>(`select document from ${RELEASES} where digest = $1`, [digest]);
  return res.rows[0]?.document;
}
