import type pg from 'pg';
import { insertStatement, pgTimestamp } from '@vat/platform/sql';

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

  async insert(values: NewVatNumberCheck): Promise<VatNumberCheckRecord> {
    const row: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS)) row[column] = field === 'accountId' ? values.accountId.toString() : values[field as keyof NewVatNumberCheck];
    const st = insertStatement(TABLE, row);
    return toRecord((await this.pool.query(`${st.text} returning *`, st.values)).rows[0]);
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
