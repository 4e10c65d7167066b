import type pg from 'pg';
import { IOSS_CONSIGNMENT_CEILING_EUR_MINOR, monthBounds, type IossGroup } from '../domain/ioss-months';

const SCHEMA = 'compliance_reports';
const CORRECTIONS = `('refund', 'cancellation', 'credit_note', 'adjustment')`;

/** A column of the sale that decides eligibility: the event itself (a sale) or its valid original (a correction). */
const pick = (col: string) => `case k.src when 'f' then f.${col} when 'o' then o.${col} end`;

/**
 * One scan of the account's imported-goods events of the quarter, aggregated in SQL by everything the
 * IOSS month reads (domain/ioss-months.ts `IossGroup`): the event's month, kind and link, the deciding
 * sale's traits (B2C, classification, rate category, excise, origin, the EUR 150 test), its month and
 * registration-coverage segment (`seg`: width_bucket over the days on which an IOSS registration starts
 * or ends, $4), its State and rate, and, outside EUR, the per-event amounts (each is converted on its
 * own). Only a correction looks up its original (by the account's event id, any period).
 */
const GROUPS_SQL = `
select x.month, x.kind, x.link, x.s_month, x.seg, x.customer_type, x.classification_status, x.rate_category, x.excise, x.has_origin, x.value,
  x.s_country, x.s_bps, x.country, x.currency, x.unit_net, x.unit_vat,
  count(*)::int as n, sum(x.net)::text as net_sum, sum(x.vat)::text as vat_sum
from (
  select to_char(f.occurred_at at time zone 'UTC', 'YYYY-MM') as month, k.kind, k.link,
    to_char(${pick('occurred_at')} at time zone 'UTC', 'YYYY-MM') as s_month,
    width_bucket(${pick('occurred_at')}, $4::timestamptz[]) as seg,
    ${pick('customer_type')} as customer_type, ${pick('classification_status')} as classification_status, ${pick('rate_category')} as rate_category,
    case when k.src is not null then coalesce(${pick('excise_goods')}, false) end as excise,
    case when k.src is not null then coalesce(${pick('third_country_origin')}, '') <> '' end as has_origin,
    case when k.src is null then null
         when ${pick('intrinsic_value_eur_minor')} is not null then case when ${pick('intrinsic_value_eur_minor')} > ${IOSS_CONSIGNMENT_CEILING_EUR_MINOR} then 'above' else 'within' end
         when ${pick('currency')} = 'EUR' then case when abs(${pick('net_amount_minor')}) > ${IOSS_CONSIGNMENT_CEILING_EUR_MINOR} then 'above' else 'within' end
         else 'unverified' end as value,
    ${pick('country_of_consumption')} as s_country, ${pick('vat_rate_bps')} as s_bps,
    f.country_of_consumption as country, f.currency,
    case when f.currency <> 'EUR' then f.net_amount_minor end as unit_net,
    case when f.currency <> 'EUR' then f.vat_amount_minor end as unit_vat,
    f.net_amount_minor as net, f.vat_amount_minor as vat
  from "${SCHEMA}".supply_fact f
  left join lateral (
    select o.event_type, o.supply_kind, o.occurred_at, o.customer_type, o.classification_status, o.rate_category, o.excise_goods, o.third_country_origin,
           o.intrinsic_value_eur_minor, o.currency, o.net_amount_minor, o.country_of_consumption, o.vat_rate_bps
      from "${SCHEMA}".supply_fact o
     where f.event_type in ${CORRECTIONS} and o.account_id = $1 and o.event_id = f.original_event_id limit 1
  ) o on true
  cross join lateral (
    select l.kind, l.link, case when l.kind = 'sale' then 'f' when l.link = 'ok' then 'o' end as src
      from (select c.kind,
              case when c.kind <> 'correction' then 'none'
                   when o.event_type is null then 'missing'
                   when o.event_type <> 'sale' or o.supply_kind <> 'imported_goods' or o.country_of_consumption <> f.country_of_consumption or o.currency <> f.currency
                     or date_trunc('month', o.occurred_at at time zone 'UTC') > date_trunc('month', f.occurred_at at time zone 'UTC') then 'invalid'
                   else 'ok' end as link
              from (select case when f.event_type = 'sale' then 'sale' when f.event_type in ${CORRECTIONS} then 'correction' else 'other' end as kind) c) l
  ) k
  where f.account_id = $1 and f.supply_kind = 'imported_goods' and f.occurred_at >= $2::timestamptz and f.occurred_at < $3::timestamptz
) x
group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17`;

type GroupRow = {
  month: string;
  kind: IossGroup['kind'];
  link: IossGroup['link'];
  s_month: string | null;
  seg: number | null;
  customer_type: string | null;
  classification_status: string | null;
  rate_category: string | null;
  excise: boolean | null;
  has_origin: boolean | null;
  value: 'within' | 'above' | 'unverified' | null;
  s_country: string | null;
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
   * One read-only statement; memory follows the number of groups (events outside EUR are grouped by
   * amount, as each is converted on its own), never the number of events.
   */
  async quarterGroups(accountId: bigint, start: string, endExclusive: string, boundaries: readonly string[]): Promise<IossGroup[]> {
    const days = boundaries.length > 0 ? [...boundaries] : [start];
    const client = await this.pool.connect();
    try {
      await client.query('begin read only');
      await client.query(`set local work_mem = '64MB'`);
      await client.query('set local jit = off');
      // As for the Union OSS read: the planner overestimates the groups; a hash aggregate fits (and spills if not).
      await client.query('set local enable_sort = off');
      const res = await client.query<GroupRow>(GROUPS_SQL, [accountId.toString(), ts(start), ts(endExclusive), `{${days.map(ts).join(',')}}`]);
      await client.query('commit');
      return res.rows.map((r) => toGroup(r, days));
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}

function toGroup(r: GroupRow, days: readonly string[]): IossGroup {
  let sale: IossGroup['sale'] = null;
  if (r.s_month !== null) {
    // width_bucket: seg k covers [days[k-1], days[k]); 0 is before the first day.
    const first = monthBounds(r.s_month).first;
    const segStart = r.seg! >= 1 ? days[r.seg! - 1]! : first;
    sale = {
      day: segStart > first ? segStart : first,
      countryOfConsumption: r.s_country!,
      vatRateBps: r.s_bps!,
      traits: { customerType: r.customer_type!, classificationStatus: r.classification_status!, rateCategory: r.rate_category!, exciseGoods: r.excise!, hasThirdCountryOrigin: r.has_origin!, value: r.value! },
    };
  }
  return {
    month: r.month,
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
