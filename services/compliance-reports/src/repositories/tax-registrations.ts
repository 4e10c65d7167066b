import type { InferEntity } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { insertStatement, pgTimestamp, updateStatement } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';
import type { TaxRegistration } from '../entities/index';

export type RegistrationRecord = InferEntity<typeof TaxRegistration>;

/** A new row as the handlers build it: identifiers arrive already masked and encrypted. */
type NewRegistration = {
  schemeType: string;
  memberStateIdentification: string;
  vatRegistrationNumberMasked: string | null;
  vatRegistrationNumberEncrypted: Buffer | null;
  iossIntermediaryName: string | null;
  iossIntermediaryNumberMasked: string | null;
  iossIntermediaryNumberEncrypted: Buffer | null;
  effectiveFrom: string;
  effectiveTo: string | null;
  status: string;
};

/** What an update may change; `undefined` keeps a field. */
type RegistrationChanges = Partial<Omit<NewRegistration, 'schemeType'>>;

/** What a write sees of the account's rows of one scheme while it holds that scheme's lock. */
type LockedScheme = {
  /** Every row of the scheme (all statuses), read after the lock was taken. */
  rows(): Promise<RegistrationRecord[]>;
  create(values: NewRegistration, now: Date): Promise<RegistrationRecord>;
  update(id: bigint, changes: RegistrationChanges, now: Date): Promise<RegistrationRecord>;
};

const TABLE = '"compliance_reports".tax_registration';
const ORDER = 'order by effective_from desc, id desc';

/** Record field → column: the table's one mapping. */
const COLUMNS: Record<keyof NewRegistration, string> = {
  schemeType: 'scheme_type',
  memberStateIdentification: 'member_state_identification',
  vatRegistrationNumberMasked: 'vat_registration_number_masked',
  vatRegistrationNumberEncrypted: 'vat_registration_number_encrypted',
  iossIntermediaryName: 'ioss_intermediary_name',
  iossIntermediaryNumberMasked: 'ioss_intermediary_number_masked',
  iossIntermediaryNumberEncrypted: 'ioss_intermediary_number_encrypted',
  effectiveFrom: 'effective_from',
  effectiveTo: 'effective_to',
  status: 'status',
};

/** The given fields as columns (an `undefined` field is left out). */
function columnsOf(values: RegistrationChanges | NewRegistration): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) if (value !== undefined) out[COLUMNS[field as keyof NewRegistration]] = value;
  return out;
}

function toRecord(r: Record<string, any>): RegistrationRecord {
  return {
    id: BigInt(r.id),
    accountId: BigInt(r.account_id),
    schemeType: r.scheme_type,
    memberStateIdentification: r.member_state_identification,
    vatRegistrationNumberMasked: r.vat_registration_number_masked,
    vatRegistrationNumberEncrypted: r.vat_registration_number_encrypted,
    iossIntermediaryName: r.ioss_intermediary_name,
    iossIntermediaryNumberMasked: r.ioss_intermediary_number_masked,
    iossIntermediaryNumberEncrypted: r.ioss_intermediary_number_encrypted,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    status: r.status,
    createdAt: pgTimestamp(r.created_at),
    updatedAt: pgTimestamp(r.updated_at),
  } as RegistrationRecord;
}

/** Every statement of the tax-registration aggregate, through the service's one pool. */
export class TaxRegistrationRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The account's rows, most recent effective window first. */
  async list(accountId: bigint): Promise<RegistrationRecord[]> {
    const res = await this.pool.query(`select * from ${TABLE} where account_id = $1 ${ORDER}`, [accountId.toString()]);
    return res.rows.map(toRecord);
  }

  /**
   * Accounts with a Union OSS or IOSS registration that covers return periods (`active` or `ended`), in id
   * order after `afterId`, at most `limit`: the overdue check's pages.
   */
  async accountsWithReturns(afterId: bigint | undefined, limit: number): Promise<bigint[]> {
    const res = await this.pool.query(
      `select a.account_id::text as account_id from (
         select distinct account_id from ${TABLE}
          where scheme_type in ('union_oss', 'ioss') and status in ('active', 'ended') and ($1::bigint is null or account_id > $1)) a
        order by a.account_id limit $2`,
      [afterId?.toString() ?? null, limit],
    );
    return res.rows.map((r: { account_id: string }) => BigInt(r.account_id));
  }

  /** The scheme of one of the account's rows (immutable, so safe to read before locking), or undefined. */
  async schemeOf(accountId: bigint, id: bigint): Promise<string | undefined> {
    const res = await this.pool.query(`select scheme_type from ${TABLE} where account_id = $1 and id = $2`, [accountId.toString(), id.toString()]);
    return res.rows[0]?.scheme_type;
  }

  /**
   * Runs `work` in one transaction holding the lock of (account, scheme), so two writes that
   * would overlap cannot both pass the overlap check.
   */
  withSchemeLock<T>(accountId: bigint, schemeType: string, work: (scheme: LockedScheme) => Promise<T>): Promise<T> {
    const account = accountId.toString();
    return inTransaction(this.pool, async (client) => {
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`tax-registrations:${accountId}:${schemeType}`]);
      return work({
        rows: async () => (await client.query(`select * from ${TABLE} where account_id = $1 and scheme_type = $2 ${ORDER}`, [account, schemeType])).rows.map(toRecord),
        create: async (values, now) => {
          const st = insertStatement(TABLE, { account_id: account, ...columnsOf(values), created_at: now, updated_at: now });
          return toRecord((await client.query(`${st.text} returning *`, st.values)).rows[0]);
        },
        update: async (id, changes, now) => {
          const st = updateStatement(TABLE, { ...columnsOf(changes), updated_at: now }, { account_id: account, id: id.toString() });
          return toRecord((await client.query(`${st.text} returning *`, st.values)).rows[0]);
        },
      });
    });
  }
}
