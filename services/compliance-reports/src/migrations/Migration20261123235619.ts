import { Migration } from '@mikro-orm/migrations';

export class Migration20261123235619 extends Migration {

  override name = 'Migration20261123235619';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."processed_event" ("consumer" varchar(100) not null, "event_id" varchar(100) not null, "processed_at" timestamptz not null, primary key ("consumer", "event_id"));`);

    this.addSql(`create table "compliance_reports"."supply_fact" ("id" uuid not null, "account_id" bigint not null, "sequence" bigint not null, "event_id" varchar(100) not null, "recorded_at" timestamptz not null, "event_type" varchar(20) not null, "original_event_id" varchar(100) null, "occurred_at" timestamptz not null, "supply_kind" varchar(30) not null, "customer_type" varchar(3) not null, "country_of_consumption" varchar(2) not null, "dispatch_country" varchar(2) null, "supplier_establishment_country" varchar(2) null, "currency" varchar(3) not null, "net_amount_minor" bigint not null, "vat_amount_minor" bigint not null, "vat_rate_bps" int not null, "rate_category" varchar(20) not null, "classification_status" varchar(20) not null, "tax_class_id" varchar(60) null, "product_reference" varchar(200) null, "order_reference" varchar(200) null, "integration_id" bigint null, "source_id" varchar(100) null, "consignment_reference" varchar(100) null, "intrinsic_value_eur_minor" bigint null, "third_country_origin" varchar(2) null, "excise_goods" boolean null, primary key ("id"));`);
    this.addSql(`create index "supply_fact_account_id_occurred_at_index" on "compliance_reports"."supply_fact" ("account_id", "occurred_at");`);
    this.addSql(`create index "supply_fact_account_id_event_id_index" on "compliance_reports"."supply_fact" ("account_id", "event_id");`);
    this.addSql(`alter table "compliance_reports"."supply_fact" add constraint "supply_fact_account_id_sequence_unique" unique ("account_id", "sequence");`);

    this.addSql(`create table "compliance_reports"."supply_projection_position" ("account_id" bigint not null, "applied" bigint not null, primary key ("account_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "compliance_reports"."processed_event" cascade;`);
    this.addSql(`drop table if exists "compliance_reports"."supply_fact" cascade;`);
    this.addSql(`drop table if exists "compliance_reports"."supply_projection_position" cascade;`);
  }

}
