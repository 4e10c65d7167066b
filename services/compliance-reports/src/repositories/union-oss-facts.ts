import type pg from 'pg';
import type { FactGroup, LinkStatus } from '../domain/union-oss-return';

/** A consumption State's standard rate over [validFrom, validTo) (YYYY-MM-DD; validTo null = open). */
export type StandardRateWindow = { country: string; validFrom: string; validTo: string | null; rateBps: number };

/** Events of an earlier locked quarter, recorded after its lock, that this quarter reports. */
export type LateWindow = { start: string; endExclusive: string; afterSequence: bigint; upToSequence: bigint | null };

export type FactScope = {
  accountId: bigint;
  /** First day and the day after the last, YYYY-MM-DD (UTC). */
  start: string;
  endExclusive: string;
  /** Only events at or before this ledger position (a locked quarter); null = everything projected. */
  upToSequence: bigint | null;
  late: readonly LateWindow[];
  /** Groups in another currency carry their per-event amounts (conversion is per event). */
  returnCurrency: string;
  /** Decides STANDARD/REDUCED per event in SQL, so groups need not be per day. */
  standardRates: readonly StandardRateWindow[];
};

const SCHEMA = 'compliance_reports';

/**
 * One grouped read of a quarter's supply facts (plus late events of locked quarters) with each
 * correction's link to its original, aggregated in SQL by every dimension the return needs, so
 * memory follows the number of distinct groups, not of events.
 */
const GROUPS_SQL = `
with w as (
  select * from jsonb_to_recordset($6::jsonb) as w(start timestamptz, stop timestamptz, after_seq bigint, up_to bigint)
),
std as (
  select * from jsonb_to_recordset($7::jsonb) as std(country text, valid_from timestamptz, valid_to timestamptz, bps int)
),
scoped as (
  select f.*, false as late from "${SCHEMA}".supply_fact f
   where f.account_id = $1 and f.occurred_at >= $2::timestamptz and f.occurred_at < $3::timestamptz and ($4::bigint is null or f.sequence <= $4::bigint)
  union all
  select f.*, true as late from w join "${SCHEMA}".supply_fact f
    on f.account_id = $1 and f.occurred_at >= w.start and f.occurred_at < w.stop and f.sequence > w.after_seq and (w.up_to is null or f.sequence <= w.up_to)
)
select s.late,
  to_char(s.occurred_at at time zone 'UTC', 'YYYY-"Q"Q') as own_period,
  s.event_type, s.classification_status, s.rate_category, s.supply_kind, s.customer_type,
  s.country_of_consumption, s.dispatch_country, s.supplier_establishment_country,
  case when (s.supply_kind = 'goods' and s.dispatch_country is null) or (s.supply_kind = 'services' and s.supplier_establishment_country is null) then s.source_id end as source_id,
  s.vat_rate_bps,
  case when std.country is null then null else std.bps = s.vat_rate_bps end as rate_is_standard,
  s.currency,
  case when s.event_type = 'sale' then 'none'
       when o.id is null then 'missing'
       when o.event_type <> 'sale' or o.country_of_consumption <> s.country_of_consumption or o.currency <> s.currency then 'invalid'
       else 'ok' end as link,
  case when s.event_type <> 'sale' and o.id is not null then to_char(o.occurred_at at time zone 'UTC', 'YYYY-"Q"Q') end as original_period,
  case when s.currency <> $5 then s.net_amount_minor::text end as unit_net,
  case when s.currency <> $5 then s.vat_amount_minor::text end as unit_vat,
  count(*)::int as n, sum(s.net_amount_minor)::text as net_sum, sum(s.vat_amount_minor)::text as vat_sum
from scoped s
left join std on std.country = s.country_of_consumption and s.occurred_at >= std.valid_from and (std.valid_to is null or s.occurred_at < std.valid_to)
left join "${SCHEMA}".supply_fact o
  on s.event_type <> 'sale' and s.original_event_id is not null and o.account_id = $1 and o.event_id = s.original_event_id and ($4::bigint is null or o.sequence <= $4::bigint)
group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18`;

type GroupRow = {
  late: boolean;
  own_period: string;
  event_type: string;
  classification_status: string;
  rate_category: string;
  supply_kind: string;
  customer_type: string;
  country_of_consumption: string;
  dispatch_country: string | null;
  supplier_establishment_country: string | null;
  source_id: string | null;
  vat_rate_bps: number;
  rate_is_standard: boolean | null;
  currency: string;
  link: LinkStatus;
  original_period: string | null;
  unit_net: string | null;
  unit_vat: string | null;
  n: number;
  net_sum: string;
  vat_sum: string;
};

const ts = (date: string) => `${date}T00:00:00Z`;

/** Reads of the service's own supply projection for Union OSS returns. */
export class UnionOssFactRepository {
  constructor(private readonly pool: pg.Pool) {}

  async groups(scope: FactScope): Promise<FactGroup[]> {
    const windows = scope.late.map((w) => ({ start: ts(w.start), stop: ts(w.endExclusive), after_seq: w.afterSequence.toString(), up_to: w.upToSequence?.toString() ?? null }));
    const std = scope.standardRates.map((r) => ({ country: r.country, valid_from: ts(r.validFrom), valid_to: r.validTo === null ? null : ts(r.validTo), bps: r.rateBps }));
    const res = await this.pool.query<GroupRow>(GROUPS_SQL, [
      scope.accountId.toString(),
      ts(scope.start),
      ts(scope.endExclusive),
      scope.upToSequence?.toString() ?? null,
      scope.returnCurrency,
      JSON.stringify(windows),
      JSON.stringify(std),
    ]);
    return res.rows.map((r) => ({
      late: r.late,
      ownPeriod: r.own_period,
      eventType: r.event_type,
      classificationStatus: r.classification_status,
      rateCategory: r.rate_category,
      supplyKind: r.supply_kind,
      customerType: r.customer_type,
      countryOfConsumption: r.country_of_consumption,
      dispatchCountry: r.dispatch_country,
      supplierEstablishmentCountry: r.supplier_establishment_country,
      sourceId: r.source_id,
      vatRateBps: r.vat_rate_bps,
      rateIsStandard: r.rate_is_standard,
      currency: r.currency,
      link: r.link,
      originalPeriod: r.original_period,
      count: r.n,
      netSum: BigInt(r.net_sum),
      vatSum: BigInt(r.vat_sum),
      unitNet: r.unit_net === null ? null : BigInt(r.unit_net),
      unitVat: r.unit_vat === null ? null : BigInt(r.unit_vat),
    }));
  }
}
