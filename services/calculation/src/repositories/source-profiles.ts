import type { InferEntity } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { insertStatement, pgTimestamp, updateStatement, type Statement } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';
import { preparedStatement } from '@vat/platform/prepared';
import { writeOutbox, type OutboxEvent } from '@vat/platform/outbox';
import { KeyedReadCache, type ChangeFeed } from '@vat/platform/change-listener';
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

const TABLE = '"calculation".source_profile';
const LIST_SQL = `select id, account_id, source_key, display_name, channel_type, platform, default_country, default_currency,
  supplier_establishment_country, dispatch_country, marketplace_deemed_supplier, active, created_at, updated_at
  from ${TABLE} where account_id = $1 order by active desc, source_key asc`;

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

/**
 * Every statement of the source-profile aggregate, through the service's one pool: each write, under the
 * account's profile lock, stores the profile (the database numbers its new revision) and writes that
 * revision's `SourceProfileChanged` to the outbox in the same transaction.
 */
export class SourceProfileRepository {
  /** Each account's list as last read, served while the feed is live (docs/calculation.md, "Source profiles"). */
  private readonly cache: KeyedReadCache<readonly SourceProfileRecord[]>;
  private readonly feed: ChangeFeed | undefined;

  /**
   * `feedOf`: how this process learns of changes committed by any process (platform/src/change-listener.ts),
   * given the cache it must keep right; without one nothing is cached.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly eventOf: ProfileEventOf,
    feedOf?: (cache: { changed(key: string): void; reset(): void }) => ChangeFeed,
  ) {
    this.cache = new KeyedReadCache(() => this.feed?.live() === true);
    this.feed = feedOf?.(this.cache);
  }

  /** Starts listening for changes (the cache serves once the feed is live). */
  startCache(): void {
    this.feed?.start();
  }

  async stopCache(): Promise<void> {
    await this.feed?.stop();
  }

  /** The account's profiles, active first then by key. The records are shared with the cache: read, never change them. */
  list(accountId: bigint): Promise<readonly SourceProfileRecord[]> {
    return this.cache.read(accountId.toString(), () => this.read(accountId));
  }

  private async read(accountId: bigint): Promise<readonly SourceProfileRecord[]> {
    // A named statement (every authenticated GET /v1/sources that misses the cache runs it); its columns are listed,
    // so a column added by a later migration cannot change the result type of a statement already prepared on a connection.
    const res = await this.pool.query(preparedStatement(this.pool, 'source_profile_list_v1', LIST_SQL, [accountId.toString()]));
    return Object.freeze(res.rows.map((r) => Object.freeze(toRecord(r))));
  }

  /**
   * Runs `work` in one transaction holding the account's profile lock, so the caps cannot be raced past;
   * the profile it returns (created or updated through `profiles`) is published in the same transaction.
   */
  withAccountLock(accountId: bigint, now: Date, work: (profiles: LockedProfiles) => Promise<SourceProfileRecord>): Promise<SourceProfileRecord> {
    const account = accountId.toString();
    const written = inTransaction(this.pool, async (client) => {
      await lockAccount(client, accountId);
      const one = async (st: Statement) => toRecord((await client.query(`${st.text} returning *`, st.values)).rows[0]);
      const profile = await work({
        keys: async () => (await client.query(`select source_key, active from ${TABLE} where account_id = $1`, [account])).rows.map((r) => ({ sourceKey: r.source_key, active: r.active })),
        activeCount: async () => (await client.query(`select count(*)::int as n from ${TABLE} where account_id = $1 and active`, [account])).rows[0].n,
        find: async (id) => {
          const res = await client.query(`select * from ${TABLE} where account_id = $1 and id = $2`, [account, id.toString()]);
          return res.rows[0] ? toRecord(res.rows[0]) : null;
        },
        create: (v, at) =>
          one(
            insertStatement(TABLE, {
              ...columnsOf({ platform: null, defaultCountry: null, defaultCurrency: null, supplierEstablishmentCountry: null, dispatchCountry: null, marketplaceDeemedSupplier: false, active: true }),
              ...columnsOf(v),
              account_id: account,
              created_at: at,
              updated_at: at,
            }),
          ),
        update: (id, changes, at) => one(updateStatement(TABLE, { ...columnsOf(changes), updated_at: at }, { account_id: account, id: id.toString() })),
      });
      await this.publishLatest(client, profile, now);
      // Every other process forgets the account's list when this commits (nothing is sent on a rollback).
      const notify = this.feed?.notify(account);
      if (notify) await client.query(notify);
      return profile;
    });
    // This process forgets it once the transaction is over, committed or not: a read that raced the commit
    // stores nothing (KeyedReadCache), one that ran before it is dropped here.
    return written.finally(() => this.cache.changed(account));
  }

  /**
   * Publishes, once, every profile whose latest revision is not published yet: those stored before
   * `SourceProfileChanged` existed (or changed in the database by hand). Account by account, under the
   * account's profile lock, so a write running meanwhile is published once. Returns how many.
   */
  async publishUnpublished(now: Date): Promise<number> {
    const res = await this.pool.query(
      `select distinct p.account_id::text as account_id from ${TABLE} p
         left join ${PUBLICATION} m on m.profile_id = p.id
        where m.revision is null or m.revision < (select max(r.revision) from ${REVISION} r where r.profile_id = p.id)`,
    );
    let published = 0;
    for (const row of res.rows as { account_id: string }[]) {
      published += await inTransaction(this.pool, async (client) => {
        await lockAccount(client, BigInt(row.account_id));
        let n = 0;
        const profiles = await client.query(`select * from ${TABLE} where account_id = $1 order by id`, [row.account_id]);
        for (const profile of profiles.rows.map(toRecord)) if (await this.publishLatest(client, profile, now)) n++;
        return n;
      });
    }
    return published;
  }

  /**
   * Writes every profile's latest revision to the outbox again through `client` (a transaction's), whether
   * published or not, for a projection added after they were published. Returns how many.
   */
  async republishAll(client: pg.PoolClient, now: Date): Promise<number> {
    const res = await client.query(
      `select p.*, (select max(r.revision) from ${REVISION} r where r.profile_id = p.id) as latest_revision from ${TABLE} p order by p.account_id, p.id`,
    );
    await writeOutbox(client, 'calculation', res.rows.map((r) => this.eventOf(toRecord(r), Number(r.latest_revision))), now);
    return res.rows.length;
  }

  /** Writes the profile's latest revision to the outbox unless it is published already; true when written. */
  private async publishLatest(client: pg.PoolClient, profile: SourceProfileRecord, now: Date): Promise<boolean> {
    const id = profile.id.toString();
    const latest = (await client.query(`select max(revision) as revision from ${REVISION} where profile_id = $1`, [id])).rows[0]?.revision as number | null;
    if (latest === null || latest === undefined) throw new Error(`source profile ${id} has no stored revision`);
    const published = (await client.query(`select revision from ${PUBLICATION} where profile_id = $1`, [id])).rows[0] as { revision: number } | undefined;
    if (published && published.revision >= latest) return false;
    const event = this.eventOf(profile, latest);
    await writeOutbox(client, 'calculation', [event], now);
    await client.query(
      `insert into ${PUBLICATION} (profile_id, revision, event_id, recorded_at) values ($1, $2, $3, $4)
       on conflict (profile_id) do update set revision = excluded.revision, event_id = excluded.event_id, recorded_at = excluded.recorded_at`,
      [id, latest, event.id, now],
    );
    return true;
  }
}

const PUBLICATION = '"calculation".source_profile_publication';
const REVISION = '"calculation".source_profile_revision';

async function lockAccount(client: pg.PoolClient, accountId: bigint): Promise<void> {
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [`source-profiles:${accountId}`]);
}
