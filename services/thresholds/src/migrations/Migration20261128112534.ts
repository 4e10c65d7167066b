import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26: VIES evidence of b2b supplies in the Article 59c running totals (from compliance-reports'
 * VatNumberChecked). Facts and running totals projected before have no check yet: each b2b one is
 * `missing` (flagged for review) until a check of its number arrives; its running-total key gains the suffix.
 */
export class Migration20261128112534 extends Migration {

  override name = 'Migration20261128112534';

  override up(): void | Promise<void> {
    this.addSql(`create table "thresholds"."article59c_b2b_fact" ("fact_id" uuid not null, "account_id" bigint not null, "vat_number_digest" varchar(64) null, "occurred_at" timestamptz not null, "evidence" varchar(10) not null, primary key ("fact_id"));`);
    this.addSql(`create index "article59c_b2b_fact_account_id_vat_number_digest_o_b4aee_index" on "thresholds"."article59c_b2b_fact" ("account_id", "vat_number_digest", "occurred_at");`);

    this.addSql(`create table "thresholds"."vat_number_evidence" ("account_id" bigint not null, "check_id" bigint not null, "vat_number_digest" varchar(64) not null, "result" varchar(20) not null, "checked_at" timestamptz not null, primary key ("account_id", "check_id"));`);
    this.addSql(`create index "vat_number_evidence_account_id_vat_number_digest_c_b4fd1_index" on "thresholds"."vat_number_evidence" ("account_id", "vat_number_digest", "checked_at");`);

    this.addSql(`create table "thresholds"."vat_number_evidence_position" ("account_id" bigint not null, "checks_applied" bigint not null, primary key ("account_id"));`);

    this.addSql(`alter table "thresholds"."article59c_bucket" add "vat_number_evidence" varchar(10) null;`);

    this.addSql(`insert into "thresholds"."article59c_b2b_fact" ("fact_id", "account_id", "vat_number_digest", "occurred_at", "evidence")
      select "id", "account_id", "customer_vat_number_digest", "occurred_at", 'missing' from "thresholds"."supply_fact" where "customer_type" = 'b2b';`);
    this.addSql(`update "thresholds"."article59c_pending_correction" p set "bucket_key" = p."bucket_key" || '|missing'
      from "thresholds"."supply_fact" f where f."id" = p."fact_id" and f."customer_type" = 'b2b';`);
    this.addSql(`update "thresholds"."article59c_bucket" set "vat_number_evidence" = 'missing', "bucket_key" = "bucket_key" || '|missing' where "customer_type" = 'b2b';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "thresholds"."article59c_pending_correction" set "bucket_key" = regexp_replace("bucket_key", '[|](valid|missing)$', '') where "fact_id" in (select "fact_id" from "thresholds"."article59c_b2b_fact");`);
    // A b2b fact's `valid` and `missing` running totals become one again (amounts, counts and converted sums added).
    this.addSql(`with d as (delete from "thresholds"."article59c_bucket" where "customer_type" = 'b2b' returning *),
      g as (select account_id, regexp_replace(bucket_key, '[|](valid|missing)$', '') as bucket_key, min(year) as year, min(occurred_on) as occurred_on, min(event_class) as event_class,
              min(link_state) as link_state, min(supply_kind) as supply_kind, min(customer_type) as customer_type, min(classification_status) as classification_status,
              min(country_of_consumption) as country_of_consumption, min(dispatch_country) as dispatch_country, min(supplier_establishment_country) as supplier_establishment_country,
              min(currency) as currency, min(source_id) as source_id, sum(event_count) as event_count, sum(net_minor) as net_minor, max(max_recorded_at) as max_recorded_at,
              jsonb_agg(converted_minor) as cm, jsonb_agg(converted_count) as cc
            from d group by 1, 2)
      insert into "thresholds"."article59c_bucket" (account_id, bucket_key, year, occurred_on, event_class, link_state, supply_kind, customer_type, classification_status,
        country_of_consumption, dispatch_country, supplier_establishment_country, currency, source_id, event_count, net_minor, max_recorded_at, converted_minor, converted_count)
      select account_id, bucket_key, year, occurred_on, event_class, link_state, supply_kind, customer_type, classification_status, country_of_consumption, dispatch_country,
        supplier_establishment_country, currency, source_id, event_count, net_minor, max_recorded_at,
        (select coalesce(jsonb_object_agg(e.k, e.s::text), '{}'::jsonb) from (select x.key as k, sum(x.value::numeric) as s from jsonb_array_elements(g.cm) a, jsonb_each_text(a.value) x group by x.key) e),
        (select coalesce(jsonb_object_agg(e.k, e.s::text), '{}'::jsonb) from (select x.key as k, sum(x.value::numeric) as s from jsonb_array_elements(g.cc) a, jsonb_each_text(a.value) x group by x.key) e)
      from g;`);
    this.addSql(`drop table if exists "thresholds"."article59c_b2b_fact" cascade;`);
    this.addSql(`drop table if exists "thresholds"."vat_number_evidence" cascade;`);
    this.addSql(`drop table if exists "thresholds"."vat_number_evidence_position" cascade;`);

    this.addSql(`alter table "thresholds"."article59c_bucket" drop column "vat_number_evidence";`);
  }

}
