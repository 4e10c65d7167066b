import { Migration } from '@mikro-orm/migrations';

/**
 * Article 59c running totals, the immutable crossing record, threshold releases and notifications.
 * A stored crossing and a stored release are immutable in the database itself: a trigger refuses
 * UPDATE, DELETE and TRUNCATE for every role.
 */
export class Migration20261124020101 extends Migration {

  override name = 'Migration20261124020101';

  override up(): void | Promise<void> {
    this.addSql(`create table "thresholds"."article59c_bucket" ("account_id" bigint not null, "bucket_key" varchar(400) not null, "year" int not null, "occurred_on" varchar(10) not null, "event_class" varchar(12) not null, "link_state" varchar(10) not null, "supply_kind" varchar(30) not null, "customer_type" varchar(3) not null, "classification_status" varchar(20) not null, "country_of_consumption" varchar(2) not null, "dispatch_country" varchar(2) null, "supplier_establishment_country" varchar(2) null, "currency" varchar(3) not null, "source_id" varchar(100) null, "event_count" bigint not null, "net_minor" numeric(38,0) not null, "max_recorded_at" timestamptz not null, primary key ("account_id", "bucket_key"));`);
    this.addSql(`create index "article59c_bucket_account_id_year_index" on "thresholds"."article59c_bucket" ("account_id", "year");`);

    this.addSql(`create table "thresholds"."article59c_crossing" ("account_id" bigint not null, "year" int not null, "event_id" varchar(100) not null, "sequence" bigint not null, "occurred_at" timestamptz not null, "recorded_at" timestamptz not null, "event_amount_minor" bigint not null, "cumulative_minor" numeric(38,0) not null, "threshold_minor" bigint not null, "currency" varchar(3) not null, "establishment_country" varchar(2) not null, "release_version" varchar(80) not null, "policy_version" varchar(40) not null, "proven_at" timestamptz not null, primary key ("account_id", "year"));`);

    this.addSql(`create table "thresholds"."article59c_pending_correction" ("fact_id" uuid not null, "account_id" bigint not null, "original_event_id" varchar(100) not null, "bucket_key" varchar(400) not null, primary key ("fact_id"));`);
    this.addSql(`create index "article59c_pending_correction_account_id_original__a31ac_index" on "thresholds"."article59c_pending_correction" ("account_id", "original_event_id");`);

    this.addSql(`create table "thresholds"."article59c_release" ("version" varchar(80) not null, "digest" varchar(80) not null, "document" jsonb not null, "loaded_at" timestamptz not null, primary key ("version"));`);

    this.addSql(`create table "thresholds"."threshold_notification" ("id" bigserial primary key, "account_id" bigint not null, "year" int not null, "kind" varchar(40) not null, "event_id" varchar(100) not null, "cumulative_minor" numeric(38,0) not null, "threshold_minor" bigint not null, "currency" varchar(3) not null, "occurred_at" timestamptz not null, "recorded_at" timestamptz not null, "created_at" timestamptz not null, "read_at" timestamptz null);`);
    this.addSql(`create index "threshold_notification_account_id_id_index" on "thresholds"."threshold_notification" ("account_id", "id");`);
    this.addSql(`alter table "thresholds"."threshold_notification" add constraint "threshold_notification_account_id_year_kind_unique" unique ("account_id", "year", "kind");`);
    this.addSql(`create function "thresholds".refuse_immutable_change() returns trigger language plpgsql as $$
      begin
        raise exception '% is immutable: % is refused', tg_table_name, tg_op using errcode = 'restrict_violation';
      end $$;`);
    for (const table of ['article59c_crossing', 'article59c_release']) {
      this.addSql(`create trigger ${table}_immutable before update or delete on "thresholds"."${table}" for each row execute function "thresholds".refuse_immutable_change();`);
      this.addSql(`create trigger ${table}_no_truncate before truncate on "thresholds"."${table}" for each statement execute function "thresholds".refuse_immutable_change();`);
    }
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "thresholds"."article59c_bucket" cascade;`);
    this.addSql(`drop table if exists "thresholds"."article59c_crossing" cascade;`);
    this.addSql(`drop table if exists "thresholds"."article59c_pending_correction" cascade;`);
    this.addSql(`drop table if exists "thresholds"."article59c_release" cascade;`);
    this.addSql(`drop table if exists "thresholds"."threshold_notification" cascade;`);
    this.addSql(`drop function if exists "thresholds".refuse_immutable_change();`);
  }

}
