import { Migration } from '@mikro-orm/migrations';

export class Migration20261122131154 extends Migration {

  override name = 'Migration20261122131154';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "classification";`);
    this.addSql(`create table "classification"."catalog_code" ("id" bigserial primary key, "edition_id" bigint not null, "normalized_code" varchar(20) not null, "display_code" varchar(24) not null, "description" text not null, "source_url" varchar(500) not null, "recorded_at" timestamptz not null);`);
    this.addSql(`create index "catalog_code_edition_id_index" on "classification"."catalog_code" ("edition_id");`);
    this.addSql(`alter table "classification"."catalog_code" add constraint "catalog_code_edition_id_normalized_code_unique" unique ("edition_id", "normalized_code");`);

    this.addSql(`create table "classification"."catalog_edition" ("id" bigserial primary key, "scheme" varchar(3) not null, "version" varchar(40) not null, "status" varchar(20) not null, "applicable_from" varchar(10) not null, "applicable_to" varchar(10) null, "digest" varchar(80) not null, "approved_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "classification"."catalog_edition" add constraint "catalog_edition_scheme_version_digest_unique" unique ("scheme", "version", "digest");`);

    this.addSql(`create table "classification"."coverage_manifest" ("name" varchar(60) not null, "digest" varchar(80) not null, "published_at" timestamptz not null, primary key ("name"));`);

    this.addSql(`create table "classification"."outbox" ("id" uuid not null, "subject" varchar(200) not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "claimed_until" timestamptz null, "attempts" int not null default 0, primary key ("id"));`);
    this.addSql(`create index "outbox_created_at_index" on "classification"."outbox" ("created_at");`);
    this.addSql(`create index "outbox_published_at_index" on "classification"."outbox" ("published_at");`);
  }

}
