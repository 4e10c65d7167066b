import { Migration } from '@mikro-orm/migrations';

export class Migration20261122131150 extends Migration {

  override name = 'Migration20261122131150';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "gateway";`);
    this.addSql(`create table "gateway"."account" ("id" bigserial primary key, "name" varchar(200) not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "gateway"."account" add constraint "account_name_unique" unique ("name");`);

    this.addSql(`create table "gateway"."api_key" ("id" bigserial primary key, "account_id" bigint not null, "public_id" varchar(32) not null, "secret_hash" varchar(64) not null, "kind" varchar(10) not null, "scope" varchar(40) not null, "label" varchar(200) null, "created_at" timestamptz not null, "revoked_at" timestamptz null, "calculation_count" bigint not null default '0', "last_calculation_at" timestamptz null);`);
    this.addSql(`create index "api_key_account_id_index" on "gateway"."api_key" ("account_id");`);
    this.addSql(`alter table "gateway"."api_key" add constraint "api_key_public_id_unique" unique ("public_id");`);

    this.addSql(`create table "gateway"."integration" ("id" bigserial primary key, "account_id" bigint not null, "name" varchar(200) not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "integration_account_id_index" on "gateway"."integration" ("account_id");`);

    this.addSql(`create table "gateway"."processed_event" ("event_id" varchar(100) not null, "consumer" varchar(100) not null, "processed_at" timestamptz not null, primary key ("event_id"));`);
  }

}
