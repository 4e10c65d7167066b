import type { InferEntity } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { insertStatement, pgTimestamp, updateStatement, type Statement } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';
import type { SourceProfile } from '../entities/index';

export type SourceProfileRecord = InferEntity<typeof SourceProfile>;

/** The mutable fields of a profile; `null` clears an optional text field, `undefined` keeps it. */
export type SourceProfileChanges = {
  displayName?: string;
  channelType?: string;
  platform?: string | null;
  defaultCountry?: string | null;
  defaultCurrency?: string | null;
  supplierEstablishmentCountry?: string | null;
  dispatchCountry?: string | null;
  marketplaceDeemedSupplier?: boolean;
  active?: boolean;
};

/** What a write sees of the account's profiles while it holds the account's profile lock. */
type LockedProfiles = {
  keys(): Promise<{ sourceKey: string; active: boolean }[]>;
  activeCount(): Promise<number>;
  find(id: bigint): Promise<SourceProfileRecord | null>;
  create(values: { sourceKey: string; displayName: string; channelType: string } & SourceProfileChanges, now: Date): Promise<SourceProfileRecord>;
  update(id: bigint, changes: SourceProfileChanges, now: Date): Promise<SourceProfileRecord>;
};

/** A `source_profile` row (read by column name) as the entity's record. */
function toRecord(r: Record<string, unknown>): SourceProfileRecord {
  return {
    id: BigInt(r.id as string),
    accountId: BigInt(r.account_id as string),
    sourceKey: r.source_key as string,
    displayName: r.display_name as string,
    channelType: r.channel_type as string,
    platform: (r.platform as string | null) ?? null,
    defaultCountry: (r.default_country as string | null) ?? null,
    defaultCurrency: (r.default_currency as string | null) ?? null,
    supplierEstablishmentCountry: (r.supplier_establishment_country as string | null) ?? null,
    dispatchCountry: (r.dispatch_country as string | null) ?? null,
    marketplaceDeemedSupplier: r.marketplace_deemed_supplier as boolean,
    active: r.active as boolean,
    createdAt: pgTimestamp(r.created_at),
    updatedAt: pgTimestamp(r.updated_at),
  } as SourceProfileRecord;
}

const TABLE = '"calculation".source_profile';

/** Profile field → column: the table's one mapping of the fields a write sets. */
const COLUMNS: Record<keyof SourceProfileChanges | 'sourceKey', string> = {
  sourceKey: 'source_key',
  displayName: 'display_name',
  channelType: 'channel_type',
  platform: 'platform',
  defaultCountry: 'default_country',
  defaultCurrency: 'default_currency',
  supplierEstablishmentCountry: 'supplier_establishment_country',
  dispatchCountry: 'dispatch_country',
  marketplaceDeemedSupplier: 'marketplace_deemed_supplier',
  active: 'active',
};

/** The given fields as columns (an `undefined` field is left out). */
function columnsOf(values: SourceProfileChanges & { sourceKey?: string }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) if (value !== undefined) out[COLUMNS[field as keyof typeof COLUMNS]] = value;
  return out;
}

/** Every statement of the source-profile aggregate, through the service's one pool. */
export class SourceProfileRepository {
  constructor(private readonly pool: pg.Pool) {}

  async list(accountId: bigint): Promise<SourceProfileRecord[]> {
    const res = await this.pool.query(`select * from ${TABLE} where account_id = $1 order by active desc, source_key asc`, [accountId.toString()]);
    return res.rows.map(toRecord);
  }

  /** Runs `work` in one transaction holding the account's profile lock, so the caps cannot be raced past. */
  withAccountLock<T>(accountId: bigint, work: (profiles: LockedProfiles) => Promise<T>): Promise<T> {
    const account = accountId.toString();
    return inTransaction(this.pool, async (client) => {
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`source-profiles:${accountId}`]);
      const one = async (st: Statement) => toRecord((await client.query(`${st.text} returning *`, st.values)).rows[0]);
      return work({
        keys: async () => (await client.query(`select source_key, active from ${TABLE} where account_id = $1`, [account])).rows.map((r) => ({ sourceKey: r.source_key, active: r.active })),
        activeCount: async () => (await client.query(`select count(*)::int as n from ${TABLE} where account_id = $1 and active`, [account])).rows[0].n,
        find: async (id) => {
          const res = await client.query(`select * from ${TABLE} where account_id = $1 and id = $2`, [account, id.toString()]);
          return res.rows[0] ? toRecord(res.rows[0]) : null;
        },
        create: (v, now) =>
          one(
            insertStatement(TABLE, {
              ...columnsOf({ platform: null, defaultCountry: null, defaultCurrency: null, supplierEstablishmentCountry: null, dispatchCountry: null, marketplaceDeemedSupplier: false, active: true }),
              ...columnsOf(v),
              account_id: account,
              created_at: now,
              updated_at: now,
            }),
          ),
        update: (id, changes, now) => one(updateStatement(TABLE, { ...columnsOf(changes), updated_at: now }, { account_id: account, id: id.toString() })),
      });
    });
  }
}
