import type pg from 'pg';
import { inTransaction } from '@vat/platform/transaction';
import { IOSS_CONSIGNMENT_CEILING_EUR_MINOR, monthBounds, type IossGroup } from '../domain/ioss-months';

const SCHEMA = 'compliance_reports';
const CORRECTIONS = `('refund', 'cancellation', 'credit_note', 'adjustment')`;

/** The EUR 150 test of a sale row `r` (docs/ioss.md): its intrinsic value, else an EUR sale's absolute net amount. */
const valueOf = (r: string) => `case when ${r}.intrinsic_value_eur_minor is not null then case when ${r}.intrinsic_value_eur_minor > ${IOSS_CONSIGNMENT_CEILING_EUR_MINOR} then 'above' else 'within' end
  when ${r}.currency = 'EUR' then case when abs(${r}.net_amount_minor) > ${IOSS_CONSIGNMENT_CEILING_EUR_MINOR} then 'above' else 'within' end
  else 'unverified' end`;

/**
 * Two steps. `g`: one scan of the account's imported-goods events of the quarter, aggregated by the
 * event's month ($5: the months' first days), kind, State, currency (and, outside EUR, per-event
 * amounts: each is converted on its own) and, for a sale, everything that decides it: its traits
 * (B2C, classification, rate category, excise, third-country origin, the EUR 150 test), its rate and
 * its registration-coverage segment (`seg`: width_bucket over the days on which an IOSS registration
 * starts or ends, $4); a correction keeps the id of the original it names. Then only the correction
 * groups look up their original (the account's event of that id, any period), take its facts when the
 * link is valid, and everything is grouped once more (domain/ioss-months.ts `IossGroup`).
 */
const SCAN_GROUPS = `  select width_bucket(f.occurred_at, $5::timestamptz[]) as month_idx,
    case when f.event_type = 'sale' then 'sale' when f.event_type in ${CORRECTIONS} then 'correction' else 'other' end as kind,
    case when f.event_type in ${CORRECTIONS} then f.original_event_id end as original_event_id,
    case when f.event_type = 'sale' then width_bucket(f.occurred_at, $4::timestamptz[]) end as seg,
    case when f.event_type = 'sale' then f.customer_type end as customer_type,
    case when f.event_type = 'sale' then f.classification_status end as classification_status,
    case when f.event_type = 'sale' then f.rate_category end as rate_category,
    case when f.event_type = 'sale' then coalesce(f.excise_goods, false) end as excise,
    case when f.event_type = 'sale' then coalesce(f.third_country_origin, '') <> '' end as has_origin,
    case when f.event_type = 'sale' then ${valueOf('f')} end as value,
    case when f.event_type = 'sale' then f.vat_rate_bps end as s_bps,
    f.country_of_consumption as country, f.currency,
    case when f.currency <> 'EUR' then f.net_amount_minor end as unit_net,
    case when f.currency <> 'EUR' then f.vat_amount_minor end as unit_vat,
    count(*) as n, sum(f.net_amount_minor) as net_sum, sum(f.vat_amount_minor) as vat_sum
  from "${SCHEMA}".supply_fact f
  where f.account_id = $1 and f.supply_kind = 'imported_goods' and f.occurred_at >= $2::timestamptz and f.occurred_at < $3::timestamptz
  group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15`;

/**
 * The same groups from the running totals (`ioss_day_total`, kept by triggers per UTC day with exactly the first
 * step's columns, a correction's link to its original resolved as `GROUPS_SQL` resolves it, and a valid link's
 * original's day and traits: Migration20261130080000): the month and the coverage segment of a day are those of
 * every event on it (both bucket by days). $1–$5 as in `GROUPS_SQL`.
 */
const TOTALS_SQL = `select width_bucket(t.day::timestamp at time zone 'UTC', $5::timestamptz[]) as month_idx,
    t.kind, t.link,
    case when t.link = 'ok' then to_char(t.original_day, 'YYYY-MM') end as s_month,
    case when t.kind = 'sale' then width_bucket(t.day::timestamp at time zone 'UTC', $4::timestamptz[])
         when t.link = 'ok' then width_bucket(t.original_day::timestamp at time zone 'UTC', $4::timestamptz[]) end as seg,
    t.customer_type, t.classification_status, t.rate_category, t.excise_goods as excise, t.has_origin, t.consignment_value as value, t.vat_rate_bps as s_bps,
    t.country_of_consumption as country, t.currency, t.unit_net::text as unit_net, t.unit_vat::text as unit_vat,
    sum(t.event_count)::int as n, sum(t.net_sum)::text as net_sum, sum(t.vat_sum)::text as vat_sum
  from "${SCHEMA}".ioss_day_total t
  where t.account_id = $1 and t.day >= ($2::timestamptz at time zone 'UTC')::date and t.day < ($3::timestamptz at time zone 'UTC')::date
  group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
  having sum(t.event_count) <> 0`;

const GROUPS_SQL = `
with g as (
${SCAN_GROUPS}
),
l as (
  select g.*,
    case when g.kind <> 'correction' then 'none'
         when o.event_type is null then 'missing'
         when o.event_type <> 'sale' or o.supply_kind <> 'imported_goods' or o.country_of_consumption <> g.country or o.currency <> g.currency
           or to_char(o.occurred_at at time zone 'UTC', 'YYYY-MM') > ($6::text[])[g.month_idx] then 'invalid'
         else 'ok' end as link,
    o.occurred_at as o_at, o.customer_type as o_customer_type, o.classification_status as o_classification_status, o.rate_category as o_rate_category,
    coalesce(o.excise_goods, false) as o_excise, coalesce(o.third_country_origin, '') <> '' as o_has_origin, ${valueOf('o')} as o_value, o.vat_rate_bps as o_bps
  from g
  left join lateral (
    select o.* from "${SCHEMA}".supply_fact o where g.original_event_id is not null and o.account_id = $1 and o.event_id = g.original_event_id limit 1
  ) o on true
)
select l.month_idx, l.kind, l.link,
  case when l.link = 'ok' then to_char(l.o_at at time zone 'UTC', 'YYYY-MM') end as s_month,
  case when l.link = 'ok' then width_bucket(l.o_at, $4::timestamptz[]) else l.seg end as seg,
  case when l.link = 'ok' then l.o_customer_type else l.customer_type end as customer_type,
  case when l.link = 'ok' then l.o_classification_status else l.classification_status end as classification_status,
  case when l.link = 'ok' then l.o_rate_category else l.rate_category end as rate_category,
  case when l.link = 'ok' then l.o_excise else l.excise end as excise,
  case when l.link = 'ok' then l.o_has_origin else l.has_origin end as has_origin,
  case when l.link = 'ok' then l.o_value else l.value end as value,
  case when l.link = 'ok' then l.o_bps else l.s_bps end as s_bps,
  l.country, l.currency, l.unit_net::text as unit_net, l.unit_vat::text as unit_vat,
  sum(l.n)::int as n, sum(l.net_sum)::text as net_sum, sum(l.vat_sum)::text as vat_sum
from l
group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16`;


/**
 * The same read, one row per event (its id, ledger sequence, type and tax point are grouping columns),
 * in ledger order after a keyset position ($7), optionally of one Member State of consumption ($8).
 */
const EVENTS_SQL = `select * from (${GROUPS_SQL.replace('select width_bucket(f.occurred_at, $5::timestamptz[]) as month_idx,', 'select f.event_id, f.sequence, f.event_type as event_type_raw, f.occurred_at, f.net_amount_minor as event_net, f.vat_amount_minor as event_vat, width_bucket(f.occurred_at, $5::timestamptz[]) as month_idx,')
  .replace('group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n', 'group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21\n')
  .replace('select l.month_idx, l.kind, l.link,', 'select l.event_id, l.sequence::text as sequence, l.event_type_raw as event_type, l.occurred_at, l.event_net::text as event_net, l.event_vat::text as event_vat, l.month_idx, l.kind, l.link,')
  .replace(/group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16$/, 'group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22')}
) e where e.sequence::bigint > $7::bigint and ($8::text is null or e.country = $8::text) order by e.sequence::bigint`;

/** One imported-goods event with the group it forms alone. */
export type IossEvent = { eventId: string; sequence: bigint; eventType: string; occurredAt: Date; netAmountMinor: bigint; vatAmountMinor: bigint; group: IossGroup };

type GroupRow = {
  /** 1, 2 or 3: the event's month of the quarter. */
  month_idx: number;
  kind: IossGroup['kind'];
  link: IossGroup['link'];
  /** A correction's original's month (a sale's is its own). */
  s_month: string | null;
  seg: number | null;
  customer_type: string | null;
  classification_status: string | null;
  rate_category: string | null;
  excise: boolean | null;
  has_origin: boolean | null;
  value: 'within' | 'above' | 'unverified' | null;
  s_bps: number | null;
  country: string;
  currency: string;
  unit_net: string | null;
  unit_vat: string | null;
  n: number;
  net_sum: string;
  vat_sum: string;
};

const ts = (day: string) => `${day}T00:00:00Z`;

/** Reads of the service's own supply projection for IOSS months (always scoped to one account). */
export class IossFactRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * The account's `imported_goods` events with a tax point in [start, endExclusive) (UTC days), grouped
   * (`IossGroup`). `boundaries` are the sorted days on which an IOSS registration's coverage can change
   * (domain `coverageBoundaries`): a group never spans one, so its representative `sale.day` (the later
   * of the segment's first day and the first day of the sale's month) has the coverage of every event in it.
   * One read-only statement, of the running totals (`totals: false`: of the facts themselves); memory follows the
   * number of groups (events outside EUR are grouped by amount, as each is converted on its own), never the number of events.
   */
  async quarterGroups(accountId: bigint, start: string, endExclusive: string, boundaries: readonly string[], opts: { totals?: boolean } = {}): Promise<IossGroup[]> {
    const days = boundaries.length > 0 ? [...boundaries] : [start];
    const months = quarterMonths(start, endExclusive);
    const rows = await inTransaction(
      this.pool,
      async (client) => {
        await client.query(`set local work_mem = '64MB'`);
        await client.query('set local jit = off');
        // As for the Union OSS read: the planner overestimates the groups; a hash aggregate fits (and spills if not).
        await client.query('set local enable_sort = off');
        const values = [accountId.toString(), ts(start), ts(endExclusive), `{${days.map(ts).join(',')}}`, `{${months.map((m) => ts(`${m}-01`)).join(',')}}`];
        return (await client.query<GroupRow>(opts.totals === false ? GROUPS_SQL : TOTALS_SQL, opts.totals === false ? [...values, `{${months.join(',')}}`] : values)).rows;
      },
      { readOnly: true },
    );
    return rows.map((r) => toGroup(r, days, months));
  }

  /** The account's imported-goods events of [start, endExclusive) one by one, in ledger order after `after` (optionally of one State). */
  async events(accountId: bigint, start: string, endExclusive: string, boundaries: readonly string[], after: bigint, memberState: string | null): Promise<IossEvent[]> {
    const days = boundaries.length > 0 ? [...boundaries] : [start];
    const months = quarterMonths(start, endExclusive);
    const res = await this.pool.query<GroupRow & { event_id: string; sequence: string; event_type: string; occurred_at: Date | string; event_net: string; event_vat: string }>(EVENTS_SQL, [
      accountId.toString(), ts(start), ts(endExclusive), `{${days.map(ts).join(',')}}`, `{${months.map((m) => ts(`${m}-01`)).join(',')}}`, `{${months.join(',')}}`, after.toString(), memberState,
    ]);
    return res.rows.map((r) => ({ eventId: r.event_id, sequence: BigInt(r.sequence), eventType: r.event_type, occurredAt: new Date(r.occurred_at), netAmountMinor: BigInt(r.event_net), vatAmountMinor: BigInt(r.event_vat), group: toGroup(r, days, months) }));
  }
}

/** The months (YYYY-MM) whose first day is in [start, endExclusive). */
function quarterMonths(start: string, endExclusive: string): string[] {
  const months: string[] = [];
  for (let d = new Date(`${start}T00:00:00Z`); d.toISOString().slice(0, 10) < endExclusive; d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))) months.push(d.toISOString().slice(0, 7));
  return months;
}

function toGroup(r: GroupRow, days: readonly string[], months: readonly string[]): IossGroup {
  // width_bucket over the months' first days: k is months[k - 1] (every event lies in the range).
  const month = months[r.month_idx - 1]!;
  let sale: IossGroup['sale'] = null;
  if (r.kind === 'sale' || r.link === 'ok') {
    // width_bucket: seg k covers [days[k-1], days[k]); 0 is before the first day.
    const first = monthBounds(r.s_month ?? month).first;
    const segStart = r.seg! >= 1 ? days[r.seg! - 1]! : first;
    sale = {
      day: segStart > first ? segStart : first,
      // A valid link has the original's State; a sale is its own.
      countryOfConsumption: r.country,
      vatRateBps: r.s_bps!,
      traits: { customerType: r.customer_type!, classificationStatus: r.classification_status!, rateCategory: r.rate_category!, exciseGoods: r.excise!, hasThirdCountryOrigin: r.has_origin!, value: r.value! },
    };
  }
  return {
    month,
    kind: r.kind,
    link: r.link,
    sale,
    countryOfConsumption: r.country,
    currency: r.currency,
    count: r.n,
    netSum: BigInt(r.net_sum),
    vatSum: BigInt(r.vat_sum),
    unitNet: r.unit_net === null ? null : BigInt(r.unit_net),
    unitVat: r.unit_vat === null ? null : BigInt(r.unit_vat),
  };
}
