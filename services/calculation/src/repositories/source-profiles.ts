import type { EntityManager, InferEntity, MikroORM } from '@mikro-orm/postgresql';
import { transactionScope } from '@vat/platform/transaction';
import type pg from 'pg';
import { pgTimestamp } from '@vat/platform/sql';
import { SourceProfile } from '../entities/index';

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
export type LockedProfiles = {
  keys(): Promise<{ sourceKey: string; active: boolean }[]>;
  activeCount(): Promise<number>;
  find(id: bigint): Promise<SourceProfileRecord | null>;
  create(values: { sourceKey: string; displayName: string; channelType: string } & SourceProfileChanges, now: Date): SourceProfileRecord;
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

/**
 * Every database access of the source-profile aggregate: writes through MikroORM entities (one fork
 * per call, under the account's profile lock); the list, read on every `GET /v1/sources`, is one
 * plain statement through the service's pool.
 */
export class SourceProfileRepository {
  constructor(
    private readonly orm: MikroORM,
    private readonly pool: pg.Pool,
  ) {}

  async list(accountId: bigint): Promise<SourceProfileRecord[]> {
    const res = await this.pool.query(`select * from "calculation".source_profile where account_id = $1 order by active desc, source_key asc`, [accountId.toString()]);
    return res.rows.map(toRecord);
  }

  /**
   * Runs `work` in one transaction holding the account's profile lock, so the caps cannot be
   * raced past; entities changed by `work` are flushed on commit.
   */
  withAccountLock<T>(accountId: bigint, work: (profiles: LockedProfiles) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional((em) => transactionScope(async () => {
      await lockAccount(em, accountId);
      return work({
        keys: () => em.find(SourceProfile, { accountId }, { fields: ['sourceKey', 'active'] }),
        activeCount: () => em.count(SourceProfile, { accountId, active: true }),
        find: (id) => em.findOne(SourceProfile, { id, accountId }),
        create: (v, now) =>
          em.create(SourceProfile, {
            accountId,
            sourceKey: v.sourceKey,
            displayName: v.displayName,
            channelType: v.channelType,
            platform: v.platform ?? null,
            defaultCountry: v.defaultCountry ?? null,
            defaultCurrency: v.defaultCurrency ?? null,
            supplierEstablishmentCountry: v.supplierEstablishmentCountry ?? null,
            dispatchCountry: v.dispatchCountry ?? null,
            marketplaceDeemedSupplier: v.marketplaceDeemedSupplier ?? false,
            active: v.active ?? true,
            createdAt: now,
            updatedAt: now,
          }),
      });
    }));
  }
}

async function lockAccount(em: EntityManager, accountId: bigint): Promise<void> {
  await em.getConnection().execute('select pg_advisory_xact_lock(hashtext(?))', [`source-profiles:${accountId}`], 'all', em.getTransactionContext());
}
