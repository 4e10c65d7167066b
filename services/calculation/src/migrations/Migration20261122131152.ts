import { Migration } from '@mikro-orm/migrations';

export class Migration20261122131152 extends Migration {

  override name = 'Migration20261122131152';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "calculation";`);
    this.addSql(`create table "calculation"."calculation" ("seq" bigserial primary key, "id" uuid not null, "account_id" bigint not null, "api_key_id" bigint not null, "created_at" timestamptz not null, "transaction_date" timestamptz not null, "country" varchar(2) not null, "currency" varchar(3) not null, "tax_class_id" varchar(60) not null, "price_includes_vat" boolean not null, "amount_minor" bigint not null, "net_minor" bigint not null, "vat_minor" bigint not null, "gross_minor" bigint not null, "vat_rate_bps" int not null, "source_id" varchar(100) null, "idempotency_key" varchar(255) null, "request_digest" varchar(80) not null, "canonical_request" jsonb not null, "rate_evidence" jsonb not null, "rate_evidence_status" varchar(30) not null, "replay_status" varchar(20) not null, "calculation_version" varchar(60) not null, "execution_digest" varchar(80) not null, "manifest_digest" varchar(80) not null);`);
    this.addSql(`alter table "calculation"."calculation" add constraint "calculation_id_unique" unique ("id");`);
    this.addSql(`create index "calculation_account_id_seq_index" on "calculation"."calculation" ("account_id", "seq");`);
    this.addSql(`create index "calculation_account_id_transaction_date_index" on "calculation"."calculation" ("account_id", "transaction_date");`);
    this.addSql(`create index "calculation_account_id_source_id_index" on "calculation"."calculation" ("account_id", "source_id");`);
    this.addSql(`alter table "calculation"."calculation" add constraint "calculation_account_id_idempotency_key_unique" unique ("account_id", "idempotency_key");`);

    this.addSql(`create table "calculation"."ecb_rate" ("currency" varchar(3) not null, "rate_date" varchar(10) not null, "rate" numeric(18,6) not null, primary key ("currency", "rate_date"));`);

    this.addSql(`create table "calculation"."outbox" ("id" uuid not null, "subject" varchar(200) not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "claimed_until" timestamptz null, "attempts" int not null default 0, primary key ("id"));`);
    this.addSql(`create index "outbox_created_at_index" on "calculation"."outbox" ("created_at");`);
    this.addSql(`create index "outbox_published_at_index" on "calculation"."outbox" ("published_at");`);

    this.addSql(`create table "calculation"."reference_release" ("id" bigserial primary key, "kind" varchar(20) not null, "digest" varchar(80) not null, "version" varchar(40) not null, "row_count" int not null, "loaded_at" timestamptz not null, "approved_at" timestamptz null, "approved_by" varchar(200) null);`);
    this.addSql(`alter table "calculation"."reference_release" add constraint "reference_release_kind_digest_unique" unique ("kind", "digest");`);

    this.addSql(`create table "calculation"."source_profile" ("id" bigserial primary key, "account_id" bigint not null, "source_key" varchar(100) not null, "display_name" varchar(200) not null, "channel_type" varchar(20) not null, "platform" varchar(100) null, "default_country" varchar(2) null, "default_currency" varchar(3) null, "supplier_establishment_country" varchar(2) null, "dispatch_country" varchar(2) null, "marketplace_deemed_supplier" boolean not null, "active" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "calculation"."source_profile" add constraint "source_profile_account_id_source_key_unique" unique ("account_id", "source_key");`);

    this.addSql(`create table "calculation"."tax_class" ("id" varchar(60) not null, "name" varchar(200) not null, "description" text not null, "source" text not null, "group_slug" varchar(60) not null, "group_name" varchar(200) not null, "tags" jsonb not null, "annex_iii_points" jsonb not null, "sort_order" int not null, primary key ("id"));`);

    this.addSql(`create table "calculation"."vat_rate" ("id" bigserial primary key, "release_id" bigint not null, "country" varchar(2) not null, "tax_class_id" varchar(60) not null, "rate_bps" int not null, "valid_from" varchar(10) not null, "valid_to" varchar(10) null, "rate_type" varchar(20) not null, "conditional" boolean not null, "conditions" text null, "sources" jsonb not null, "legal_ref" text null, "tedb_category" text null, "review_status" varchar(30) not null, "note" text null, "row_digest" varchar(80) not null);`);
    this.addSql(`create index "vat_rate_release_id_index" on "calculation"."vat_rate" ("release_id");`);
    this.addSql(`create index "vat_rate_release_id_country_tax_class_id_valid_from_index" on "calculation"."vat_rate" ("release_id", "country", "tax_class_id", "valid_from");`);
  }

}
