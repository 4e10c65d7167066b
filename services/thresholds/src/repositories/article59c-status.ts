import type pg from 'pg';
import type { EventFacts } from '../article59c/classify';
import { iso } from '../article59c/facts';
import type { StoredCrossing } from '../article59c/status';
import type { Bucket } from '../article59c/summarize';
import type { Converted } from '../article59c/conversion';

const S = '"thresholds"';
type Db = Pick<pg.PoolClient, 'query'>;

/** The event-fact columns of a projected fact or a running-total row. */
export function eventFactsOfRow(r: Record<string, any>): EventFacts {
  return {
    supplyKind: r.supply_kind,
    customerType: r.customer_type,
    classificationStatus: r.classification_status,
    countryOfConsumption: r.country_of_consumption,
    dispatchCountry: r.dispatch_country,
    supplierEstablishmentCountry: r.supplier_establishment_country,
    currency: r.currency,
    sourceId: r.source_id,
  };
}

function bucketOfRow(r: Record<string, any>): Bucket {
  return {
    facts: { eventClass: r.event_class, linkState: r.link_state, year: r.year, ...eventFactsOfRow(r), vatNumberEvidence: r.vat_number_evidence ?? null },
    occurredOn: r.occurred_on,
    eventCount: BigInt(r.event_count),
    netMinor: BigInt(r.net_minor),
    maxRecordedAt: iso(r.max_recorded_at),
    converted: convertedOf(r.converted_minor, r.converted_count),
  };
}

/** Sums the per-currency converted amounts and counts of the bucket rows a total was grouped from. */
function convertedOf(minor: Record<string, string>[] | null, count: Record<string, string>[] | null): Converted {
  const out: Converted = new Map();
  (minor ?? []).forEach((m, i) => {
    for (const [currency, net] of Object.entries(m ?? {})) {
      const c = out.get(currency) ?? out.set(currency, { net: 0n, count: 0n }).get(currency)!;
      c.net += BigInt(net);
      c.count += BigInt((count?.[i] ?? {})[currency] ?? '0');
    }
  });
  return out;
}

function crossingOfRow(r: Record<string, any>): StoredCrossing {
  return {
    year: r.year,
    eventId: r.event_id,
    sequence: BigInt(r.sequence),
    occurredAt: iso(r.occurred_at),
    recordedAt: iso(r.recorded_at),
    eventAmountMinor: BigInt(r.event_amount_minor),
    cumulativeMinor: BigInt(r.cumulative_minor),
    thresholdMinor: BigInt(r.threshold_minor),
    currency: r.currency,
    establishmentCountry: r.establishment_country,
    releaseVersion: r.release_version,
    policyVersion: r.policy_version,
    provenAt: iso(r.proven_at),
  };
}

/**
 * The running totals of the account `$1` in the years `$2` (and up to the day `$3`), summed over days: one row
 * per distinct fact combination; or, `byDay`, one per fact combination and tax-point day. Rows without events
 * are skipped: they exist only where a batch moved every event out of a row (or were left so by versions before
 * 2026-11-28, which kept them), and a one-process run in ledger order may never create them, so they must not
 * show as coverage, issues, establishments or series points.
 */
const bucketTotalsSql = (upToDay: boolean, byDay = false) =>
  `select year, ${byDay ? 'occurred_on' : 'max(occurred_on) as occurred_on'}, event_class, link_state, supply_kind, customer_type, classification_status, country_of_consumption,
     dispatch_country, supplier_establishment_country, currency, source_id, vat_number_evidence, sum(event_count)::text as event_count, sum(net_minor)::text as net_minor,
     max(max_recorded_at) as max_recorded_at, jsonb_agg(converted_minor) as converted_minor, jsonb_agg(converted_count) as converted_count
   from ${S}.article59c_bucket where account_id = $1 and year = any($2::int[]) and event_count <> 0${upToDay ? ' and occurred_on <= $3' : ''}
   group by year, event_class, link_state, supply_kind, customer_type, classification_status, country_of_consumption, dispatch_country,
     supplier_establishment_country, currency, source_id, vat_number_evidence${byDay ? ', occurred_on' : ''}`;

const CROSSINGS_SQL = `select year, event_id, sequence::text, occurred_at, recorded_at, event_amount_minor::text, cumulative_minor::text, threshold_minor::text, currency,
  establishment_country, release_version, policy_version, proven_at from ${S}.article59c_crossing where account_id = $1 and year = any($2::int[])`;

/** The reads an Article 59c status is computed from: running totals, crossings and the projection position. */
export class Article59cStatusRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The running totals of the account's `years`, one row per distinct fact combination (days summed). */
  async buckets(accountId: bigint, years: number[], db: Db = this.pool): Promise<Bucket[]> {
    const res = await db.query(bucketTotalsSql(false), [accountId.toString(), years]);
    return res.rows.map(bucketOfRow);
  }

  /**
   * Position, running totals (summed over days up to `cutoffDay`, so one row per distinct fact combination)
   * and crossings of `years`, in one statement: one snapshot, so the totals are exactly those of the
   * position reported (a batch commits all three together).
   */
  async snapshot(accountId: bigint, years: number[], cutoffDay: string): Promise<{ position: bigint; decisionsApplied: bigint; buckets: Bucket[]; crossings: StoredCrossing[] }> {
    const res = await this.pool.query(
      `select
         (select applied::text from ${S}.supply_projection_position where account_id = $1) as position,
         (select decisions_applied::text from ${S}.supply_projection_position where account_id = $1) as decisions_applied,
         (select coalesce(jsonb_agg(b), '[]'::jsonb) from (${bucketTotalsSql(true)}) b) as buckets,
         (select coalesce(jsonb_agg(c), '[]'::jsonb) from (${CROSSINGS_SQL}) c) as crossings`,
      [accountId.toString(), years, cutoffDay],
    );
    const row = res.rows[0]!;
    return {
      position: row.position === null ? 0n : BigInt(row.position),
      decisionsApplied: row.decisions_applied === null ? 0n : BigInt(row.decisions_applied),
      buckets: (row.buckets as Record<string, any>[]).map(bucketOfRow),
      crossings: (row.crossings as Record<string, any>[]).map(crossingOfRow),
    };
  }

  /**
   * Position, running totals of `year` per fact combination and tax-point day up to `cutoffDay`, and the year's
   * crossings, in one statement (one snapshot): what the cumulative series is computed from.
   */
  async daily(accountId: bigint, year: number, cutoffDay: string): Promise<{ position: bigint; buckets: Bucket[]; crossings: StoredCrossing[] }> {
    const res = await this.pool.query(
      `select
         (select applied::text from ${S}.supply_projection_position where account_id = $1) as position,
         (select coalesce(jsonb_agg(b), '[]'::jsonb) from (${bucketTotalsSql(true, true)}) b) as buckets,
         (select coalesce(jsonb_agg(c), '[]'::jsonb) from (${CROSSINGS_SQL}) c) as crossings`,
      [accountId.toString(), [year], cutoffDay],
    );
    const row = res.rows[0]!;
    return {
      position: row.position === null ? 0n : BigInt(row.position),
      buckets: (row.buckets as Record<string, any>[]).map(bucketOfRow),
      crossings: (row.crossings as Record<string, any>[]).map(crossingOfRow),
    };
  }
}
