import type pg from 'pg';
import { IOSS_CONSIGNMENT_CEILING_EUR_MINOR, monthBounds, type IossGroup } from '../domain/ioss-months';

const SCHEMA = 'compliance_reports';
const CORRECTIONS = `('refund', 'cancellation', 'credit_note', 'adjustment')`;

/** The columns of the sale that decides eligibility. */
const SALE_COLUMNS = ['occurred_at', 'customer_type', 'classification_status', 'rate_category', 'excise_goods', 'third_country_origin', 'intrinsic_value_eur_minor', 'currency', 'net_amount_minor', 'country_of_consumption', 'vat_rate_bps'];

/** A column of the deciding sale: the event itself (a sale) or its valid original (a correction); null otherwise. */
const pick = (col: string) => `case when e.kind = 'sale' then e.f_${col} when e.link = 'ok' then e.o_${col} end`;

/**
 * One scan of the account's imported-goods events of the quarter, aggregated in SQL by everything the
 * IOSS month reads (domain/ioss-months.ts `IossGroup`): the event's month, kind and link, the deciding
 * sale's traits (B2C, classification, rate category, excise, origin, the EUR 150 test), its month and
 * registration-coverage segment (`seg`: width_bucket over the days on which an IOSS registration starts
 * or ends, $4), its State and rate, and, outside EUR, the per-event amounts (each is converted on its
 * own). Only a correction looks up its original (by the account's event id, any period).
 */
export const GROUPS_SQL = `
select x.month_idx, x.kind, x.link, case when x.link = 'ok' then to_char(x.s_at at time zone 'UTC', 'YYYY-MM') end as s_month, width_bucket(x.s_at, $4::timestamptz[]) as seg,
  x.customer_type, x.classification_status, x.rate_category,
  case when x.s_at is not null then coalesce(x.excise_goods, false) end as excise,
  case when x.s_at is not null then coalesce(x.third_country_origin, '') <> '' end as has_origin,
  case when x.s_at is null then null
       when x.intrinsic is not null then case when x.intrinsic > ${IOSS_CONSIGNMENT_CEILING_EUR_MINOR} then 'above' else 'within' end
       when x.s_currency = 'EUR' then case when abs(x.s_net) > ${IOSS_CONSIGNMENT_CEILING_EUR_MINOR} then 'above' else 'within' end
       else 'unverified' end as value,
  x.s_country, x.s_bps, x.country, x.currency,
  case when x.currency <> 'EUR' then x.net end as unit_net, case when x.currency <> 'EUR' then x.vat end as unit_vat,
  count(*)::int as n, sum(x.net)::text as net_sum, sum(x.vat)::text as vat_sum
from (
  -- The deciding sale: the event itself (a sale) or its valid original (a correction); none otherwise.
  select e.month_idx, e.kind, e.link, e.country, e.currency, e.net, e.vat,
    ${pick('occurred_at')} as s_at, ${pick('customer_type')} as customer_type, ${pick('classification_status')} as classification_status,
    ${pick('rate_category')} as rate_category, ${pick('excise_goods')} as excise_goods, ${pick('third_country_origin')} as third_country_origin,
    ${pick('intrinsic_value_eur_minor')} as intrinsic, ${pick('currency')} as s_currency, ${pick('net_amount_minor')} as s_net,
    ${pick('country_of_consumption')} as s_country, ${pick('vat_rate_bps')} as s_bps
  from (
    select e.*,
      case when e.kind <> 'correction' then 'none'
           when e.o_event_type is null then 'missing'
           when e.o_event_type <> 'sale' or e.o_supply_kind <> 'imported_goods' or e.o_country_of_consumption <> e.country or e.o_currency <> e.currency
             or date_trunc('month', e.o_occurred_at at time zone 'UTC') > date_trunc('month', e.f_occurred_at at time zone 'UTC') then 'invalid'
           else 'ok' end as link
    from (
      select width_bucket(f.occurred_at, $5::timestamptz[]) as month_idx,
        case when f.event_type = 'sale' then 'sale' when f.event_type in ${CORRECTIONS} then 'correction' else 'other' end as kind,
        f.country_of_consumption as country, f.currency, f.net_amount_minor as net, f.vat_amount_minor as vat,
        ${SALE_COLUMNS.map((c) => `f.${c} as f_${c}`).join(', ')},
        o.event_type as o_event_type, o.supply_kind as o_supply_kind, ${SALE_COLUMNS.map((c) => `o.${c} as o_${c}`).join(', ')}
      from "${SCHEMA}".supply_fact f
      left join lateral (
        select o.event_type, o.supply_kind, ${SALE_COLUMNS.map((c) => `o.${c}`).join(', ')}
          from "${SCHEMA}".supply_fact o
         where f.event_type in ${CORRECTIONS} and o.account_id = $1 and o.event_id = f.original_event_id limit 1
      ) o on true
      where f.account_id = $1 and f.supply_kind = 'imported_goods' and f.occurred_at >= $2::timestamptz and f.occurred_at < $3::timestamptz
      offset 0
    ) e
    offset 0
  ) e
  offset 0
) x
group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17`;

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
      const months = quarterMonths(start, endExclusive);
      const res = await client.query<GroupRow>(GROUPS_SQL, [accountId.toString(), ts(start), ts(endExclusive), `{${days.map(ts).join(',')}}`, `{${months.map((m) => ts(`${m}-01`)).join(',')}}`]);
      await client.query('commit');
      return res.rows.map((r) => toGroup(r, days, months));
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
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
      countryOfConsumption: r.s_country!,
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
