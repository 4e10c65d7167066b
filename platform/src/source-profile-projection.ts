import { defineEntity, p } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { SourceProfileChangedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import type { BusMessage, Subscription } from './bus';
import { decodeEvent, subjectOf } from './events';
import { freshEvents } from './inbox';
import { inTransaction } from './transaction';

/**
 * A service's own projection of the source-profile defaults (the origins an event without its own falls
 * back on), fed by calculation's `SourceProfileChanged`: the profile's newest revision wins whatever the
 * delivery order, and archived profiles keep supplying their defaults, as their events keep their source.
 * Thresholds and compliance-reports read it instead of calling calculation's `ListSources`. Calculation
 * publishes every profile once at the start after the upgrade that added the event, and a durable consumer
 * starts at the beginning of the stream, so the projection is complete after a fresh start or a restart.
 */
export function defineSourceProfileDefaultEntity() {
  return defineEntity({
    name: 'SourceProfileDefault',
    tableName: 'source_profile_default',
    properties: {
      accountId: p.bigint().primary().autoincrement(false),
      sourceKey: p.string().length(100).primary(),
      profileId: p.bigint(),
      revision: p.integer(),
      supplierEstablishmentCountry: p.string().length(2).nullable(),
      dispatchCountry: p.string().length(2).nullable(),
    },
  });
}

/** A source's defaults (an absent field: the profile names none). */
export type SourceDefaults = { supplierEstablishmentCountry?: string; dispatchCountry?: string };

type Db = Pick<pg.PoolClient, 'query'>;

/** The projection row of one `SourceProfileChanged`, and the event id its inbox records. */
const COLUMNS: [string, string][] = [
  ['message_id', 'text'],
  ['account_id', 'bigint'],
  ['source_key', 'text'],
  ['profile_id', 'bigint'],
  ['revision', 'int'],
  ['supplier_establishment_country', 'text'],
  ['dispatch_country', 'text'],
];

/**
 * One statement per batch: the inbox, then each profile's newest revision of the fresh events (a revision
 * older than the one held never wins, whatever the delivery order). Yields the rows that changed.
 */
function applySql(schema: string): string {
  const table = `"${schema}".source_profile_default`;
  return `with ${freshEvents(schema)},
  rows as (select * from json_to_recordset($3::json) as r(${COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})),
  newest as (
    select distinct on (rows.account_id, rows.source_key) rows.* from rows join fresh on fresh.event_id = rows.message_id
     order by rows.account_id, rows.source_key, rows.revision desc)
  insert into ${table} as d (account_id, source_key, profile_id, revision, supplier_establishment_country, dispatch_country)
  select account_id, source_key, profile_id, revision, supplier_establishment_country, dispatch_country from newest
  on conflict (account_id, source_key) do update set profile_id = excluded.profile_id, revision = excluded.revision,
    supplier_establishment_country = excluded.supplier_establishment_country, dispatch_country = excluded.dispatch_country
  where d.revision < excluded.revision
  returning account_id::text as account_id, source_key`;
}

/** A service's projection of source-profile defaults (in `schema`): every statement on it. */
export class SourceProfileDefaults {
  private readonly sql: string;

  constructor(private readonly pool: pg.Pool, private readonly schema: string) {
    this.sql = applySql(schema);
  }

  /**
   * Applies a batch of `SourceProfileChanged` through `db` (a transaction's client when the caller adds
   * effects). Returns, by account, the source keys whose defaults it changed.
   */
  async apply(db: Db, durable: string, batch: readonly BusMessage[]): Promise<Map<string, string[]>> {
    const decoded = batch.map((msg) => {
      const e = decodeEvent(SourceProfileChangedSchema, msg.data);
      return { id: e.eventId || msg.id, accountId: e.accountId, profile: e.profile, revision: e.revision };
    });
    const rows = decoded.flatMap(({ id, accountId, profile, revision }) =>
      profile
        ? [{ message_id: id, account_id: accountId.toString(), source_key: profile.sourceKey, profile_id: profile.id.toString(), revision, supplier_establishment_country: profile.supplierEstablishmentCountry ?? null, dispatch_country: profile.dispatchCountry ?? null }]
        : [],
    );
    const res = await db.query(this.sql, [decoded.map((d) => d.id), durable, JSON.stringify(rows)]);
    const changed = new Map<string, string[]>();
    for (const r of res.rows as { account_id: string; source_key: string }[]) changed.set(r.account_id, [...(changed.get(r.account_id) ?? []), r.source_key]);
    return changed;
  }

  /** The account's defaults by `source_key` (through `db`: inside a projection's transaction, its client). */
  async of(accountId: bigint | string, db: Db = this.pool): Promise<Map<string, SourceDefaults>> {
    const res = await db.query(`select source_key, supplier_establishment_country, dispatch_country from "${this.schema}".source_profile_default where account_id = $1`, [accountId.toString()]);
    return new Map(
      (res.rows as { source_key: string; supplier_establishment_country: string | null; dispatch_country: string | null }[]).map((r) => [
        r.source_key,
        { supplierEstablishmentCountry: r.supplier_establishment_country ?? undefined, dispatchCountry: r.dispatch_country ?? undefined },
      ]),
    );
  }
}

export const SOURCE_PROFILE_SUBJECT = subjectOf(SourceProfileChangedSchema);

/** A consumer that only keeps the projection (thresholds adds effects of its own in its consumer). */
export function sourceProfileConsumer(pool: pg.Pool, defaults: SourceProfileDefaults, durable: string): Subscription {
  return {
    durable,
    subjects: [SOURCE_PROFILE_SUBJECT],
    handler: async (batch) => {
      await inTransaction(pool, (client) => defaults.apply(client, durable, batch));
    },
  };
}
