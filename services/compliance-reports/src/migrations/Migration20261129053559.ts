import { Migration } from '@mikro-orm/migrations';

const S = '"compliance_reports"';

/** The grouping columns of an IOSS running total (nulls equal: one row per key). */
const KEY = `account_id, day, kind, original_event_id, customer_type, classification_status, rate_category, excise_goods, has_origin, consignment_value,
  vat_rate_bps, country_of_consumption, currency, unit_net, unit_vat`;

/**
 * What an imported-goods fact adds to the totals, `sign` each: exactly the first step (`g`) of the IOSS read
 * (repositories/ioss-facts.ts), per UTC day instead of per month and coverage segment (both are unions of days).
 * The EUR 150 test is written with its amount (Art. 369l of Directive 2006/112/EC: EUR 150 intrinsic value,
 * `IOSS_CONSIGNMENT_CEILING_EUR_MINOR`); a change of that amount needs a migration that rebuilds the totals.
 */
const contributions = (from: string, sign: string) => `
  select f.account_id, (f.occurred_at at time zone 'UTC')::date as day,
    case when f.event_type = 'sale' then 'sale' when f.event_type in ('refund', 'cancellation', 'credit_note', 'adjustment') then 'correction' else 'other' end as kind,
    case when f.event_type in ('refund', 'cancellation', 'credit_note', 'adjustment') then f.original_event_id end as original_event_id,
    case when f.event_type = 'sale' then f.customer_type end as customer_type,
    case when f.event_type = 'sale' then f.classification_status end as classification_status,
    case when f.event_type = 'sale' then f.rate_category end as rate_category,
    case when f.event_type = 'sale' then coalesce(f.excise_goods, false) end as excise_goods,
    case when f.event_type = 'sale' then coalesce(f.third_country_origin, '') <> '' end as has_origin,
    case when f.event_type = 'sale' then
      case when f.intrinsic_value_eur_minor is not null then case when f.intrinsic_value_eur_minor > 15000 then 'above' else 'within' end
           when f.currency = 'EUR' then case when abs(f.net_amount_minor) > 15000 then 'above' else 'within' end
           else 'unverified' end end as consignment_value,
    case when f.event_type = 'sale' then f.vat_rate_bps end as vat_rate_bps,
    f.country_of_consumption, f.currency,
    case when f.currency <> 'EUR' then f.net_amount_minor end as unit_net,
    case when f.currency <> 'EUR' then f.vat_amount_minor end as unit_vat,
    ${sign}::bigint as n, ${sign} * f.net_amount_minor as net, ${sign} * f.vat_amount_minor as vat
  from ${from}
  where f.supply_kind = 'imported_goods'`;

/** Adds signed contributions (`rows`) to the totals grouped by `key` (their unique key), one upsert per key (also Migration20261130080000's). */
export const iossTotalsUpsert = (key: string) => (rows: string) => `
  insert into ${S}.ioss_day_total (${key}, event_count, net_sum, vat_sum)
  select ${key}, sum(n), sum(net), sum(vat) from (${rows}) c group by ${key}
  on conflict (${key}) do update set event_count = ioss_day_total.event_count + excluded.event_count,
    net_sum = ioss_day_total.net_sum + excluded.net_sum, vat_sum = ioss_day_total.vat_sum + excluded.vat_sum`;
const upsert = iossTotalsUpsert(KEY);

/** The statements of `up` (Migration20261130080000's down restores them). */
export const IOSS_TOTALS_V1: string[] = [
  `create table ${S}."ioss_day_total" ("id" bigserial primary key, "account_id" bigint not null, "day" date not null, "kind" varchar(10) not null, "original_event_id" varchar(100) null, "customer_type" varchar(3) null, "classification_status" varchar(20) null, "rate_category" varchar(20) null, "excise_goods" boolean null, "has_origin" boolean null, "consignment_value" varchar(10) null, "vat_rate_bps" int null, "country_of_consumption" varchar(2) not null, "currency" varchar(3) not null, "unit_net" bigint null, "unit_vat" bigint null, "event_count" bigint not null, "net_sum" bigint not null, "vat_sum" bigint not null) with (fillfactor = 50);`,
  `create unique index ioss_day_total_key on ${S}.ioss_day_total (${KEY}) nulls not distinct;`,
  `create function ${S}.ioss_totals_insert() returns trigger language plpgsql as $$
      begin
        execute $q$ ${upsert(contributions('new_facts f', '1'))} $q$;
        return null;
      end $$;`,
  `create function ${S}.ioss_totals_update() returns trigger language plpgsql as $$
      begin
        execute $q$ ${upsert(`${contributions('old_facts f', '-1')} union all ${contributions('new_facts f', '1')}`)} $q$;
        return null;
      end $$;`,
  `create trigger supply_fact_ioss_totals_insert after insert on ${S}.supply_fact referencing new table as new_facts for each statement execute function ${S}.ioss_totals_insert();`,
  `create trigger supply_fact_ioss_totals_update after update on ${S}.supply_fact referencing old table as old_facts new table as new_facts for each statement execute function ${S}.ioss_totals_update();`,
  `${upsert(contributions(`${S}.supply_fact f`, '1'))};`,
];

/**
 * Running totals of the imported-goods facts for IOSS months (issue 24: filing-prep ≤ 0.5 s). A quarter's IOSS
 * read scanned every fact of the account's quarter (the whole table's pages: imported goods lie among the rest)
 * and grouped 200,000 of them (≈ 0.6 s of filing-prep's 0.9–1.1 s at 1,000,000 facts); it now reads these totals,
 * and only a correction still looks up its original, at read time, as before. Statement triggers keep them: an
 * inserted fact adds, an updated one (a classification decision) moves from its old key to its new one; facts are
 * never deleted. Each statement is `execute`d, planned per batch (as the Union OSS totals', Migration20261128150000),
 * and half of each page is left free so that an update of a total stays on its page (Migration20261128210000).
 */
export class Migration20261129053559 extends Migration {

  override name = 'Migration20261129053559';

  override up(): void | Promise<void> {
    for (const sql of IOSS_TOTALS_V1) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists supply_fact_ioss_totals_insert on ${S}.supply_fact;`);
    this.addSql(`drop trigger if exists supply_fact_ioss_totals_update on ${S}.supply_fact;`);
    this.addSql(`drop function if exists ${S}.ioss_totals_insert();`);
    this.addSql(`drop function if exists ${S}.ioss_totals_update();`);
    this.addSql(`drop table if exists ${S}."ioss_day_total" cascade;`);
  }

}
