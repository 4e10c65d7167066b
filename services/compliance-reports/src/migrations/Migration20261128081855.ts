import { Migration } from '@mikro-orm/migrations';

const S = '"compliance_reports"';

/** The grouping columns of a running total (nulls equal: one row per key). */
export const KEY = `account_id, day, is_sale, classification_status, rate_category, supply_kind, customer_type, country_of_consumption, dispatch_country,
  supplier_establishment_country, source_id, vat_rate_bps, currency, link, original_period, unit_net, unit_vat`;

/**
 * What facts contribute to the totals, `sign` each (a transition table or the whole projection as `f`),
 * with a correction's link to its original resolved as the return's scan resolves it.
 */
export const contributions = (from: string, sign: string, asMissing = false) => `
  select f.account_id, (f.occurred_at at time zone 'UTC')::date as day, f.event_type = 'sale' as is_sale, f.classification_status, f.rate_category, f.supply_kind,
    f.customer_type, f.country_of_consumption, f.dispatch_country, f.supplier_establishment_country,
    case when (f.supply_kind = 'goods' and f.dispatch_country is null) or (f.supply_kind = 'services' and f.supplier_establishment_country is null) then f.source_id end as source_id,
    f.vat_rate_bps, f.currency,
    case when f.event_type = 'sale' then 'none'
         when ${asMissing} or o.event_type is null then 'missing'
         when o.event_type <> 'sale' or o.country_of_consumption <> f.country_of_consumption or o.currency <> f.currency then 'invalid'
         else 'ok' end as link,
    case when not ${asMissing} then to_char(o.occurred_at at time zone 'UTC', 'YYYY-"Q"Q') end as original_period,
    case when f.currency <> 'EUR' then f.net_amount_minor end as unit_net,
    case when f.currency <> 'EUR' then f.vat_amount_minor end as unit_vat,
    ${sign}::bigint as n, ${sign} * f.net_amount_minor as net, ${sign} * f.vat_amount_minor as vat, ${sign} * f.decision_generation as gen
  from ${from}
  left join lateral (
    select o.event_type, o.country_of_consumption, o.currency, o.occurred_at from ${S}.supply_fact o
     where f.event_type <> 'sale' and o.account_id = f.account_id and o.event_id = f.original_event_id limit 1
  ) o on true`;

/**
 * Corrections projected before their original (which is among the new facts, and had no earlier copy):
 * counted as `missing` until now, they move to their link.
 */
const RELINKED = `(select distinct on (c.id) c.* from new_facts n join ${S}.supply_fact c on c.account_id = n.account_id and c.original_event_id = n.event_id
   where c.event_type <> 'sale' and not exists (select 1 from new_facts x where x.id = c.id)
     and not exists (select 1 from ${S}.supply_fact e where e.account_id = n.account_id and e.event_id = n.event_id and not exists (select 1 from new_facts y where y.id = e.id))) f`;

/** Adds signed contributions (`rows`: a select of contributions) to the totals, one upsert per key. */
export const upsert = (rows: string) => `
  insert into ${S}.union_oss_day_total (${KEY}, event_count, net_sum, vat_sum, decision_generation_sum)
  select ${KEY}, sum(n), sum(net), sum(vat), sum(gen) from (${rows}) c group by ${KEY}
  on conflict (${KEY}) do update set event_count = union_oss_day_total.event_count + excluded.event_count,
    net_sum = union_oss_day_total.net_sum + excluded.net_sum, vat_sum = union_oss_day_total.vat_sum + excluded.vat_sum,
    decision_generation_sum = union_oss_day_total.decision_generation_sum + excluded.decision_generation_sum`;

/**
 * Running totals of the supply projection for Union OSS returns (issue 24): a return reads the quarter's
 * day totals instead of scanning its facts. Statement triggers keep them: inserted facts add, an update
 * (a classification decision) moves a fact from its old key to its new one, and a fact that is the
 * original of corrections projected before it moves them from `missing` to their link.
 */
export class Migration20261128081855 extends Migration {

  override name = 'Migration20261128081855';

  override up(): void | Promise<void> {
    this.addSql(`create table ${S}."union_oss_day_total" ("id" bigserial primary key, "account_id" bigint not null, "day" date not null, "is_sale" boolean not null, "classification_status" varchar(20) not null, "rate_category" varchar(20) not null, "supply_kind" varchar(30) not null, "customer_type" varchar(3) not null, "country_of_consumption" varchar(2) not null, "dispatch_country" varchar(2) null, "supplier_establishment_country" varchar(2) null, "source_id" varchar(100) null, "vat_rate_bps" int not null, "currency" varchar(3) not null, "link" varchar(10) not null, "original_period" varchar(7) null, "unit_net" bigint null, "unit_vat" bigint null, "event_count" bigint not null, "net_sum" bigint not null, "vat_sum" bigint not null, "decision_generation_sum" bigint not null);`);
    this.addSql(`create unique index union_oss_day_total_key on ${S}.union_oss_day_total (${KEY}) nulls not distinct;`);
    // The corrections naming an original, found when the original arrives.
    this.addSql(`create index supply_fact_original_event on ${S}.supply_fact (account_id, original_event_id) where original_event_id is not null;`);
    this.addSql(`create function ${S}.union_oss_totals_insert() returns trigger language plpgsql as $$
      begin
        ${upsert(`${contributions('new_facts f', '1')} union all ${contributions(RELINKED, '1')} union all ${contributions(RELINKED, '-1', true)}`)};
        return null;
      end $$;`);
    this.addSql(`create function ${S}.union_oss_totals_update() returns trigger language plpgsql as $$
      begin
        ${upsert(`${contributions('old_facts f', '-1')} union all ${contributions('new_facts f', '1')}`)};
        return null;
      end $$;`);
    this.addSql(`create trigger supply_fact_union_oss_totals_insert after insert on ${S}.supply_fact referencing new table as new_facts for each statement execute function ${S}.union_oss_totals_insert();`);
    this.addSql(`create trigger supply_fact_union_oss_totals_update after update on ${S}.supply_fact referencing old table as old_facts new table as new_facts for each statement execute function ${S}.union_oss_totals_update();`);
    this.addSql(`create function ${S}.refuse_supply_fact_delete() returns trigger language plpgsql as $$
      begin
        raise exception 'supply facts are never deleted (the Union OSS running totals count them): % is refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger supply_fact_no_delete before delete on ${S}.supply_fact for each row execute function ${S}.refuse_supply_fact_delete();`);
    this.addSql(`create trigger supply_fact_no_truncate before truncate on ${S}.supply_fact for each statement execute function ${S}.refuse_supply_fact_delete();`);
    // The facts projected so far.
    this.addSql(`${upsert(contributions(`${S}.supply_fact f`, '1'))};`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists supply_fact_union_oss_totals_insert on ${S}.supply_fact;`);
    this.addSql(`drop trigger if exists supply_fact_union_oss_totals_update on ${S}.supply_fact;`);
    this.addSql(`drop trigger if exists supply_fact_no_delete on ${S}.supply_fact;`);
    this.addSql(`drop trigger if exists supply_fact_no_truncate on ${S}.supply_fact;`);
    this.addSql(`drop function if exists ${S}.union_oss_totals_insert();`);
    this.addSql(`drop function if exists ${S}.union_oss_totals_update();`);
    this.addSql(`drop function if exists ${S}.refuse_supply_fact_delete();`);
    this.addSql(`drop index if exists ${S}.supply_fact_original_event;`);
    this.addSql(`drop table if exists ${S}."union_oss_day_total" cascade;`);
  }

}
