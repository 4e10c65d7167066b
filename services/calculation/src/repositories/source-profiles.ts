import type { EntityManager, InferEntity, MikroORM } from '@mikro-orm/postgresql';
import { transactionScope } from '@vat/platform/transaction';
import type pg from 'pg';
import { pgTimestamp } from '@vat/platform/sql';
import { Outbox, SourceProfile, SourceProfilePublication, SourceProfileRevision } from '../entities/index';
import type { OutboxEvent } from './calculations';

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

/** The `SourceProfileChanged` event of one stored revision of a profile. */
export type ProfileEventOf = (profile: SourceProfileRecord, revision: number) => OutboxEvent;

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
 * per call, under the account's profile lock), each with its `SourceProfileChanged` in the outbox; the
 * list, read on every `ListSources`, is one plain statement through the service's pool.
 */
export class SourceProfileRepository {
  constructor(
    private readonly orm: MikroORM,
    private readonly pool: pg.Pool,
    private readonly eventOf: ProfileEventOf,
  ) {}

  async list(accountId: bigint): Promise<SourceProfileRecord[]> {
    const res = await this.pool.query(`select * from "calculation".source_profile where account_id = $1 order by active desc, source_key asc`, [accountId.toString()]);
    return res.rows.map(toRecord);
  }

  /**
   * Runs `work` in one transaction holding the account's profile lock, so the caps cannot be raced
   * past; the profile it returns is stored (the database numbers its new revision) and that revision
   * written to the outbox in the same transaction.
   */
  withAccountLock(accountId: bigint, now: Date, work: (profiles: LockedProfiles) => Promise<SourceProfileRecord>): Promise<SourceProfileRecord> {
    return this.orm.em.fork().transactional((em) => transactionScope(async () => {
      await lockAccount(em, accountId);
      const profile = await work({
        keys: () => em.find(SourceProfile, { accountId }, { fields: ['sourceKey', 'active'] }),
        activeCount: () => em.count(SourceProfile, { accountId, active: true }),
        find: (id) => em.findOne(SourceProfile, { id, accountId }),
        create: (v, at) =>
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
            createdAt: at,
            updatedAt: at,
          }),
      });
      await em.flush();
      await this.publishLatest(em, profile, now);
      return profile;
    }));
  }

  /**
   * Publishes, once, every profile whose latest revision is not published yet: those stored before
   * `SourceProfileChanged` existed (or changed in the database by hand). Account by account, under the
   * account's profile lock, so a write running meanwhile is published once. Returns how many.
   */
  async publishUnpublished(now: Date): Promise<number> {
    const res = await this.pool.query(
      `select distinct p.account_id::text as account_id from "calculation".source_profile p
         left join "calculation".source_profile_publication m on m.profile_id = p.id
        where m.revision is null or m.revision < (select max(r.revision) from "calculation".source_profile_revision r where r.profile_id = p.id)`,
    );
    let published = 0;
    for (const row of res.rows as { account_id: string }[]) {
      const accountId = BigInt(row.account_id);
      published += await this.orm.em.fork().transactional((em) => transactionScope(async () => {
        await lockAccount(em, accountId);
        let n = 0;
        for (const profile of await em.find(SourceProfile, { accountId }, { orderBy: { id: 'asc' } })) if (await this.publishLatest(em, profile, now)) n++;
        return n;
      }));
    }
    return published;
  }

  /** Writes the profile's latest revision to the outbox unless it is published already; true when written. */
  private async publishLatest(em: EntityManager, profile: SourceProfileRecord, now: Date): Promise<boolean> {
    const latest = await em.findOneOrFail(SourceProfileRevision, { profileId: profile.id }, { orderBy: { revision: 'desc' }, fields: ['revision'] });
    const published = await em.findOne(SourceProfilePublication, { profileId: profile.id });
    if (published && published.revision >= latest.revision) return false;
    const event = this.eventOf(profile, latest.revision);
    em.create(Outbox, { id: event.id, subject: event.subject, payload: Buffer.from(event.payload), createdAt: now, publishedAt: null, claimedUntil: null, attempts: 0 });
    if (published) em.assign(published, { revision: latest.revision, eventId: event.id, recordedAt: now });
    else em.create(SourceProfilePublication, { profileId: profile.id, revision: latest.revision, eventId: event.id, recordedAt: now });
    await em.flush();
    return true;
  }
}

async function lockAccount(em: EntityManager, accountId: bigint): Promise<void> {
  await em.getConnection().execute('select pg_advisory_xact_lock(hashtext(?))', [`source-profiles:${accountId}`], 'all', em.getTransactionContext());
}
