import type pg from 'pg';
import { VatNumberCheckedSchema } from '@vat/gen/vat/compliance_reports/v1/events_pb';
import { buildEvent } from '@vat/platform/events';
import { writeOutbox } from '@vat/platform/outbox';
import { insertStatement, pgTimestamp } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';

/** A stored VIES check as the handlers see it. */
export type VatNumberCheckRecord = {
  id: bigint;
  accountId: bigint;
  vatNumberDigest: string;
  vatNumberMasked: string;
  vatNumberEncrypted: Buffer;
  memberState: string;
  result: 'valid' | 'invalid' | 'format_invalid' | 'unavailable';
  reason: string | null;
  checkedAt: Date;
  viesRequestDate: string | null;
  consultationNumber: string | null;
  name: string | null;
  address: string | null;
  requesterVatNumberMasked: string | null;
  memberStateAvailability: string;
  attempts: number;
};

export type NewVatNumberCheck = Omit<VatNumberCheckRecord, 'id'>;

const TABLE = '"compliance_reports".vat_number_check';
const EVENTS = '"compliance_reports".vat_number_check_event';
/** Checks announced per statement when the ones stored before the event existed are announced. */
const ANNOUNCE_BATCH = 500;

type Db = Pick<pg.PoolClient, 'query'>;

/**
 * Writes the `VatNumberChecked` event of each check not announced before (the marker row and the outbox row in
 * the caller's transaction): the digest, result and time only. Answers how many were announced.
 */
async function announce(db: Db, checks: readonly VatNumberCheckRecord[], now: Date): Promise<number> {
  if (checks.length === 0) return 0;
  const events = new Map(checks.map((c) => [c.id, buildEvent(VatNumberCheckedSchema, { accountId: c.accountId, checkId: c.id, vatNumberDigest: c.vatNumberDigest, result: c.result, checkedAt: c.checkedAt.toISOString() })]));
  const res = await db.query(
    `insert into ${EVENTS} (check_id, event_id) select * from unnest($1::bigint[], $2::uuid[]) on conflict do nothing returning check_id::text as check_id`,
    [[...events.keys()].map(String), [...events.values()].map((e) => e.id)],
  );
  await writeOutbox(db, 'compliance_reports', res.rows.map((r: { check_id: string }) => events.get(BigInt(r.check_id))!), now);
  return res.rowCount ?? 0;
}

/** Record field → column: the table's one mapping. */
const COLUMNS: Record<keyof NewVatNumberCheck, string> = {
  accountId: 'account_id',
  vatNumberDigest: 'vat_number_digest',
  vatNumberMasked: 'vat_number_masked',
  vatNumberEncrypted: 'vat_number_encrypted',
  memberState: 'member_state',
  result: 'result',
  reason: 'reason',
  checkedAt: 'checked_at',
  viesRequestDate: 'vies_request_date',
  consultationNumber: 'consultation_number',
  name: 'name',
  address: 'address',
  requesterVatNumberMasked: 'requester_vat_number_masked',
  memberStateAvailability: 'member_state_availability',
  attempts: 'attempts',
};

function toRecord(r: Record<string, any>): VatNumberCheckRecord {
  const out: Record<string, unknown> = { id: BigInt(r.id) };
  for (const [field, column] of Object.entries(COLUMNS)) out[field] = r[column];
  out.accountId = BigInt(r.account_id);
  out.checkedAt = pgTimestamp(r.checked_at);
  return out as VatNumberCheckRecord;
}

/** Every statement of the VAT-number evidence, through the service's one pool. Rows are never changed. */
export class VatNumberCheckRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Stores a check and, in the same transaction, its `VatNumberChecked` event (the relay publishes it). */
  async insert(values: NewVatNumberCheck): Promise<VatNumberCheckRecord> {
    const row: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS)) row[column] = field === 'accountId' ? values.accountId.toString() : values[field as keyof NewVatNumberCheck];
    const st = insertStatement(TABLE, row);
    return inTransaction(this.pool, async (client) => {
      const stored = toRecord((await client.query(`${st.text} returning *`, st.values)).rows[0]);
      await announce(client, [stored], values.checkedAt);
      return stored;
    });
  }

  /**
   * Announces the checks stored before `VatNumberChecked` existed, a batch per transaction, once: the
   * marker row is the claim, so replicas starting together announce each check once. Answers how many.
   */
  async announceBacklog(now: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await inTransaction(this.pool, async (client) => {
        const res = await client.query(
          `select c.* from ${TABLE} c where not exists (select 1 from ${EVENTS} e where e.check_id = c.id) order by c.id limit ${ANNOUNCE_BATCH}`,
        );
        return { seen: res.rowCount ?? 0, announced: await announce(client, res.rows.map(toRecord), now) };
      });
      total += n.announced;
      if (n.seen < ANNOUNCE_BATCH) return total;
    }
  }

  /** The newest valid or invalid answer about the number since `since`, for reuse. */
  async latestDefinitive(accountId: bigint, digest: string, since: Date): Promise<VatNumberCheckRecord | undefined> {
    const res = await this.pool.query(
      `select * from ${TABLE} where account_id = $1 and vat_number_digest = $2 and result in ('valid', 'invalid') and checked_at >= $3 order by checked_at desc, id desc limit 1`,
      [accountId.toString(), digest, since],
    );
    return res.rows[0] ? toRecord(res.rows[0]) : undefined;
  }

  /**
   * The answer that stands for each number at a tax point: the newest check made from `from` up to
   * (not including) `until`, a definitive answer preferred over a later `unavailable` one.
   */
  async evidenceFor(accountId: bigint, digests: string[], from: Date, until: Date): Promise<Map<string, VatNumberCheckRecord>> {
    if (digests.length === 0) return new Map();
    const res = await this.pool.query(
      `select distinct on (vat_number_digest) * from ${TABLE}
        where account_id = $1 and vat_number_digest = any($2::text[]) and checked_at >= $3 and checked_at < $4 and result <> 'format_invalid'
        order by vat_number_digest, (result in ('valid', 'invalid')) desc, checked_at desc, id desc`,
      [accountId.toString(), digests, from, until],
    );
    return new Map(res.rows.map((r) => [r.vat_number_digest as string, toRecord(r)]));
  }

  /** The account's checks, newest first, keyset-paged by id. */
  async list(accountId: bigint, opts: { beforeId?: bigint; limit: number }): Promise<{ rows: VatNumberCheckRecord[]; more: boolean }> {
    const params: unknown[] = [accountId.toString(), opts.limit + 1];
    let where = 'account_id = $1';
    if (opts.beforeId !== undefined) {
      params.push(opts.beforeId.toString());
      where += ` and id < $${params.length}`;
    }
    const res = await this.pool.query(`select * from ${TABLE} where ${where} order by id desc limit $2`, params);
    const rows = res.rows.map(toRecord);
    return { rows: rows.slice(0, opts.limit), more: rows.length > opts.limit };
  }
}
