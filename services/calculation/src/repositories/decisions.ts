import type pg from 'pg';
import { isRowId } from '@vat/platform/http-inputs';
import { insertStatement, pgTimestamp, type Statement } from '@vat/platform/sql';

const TABLE = '"calculation".governed_decision';
const PROFILES = '"calculation".source_profile';
const REVISIONS = '"calculation".source_profile_revision';

/** A stored v2 decision: the answer as it was given (status, HTTP status, error) and its idempotency identity. */
export type DecisionRecord = {
  id: string;
  accountId: bigint;
  apiKeyId: bigint;
  idempotencyKey: string;
  requestDigest: string;
  canonicalRequest: Record<string, unknown>;
  status: string;
  httpStatus: number;
  errorCode: string;
  detail: string;
  decision: Record<string, unknown>;
  supersedesDecisionId: string | null;
  createdAt: Date;
};

/** The revision of a profile in force now, as a decision seals it. */
export type ProfileRevision = { profileId: string; sourceKey: string; active: boolean; revisionId: string; revision: number; digest: string };

function record(r: Record<string, any>): DecisionRecord {
  return {
    id: r.id,
    accountId: BigInt(r.account_id),
    apiKeyId: BigInt(r.api_key_id),
    idempotencyKey: r.idempotency_key,
    requestDigest: r.request_digest,
    canonicalRequest: r.canonical_request,
    status: r.status,
    httpStatus: r.http_status,
    errorCode: r.error_code,
    detail: r.detail,
    decision: r.decision,
    supersedesDecisionId: r.supersedes_decision_id,
    createdAt: pgTimestamp(r.created_at),
  };
}

/** Every SQL statement of the decision aggregate, and the profile-revision read a decision seals. */
export class DecisionRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Stores the decision unless the key was used already (then undefined: read the winner, nothing is written),
   * in one statement. `alongside(guard, offset)` adds CTEs that write what belongs to a stored decision (its
   * calculation record) only when the CTE `guard` inserted it: all or nothing without a transaction.
   */
  async insertOnce(d: DecisionRecord, alongside?: (guard: string, offset: number) => Statement): Promise<DecisionRecord | undefined> {
    const st = insertStatement(
      TABLE,
      {
        id: d.id,
        account_id: d.accountId.toString(),
        api_key_id: d.apiKeyId.toString(),
        idempotency_key: d.idempotencyKey,
        request_digest: d.requestDigest,
        canonical_request: JSON.stringify(d.canonicalRequest),
        status: d.status,
        http_status: d.httpStatus,
        error_code: d.errorCode,
        detail: d.detail,
        decision: JSON.stringify(d.decision),
        supersedes_decision_id: d.supersedesDecisionId,
        created_at: d.createdAt,
      },
      { canonical_request: 'jsonb', decision: 'jsonb' },
    );
    const extra = alongside?.('decision', st.values.length);
    const text = `with decision as (${st.text} on conflict (account_id, idempotency_key) do nothing returning *)${extra ? `, ${extra.text}` : ''} select * from decision`;
    const r = await this.pool.query(text, [...st.values, ...(extra?.values ?? [])]);
    return r.rows[0] ? record(r.rows[0]) : undefined;
  }

  async byIdempotencyKey(accountId: bigint, key: string): Promise<DecisionRecord | undefined> {
    const r = await this.pool.query(`select * from ${TABLE} where account_id = $1 and idempotency_key = $2`, [accountId.toString(), key]);
    return r.rows[0] ? record(r.rows[0]) : undefined;
  }

  /** The account's decision with this id; another account's id is simply absent. */
  /**
   * The account's decisions newest first (storage order), `limit` of them after the decision `beforeId`
   * (undefined when that id is not one of the account's: the cursor is then invalid).
   */
  async page(accountId: bigint, limit: number, status: string | undefined, beforeId?: string): Promise<{ rows: DecisionRecord[]; more: boolean } | undefined> {
    let before: string | null = null;
    if (beforeId !== undefined) {
      const at = await this.pool.query(`select seq from ${TABLE} where account_id = $1 and id = $2`, [accountId.toString(), beforeId]);
      if (!at.rows[0]) return undefined;
      before = String(at.rows[0].seq);
    }
    const res = await this.pool.query(
      `select * from ${TABLE} where account_id = $1 and ($2::bigint is null or seq < $2::bigint) and ($3::text is null or status = $3::text) order by seq desc limit $4`,
      [accountId.toString(), before, status ?? null, limit + 1],
    );
    const rows = res.rows.map(record);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  async owned(accountId: bigint, id: string): Promise<DecisionRecord | undefined> {
    const r = await this.pool.query(`select * from ${TABLE} where account_id = $1 and id = $2`, [accountId.toString(), id]);
    return r.rows[0] ? record(r.rows[0]) : undefined;
  }

  /**
   * The account's profiles that `selector` names (by numeric id or by source_key), each with its newest
   * revision. More than one row means the selector is ambiguous.
   */
  async profilesNamed(accountId: bigint, selector: string): Promise<ProfileRevision[]> {
    const byId = isRowId(selector) ? selector : null;
    const r = await this.pool.query(
      `select p.id, p.source_key, p.active, v.id as revision_id, v.revision, v.digest
         from ${PROFILES} p
         join lateral (select id, revision, digest from ${REVISIONS} where profile_id = p.id order by revision desc limit 1) v on true
        where p.account_id = $1 and (p.source_key = $2 or p.id = $3::bigint)
        order by p.id`,
      [accountId.toString(), selector, byId],
    );
    return r.rows.map((row) => ({ profileId: String(row.id), sourceKey: row.source_key, active: row.active, revisionId: String(row.revision_id), revision: row.revision, digest: row.digest }));
  }
}
