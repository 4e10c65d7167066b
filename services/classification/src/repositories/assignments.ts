import type pg from 'pg';
import { insertRowsStatement, type Queryable } from '@vat/platform/sql';
import { pgTimestamp } from '@vat/platform/sql';
import { buildEvent } from '@vat/platform/events';
import { uuidv7 } from '@vat/platform/uuid7';
import { ProductReprocessingRequestedSchema } from '@vat/gen/vat/classification/v1/events_pb';

const REVISION = '"classification".assignment_revision';
const JOB = '"classification".reprocess_job';
const OUTBOX = '"classification".outbox';

type AssignmentState = 'submitted' | 'validated' | 'archived';

export type RevisionRecord = {
  id: string;
  assignmentId: string;
  revision: number;
  accountId: bigint;
  integrationId: bigint;
  productReference: string;
  variantReference: string | null;
  state: AssignmentState;
  scheme: string;
  exactCode: string;
  displayCode: string;
  validFrom: string;
  validTo: string | null;
  validToSource: 'request' | 'catalog_edition_end' | 'open';
  catalogVersion: string;
  catalogEditionId: bigint;
  catalogDigest: string;
  requestDigest: string;
  backdated: boolean;
  attestation: { statement: string; attested_by: string } | null;
  impactReview: string | null;
  apiKeyId: bigint;
  createdAt: Date;
};

/** Record field → column and parameter type; the one mapping of the table. */
const COLUMNS: [keyof RevisionRecord, string, string][] = [
  ['id', 'id', 'uuid'],
  ['assignmentId', 'assignment_id', 'uuid'],
  ['revision', 'revision', 'int'],
  ['accountId', 'account_id', 'bigint'],
  ['integrationId', 'integration_id', 'bigint'],
  ['productReference', 'product_reference', 'text'],
  ['variantReference', 'variant_reference', 'text'],
  ['state', 'state', 'text'],
  ['scheme', 'scheme', 'text'],
  ['exactCode', 'exact_code', 'text'],
  ['displayCode', 'display_code', 'text'],
  ['validFrom', 'valid_from', 'date'],
  ['validTo', 'valid_to', 'date'],
  ['validToSource', 'valid_to_source', 'text'],
  ['catalogVersion', 'catalog_version', 'text'],
  ['catalogEditionId', 'catalog_edition_id', 'bigint'],
  ['catalogDigest', 'catalog_digest', 'text'],
  ['requestDigest', 'request_digest', 'text'],
  ['backdated', 'backdated', 'boolean'],
  ['attestation', 'attestation', 'jsonb'],
  ['impactReview', 'impact_review', 'text'],
  ['apiKeyId', 'api_key_id', 'bigint'],
  ['createdAt', 'created_at', 'timestamptz'],
];

const SELECT = COLUMNS.map(([, c, t]) => (t === 'date' ? `${c}::text as ${c}` : c)).join(', ');

function record(r: Record<string, any>): RevisionRecord {
  const out: Record<string, unknown> = {};
  for (const [field, column, type] of COLUMNS) {
    const v = r[column];
    out[field] = v === null ? null : type === 'bigint' ? BigInt(v) : type === 'timestamptz' ? pgTimestamp(v) : v;
  }
  return out as RevisionRecord;
}

/** Every statement on assignment revisions and the reprocessing jobs they enqueue. */
export class AssignmentRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Serializes an account's assignment writes for the caller's transaction (limit and head checks). */
  async lockAccount(db: Queryable, accountId: bigint): Promise<void> {
    await db.query(`select pg_advisory_xact_lock(hashtextextended('classification.assignments:' || $1::text, 0))`, [accountId.toString()]);
  }

  async revisionCount(db: Queryable, accountId: bigint): Promise<number> {
    const r = await db.query(`select count(*)::int as n from ${REVISION} where account_id = $1`, [accountId.toString()]);
    return r.rows[0].n;
  }

  /** The head of the assignment for one product (and variant) of an integration. */
  async headForProduct(db: Queryable, accountId: bigint, integrationId: bigint, product: string, variant: string | null): Promise<RevisionRecord | undefined> {
    const r = await db.query(
      `select ${SELECT} from ${REVISION} where account_id = $1 and integration_id = $2 and product_reference = $3 and variant_reference is not distinct from $4 order by revision desc limit 1`,
      [accountId.toString(), integrationId.toString(), product, variant],
    );
    return r.rows[0] ? record(r.rows[0]) : undefined;
  }

  /** Every revision of an assignment of the account and integration, oldest first (empty when not theirs). */
  async revisions(accountId: bigint, integrationId: bigint, assignmentId: string, db: Queryable = this.pool): Promise<RevisionRecord[]> {
    const r = await db.query(`select ${SELECT} from ${REVISION} where assignment_id = $1 and account_id = $2 and integration_id = $3 order by revision`, [assignmentId, accountId.toString(), integrationId.toString()]);
    return r.rows.map(record);
  }

  async insert(db: Queryable, rev: RevisionRecord): Promise<void> {
    const types = Object.fromEntries(COLUMNS.map(([, c, t]) => [c, t]));
    const row = Object.fromEntries(COLUMNS.map(([f, c]) => [c, rev[f] === null ? null : typeof rev[f] === 'bigint' ? rev[f].toString() : rev[f]]));
    const { text, values } = insertRowsStatement(REVISION, types, [row]);
    await db.query(text, values);
  }

  /** Heads of an integration's assignments in id order (keyset after `after`), optionally filtered. */
  async heads(accountId: bigint, integrationId: bigint, f: { product?: string; state?: string; after?: string; limit: number }): Promise<RevisionRecord[]> {
    const r = await this.pool.query(
      `select * from (
         select distinct on (assignment_id) ${SELECT} from ${REVISION}
          where account_id = $1 and integration_id = $2 and ($3::text is null or product_reference = $3) and ($5::uuid is null or assignment_id > $5::uuid)
          order by assignment_id, revision desc
       ) h where ($4::text is null or state = $4) order by assignment_id limit $6`,
      [accountId.toString(), integrationId.toString(), f.product ?? null, f.state ?? null, f.after ?? null, f.limit],
    );
    return r.rows.map(record);
  }

  /**
   * Enqueues one pending reprocessing job per product (an existing pending job absorbs the request) and,
   * for each new job, its `ProductReprocessingRequested` event in the outbox, in the caller's transaction.
   */
  async enqueueReprocessing(db: Queryable, jobs: readonly { accountId: bigint; integrationId: bigint; productReference: string }[], reason: string, at: Date): Promise<number> {
    if (jobs.length === 0) return 0;
    const { text, values } = insertRowsStatement(
      JOB,
      { account_id: 'bigint', integration_id: 'bigint', product_reference: 'text', reason: 'text', status: 'text', attempts: 'int', enqueued_at: 'timestamptz', updated_at: 'timestamptz' },
      jobs.map((j) => ({ account_id: j.accountId.toString(), integration_id: j.integrationId.toString(), product_reference: j.productReference, reason, status: 'pending', attempts: 0, enqueued_at: at, updated_at: at })),
      `on conflict (account_id, integration_id, product_reference) where status = 'pending' do nothing returning id, account_id, integration_id, product_reference`,
    );
    const created = (await db.query(text, values)).rows;
    if (created.length === 0) return 0;
    const events = created.map((row) =>
      buildEvent(ProductReprocessingRequestedSchema, { eventId: uuidv7(at.getTime()), jobId: BigInt(row.id), accountId: BigInt(row.account_id), integrationId: BigInt(row.integration_id), productReference: row.product_reference, reason }),
    );
    const outbox = insertRowsStatement(OUTBOX, { id: 'uuid', subject: 'text', payload: 'bytea', created_at: 'timestamptz' }, events.map((e) => ({ id: e.id, subject: e.subject, payload: Buffer.from(e.payload), created_at: at })));
    await db.query(outbox.text, outbox.values);
    return created.length;
  }

  /** Claims a job for the worker (a redelivered job that is not done yet is claimed again); undefined when done. */
  async claimJob(id: bigint, at: Date): Promise<{ accountId: bigint; integrationId: bigint; productReference: string } | undefined> {
    const r = await this.pool.query(`update ${JOB} set status = 'running', attempts = attempts + 1, updated_at = $2 where id = $1 and status <> 'done' returning account_id, integration_id, product_reference`, [id.toString(), at]);
    const row = r.rows[0];
    return row ? { accountId: BigInt(row.account_id), integrationId: BigInt(row.integration_id), productReference: row.product_reference } : undefined;
  }

  async finishJob(id: bigint, at: Date, outcome: Record<string, number>): Promise<void> {
    await this.pool.query(`update ${JOB} set status = 'done', updated_at = $2, outcome = $3::jsonb where id = $1`, [id.toString(), at, JSON.stringify(outcome)]);
  }

  /** The current head of every assignment (every variant) of one product of an integration. */
  async productHeads(accountId: bigint, integrationId: bigint, product: string): Promise<RevisionRecord[]> {
    const r = await this.pool.query(
      `select distinct on (assignment_id) ${SELECT} from ${REVISION} where account_id = $1 and integration_id = $2 and product_reference = $3 order by assignment_id, revision desc`,
      [accountId.toString(), integrationId.toString(), product],
    );
    return r.rows.map(record);
  }

  /** Products of every current (not archived) assignment head, for reprocessing after a manifest is published. */
  async activeProducts(db: Queryable): Promise<{ accountId: bigint; integrationId: bigint; productReference: string }[]> {
    const r = await db.query(
      `select distinct account_id, integration_id, product_reference from (
         select distinct on (assignment_id) account_id, integration_id, product_reference, state from ${REVISION} order by assignment_id, revision desc
       ) h where state <> 'archived'`,
    );
    return r.rows.map((row) => ({ accountId: BigInt(row.account_id), integrationId: BigInt(row.integration_id), productReference: row.product_reference }));
  }
}
