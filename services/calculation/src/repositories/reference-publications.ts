/**
 * What calculation publishes for the other services' projections, and the record of it
 * (`reference_publication`): the current VAT rate release (`RateReleasePublished`), the ECB days of each
 * import (`ExchangeRatesPublished`), and, once, every calculation and source profile stored before a
 * projection of them existed (`CalculationRecorded`, `SourceProfileChanged` again). Each goes to the outbox
 * in the transaction that records it, so what is recorded is published and nothing is published twice by
 * one replica (two replicas starting together may both publish: the projections are idempotent).
 */
import type pg from 'pg';
import { payloadAt, payloadParams, writeOutbox, type OutboxEvent } from '@vat/platform/outbox';
import { inTransaction } from '@vat/platform/transaction';
import type { EcbDay } from '../reference/ecb-days';
import { exchangeRatesPublishedEvents, rateReleasePublishedEvent, type ReleaseContent } from '../events';
import { CALCULATION_SELECT } from './calculations';

const PUBLICATION = '"calculation".reference_publication';
const RELEASES = '"calculation".reference_release';
const DAYS = '"calculation".ecb_rate_day';
const CALCULATIONS = '"calculation".calculation';
/** Calculations per outbox write when stored calculations are published again. */
const REPUBLISH_BATCH = 1000;

/** ECB imports whose days are not recorded as published yet (an upgrade from before their publication). */
const UNPUBLISHED_ECB = `from ${RELEASES} r where r.kind = 'ecb' and not exists (select 1 from ${PUBLICATION} p where p.kind = 'ecb' and p.release_id = r.id)`;

/** The kinds of `reference_publication` rows; `calculations` and `source_profiles` are one-off replays (release id = generation). */
type Kind = 'vat_rates' | 'ecb' | 'calculations' | 'source_profiles';
/** The generation of the one-off replays: raise it to publish every calculation or profile once more. */
const REPLAY_GENERATION = 1n;

type Db = Pick<pg.PoolClient, 'query'>;

async function lockPublications(client: Db): Promise<void> {
  await client.query(`select pg_advisory_xact_lock(hashtext('calculation.reference_publication'))`);
}

async function recorded(db: Db, kind: Kind, id: bigint): Promise<boolean> {
  return (await db.query(`select 1 from ${PUBLICATION} where kind = $1 and release_id = $2`, [kind, id.toString()])).rowCount === 1;
}

async function record(db: Db, kind: Kind, ids: readonly (bigint | string)[], now: Date): Promise<void> {
  await db.query(`insert into ${PUBLICATION} (kind, release_id, published_at) select $1, unnest($2::bigint[]), $3 on conflict do nothing`, [kind, ids.map(String), now]);
}

/**
 * The publication order of ECB days (`ExchangeRatesPublished.import_id`): the clock in milliseconds. Imports
 * are serialized by their table lock, so a later import publishes with a larger number, and a replay of the
 * stored days is newer than every import it repeats.
 */
const publicationOrder = (now: Date) => BigInt(now.getTime());

async function publishEcbDays(client: Db, days: readonly EcbDay[], imports: readonly (bigint | string)[], now: Date): Promise<void> {
  // Every stored day (the caller read them all in this transaction).
  await writeOutbox(client, 'calculation', exchangeRatesPublishedEvents(publicationOrder(now), days, days.length), now);
  await record(client, 'ecb', imports, now);
}

/**
 * Inside an ECB import's transaction, in one statement: the import's release row and, when the file is new,
 * its changed days (as stored) in the outbox and the import recorded as published.
 */
export async function recordEcbImport(client: Db, release: { digest: string; version: string; rowCount: number }, changed: readonly EcbDay[], now: Date): Promise<void> {
  // The days held with this import's written (its transaction holds the table lock imports take).
  const held = await client.query<{ n: number }>(`select count(*)::int as n from ${DAYS}`);
  const events = exchangeRatesPublishedEvents(publicationOrder(now), changed, held.rows[0]!.n);
  const payloads = payloadParams(events);
  await client.query(
    `with r as (
       insert into ${RELEASES} (kind, digest, version, row_count, loaded_at) values ('ecb', $1, $2, $3, now()) on conflict (kind, digest) do nothing returning id),
     p as (insert into ${PUBLICATION} (kind, release_id, published_at) select 'ecb', id, $7 from r)
     insert into "calculation".outbox (id, subject, payload, created_at, attempts)
     select e.id, e.subject, ${payloadAt('$6', 'e.start', 'e.len')}, $7, 0 from unnest($4::uuid[], $5::text[], $8::int[], $9::int[]) as e(id, subject, start, len) where exists (select 1 from r)`,
    [release.digest, release.version, release.rowCount, events.map((e) => e.id), events.map((e) => e.subject), payloads.bytes, now, payloads.starts, payloads.lengths],
  );
}

export class ReferencePublications {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Whether every publication a start makes is recorded already (the release, every ECB import, both one-off
   * replays): one read instead of four transactions on every restart. Records are never removed, so a yes stays
   * true; a no (or a race with another replica) goes the way of the four, each under the publications' lock.
   */
  async allRecorded(releaseId: bigint): Promise<boolean> {
    const res = await this.pool.query<{ done: boolean }>(
      `select exists (select 1 from ${PUBLICATION} where kind = 'vat_rates' and release_id = $1)
          and not exists (select 1 ${UNPUBLISHED_ECB})
          and exists (select 1 from ${PUBLICATION} where kind = 'calculations' and release_id = $2)
          and exists (select 1 from ${PUBLICATION} where kind = 'source_profiles' and release_id = $2) as done`,
      [releaseId.toString(), REPLAY_GENERATION.toString()],
    );
    return res.rows[0]?.done === true;
  }

  /** Publishes the release unless it is published already; true when it was now. */
  async publishRateRelease(release: ReleaseContent, now: Date): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await lockPublications(client);
      if (await recorded(client, 'vat_rates', release.releaseId)) return false;
      await writeOutbox(client, 'calculation', [rateReleasePublishedEvent(release)], now);
      await record(client, 'vat_rates', [release.releaseId], now);
      return true;
    });
  }

  /**
   * ECB imports stored before their days were published (an upgrade): every stored day is published once
   * (newer than every import it repeats), and every import is recorded. Returns how many days.
   */
  async publishUnpublishedEcb(now: Date): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await lockPublications(client);
      const res = await client.query<{ id: string }>(`select r.id::text as id ${UNPUBLISHED_ECB} order by r.id`);
      if (!res.rows.length) return 0;
      const days = await client.query<{ rate_date: string; rates: Record<string, string> }>(`select rate_date::text as rate_date, rates from ${DAYS} order by rate_date`);
      await publishEcbDays(client, days.rows.map((d) => ({ date: d.rate_date, rates: d.rates })), res.rows.map((r) => r.id), now);
      return days.rows.length;
    });
  }

  /**
   * Every stored ECB day as `ExchangeRatesPublished` events under the publication order of the newest import
   * published (`publicationOrder` of its `published_at`; one statement, one snapshot: the days are exactly those that import left), for an answer to
   * `ReferenceDataRequested`. A consumer keeps a day of a later import; an import committed after this read
   * publishes with a larger order, so an answer never overwrites it. None before the first import.
   */
  async ecbDaysAsPublished(): Promise<OutboxEvent[]> {
    const res = await this.pool.query<{ rate_date: string; rates: Record<string, string>; order: string | null }>(
      `select d.rate_date::text as rate_date, d.rates,
              (select floor(extract(epoch from max(p.published_at)) * 1000)::bigint::text from ${PUBLICATION} p where p.kind = 'ecb') as order
         from ${DAYS} d order by d.rate_date`,
    );
    const order = res.rows[0]?.order;
    if (!order) return [];
    return exchangeRatesPublishedEvents(BigInt(order), res.rows.map((d) => ({ date: d.rate_date, rates: d.rates })), res.rows.length);
  }

  /**
   * Once (per replay generation): `CalculationRecorded` again for every stored calculation, oldest first, so a
   * projection added after they were stored (the ledger's) holds them too, whatever the bus kept. Returns how many.
   */
  async republishCalculations(eventOf: (row: Record<string, unknown>) => OutboxEvent, now: Date): Promise<number> {
    return this.replayOnce('calculations', now, async (client) => {
      let after = '0';
      let n = 0;
      for (;;) {
        const res = await client.query(`select ${CALCULATION_SELECT} from ${CALCULATIONS} where seq > $1 order by seq limit ${REPUBLISH_BATCH}`, [after]);
        if (!res.rows.length) return n;
        await writeOutbox(client, 'calculation', res.rows.map(eventOf), now);
        n += res.rows.length;
        after = String(res.rows.at(-1)!.seq);
      }
    });
  }

  /** Once (per replay generation): runs `publish` (which writes to the outbox through `client`) and records it. */
  async replayOnce(kind: 'calculations' | 'source_profiles', now: Date, publish: (client: pg.PoolClient) => Promise<number>): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await lockPublications(client);
      if (await recorded(client, kind, REPLAY_GENERATION)) return 0;
      const n = await publish(client);
      await record(client, kind, [REPLAY_GENERATION], now);
      return n;
    });
  }
}
