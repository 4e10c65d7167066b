import { Migration } from '@mikro-orm/migrations';

export class Migration20261122131157 extends Migration {

  override name = 'Migration20261122131157';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "compliance_reports";`);
    this.addSql(`create table "compliance_reports"."outbox" ("id" uuid not null, "subject" varchar(200) not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "claimed_until" timestamptz null, "attempts" int not null default 0, primary key ("id"));`);
    this.addSql(`create index "outbox_created_at_index" on "compliance_reports"."outbox" ("created_at");`);
    this.addSql(`create index "outbox_published_at_index" on "compliance_reports"."outbox" ("published_at");`);

    this.addSql(`create table "compliance_reports"."tax_registration" ("id" bigserial primary key, "account_id" bigint not null, "scheme_type" varchar(20) not null, "member_state_identification" varchar(2) not null, "vat_registration_number_masked" varchar(40) null, "ioss_intermediary_name" varchar(200) null, "ioss_intermediary_number_masked" varchar(40) null, "effective_from" varchar(10) not null, "effective_to" varchar(10) null, "status" varchar(10) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tax_registration_account_id_index" on "compliance_reports"."tax_registration" ("account_id");`);
  }

}
