import type { EntityManager, InferEntity, MikroORM } from '@mikro-orm/postgresql';
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

/** Every database access of the source-profile aggregate (MikroORM entities, one fork per call). */
export class SourceProfileRepository {
  constructor(private readonly orm: MikroORM) {}

  list(accountId: bigint): Promise<SourceProfileRecord[]> {
    return this.orm.em.fork().find(SourceProfile, { accountId }, { orderBy: { active: 'desc', sourceKey: 'asc' } });
  }

  /**
   * Runs `work` in one transaction holding the account's profile lock, so the caps cannot be
   * raced past; entities changed by `work` are flushed on commit.
   */
  withAccountLock<T>(accountId: bigint, work: (profiles: LockedProfiles) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional(async (em) => {
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
    });
  }
}

async function lockAccount(em: EntityManager, accountId: bigint): Promise<void> {
  await em.getConnection().execute('select pg_advisory_xact_lock(hashtext(?))', [`source-profiles:${accountId}`], 'all', em.getTransactionContext());
}
