import { Migration } from '@mikro-orm/migrations';

export class Migration20261126234402 extends Migration {

  override name = 'Migration20261126234402';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."regional_vat_rate" ("id" bigserial primary key, "release_id" bigint not null, "country" varchar(2) not null, "region" varchar(6) not null, "rate_bps" int not null, "valid_from" varchar(10) not null, "valid_to" varchar(10) null, "rate_type" varchar(20) not null, "sources" jsonb not null, "legal_ref" text null, "review_status" varchar(30) not null, "note" text null, "row_digest" varchar(80) not null);`);
    this.addSql(`create index "regional_vat_rate_release_id_index" on "calculation"."regional_vat_rate" ("release_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "calculation"."regional_vat_rate" cascade;`);
  }

}
