import { Migration } from '@mikro-orm/migrations';

export class Migration20261122131202 extends Migration {

  override name = 'Migration20261122131202';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "ledger";`);
    this.addSql(`create table "ledger"."outbox" ("id" uuid not null, "subject" varchar(200) not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "claimed_until" timestamptz null, "attempts" int not null default 0, primary key ("id"));`);
    this.addSql(`create index "outbox_created_at_index" on "ledger"."outbox" ("created_at");`);
    this.addSql(`create index "outbox_published_at_index" on "ledger"."outbox" ("published_at");`);

    this.addSql(`create table "ledger"."supply_event" ("id" uuid not null, "account_id" bigint not null, "event_type" varchar(20) not null, "supply_kind" varchar(40) not null, "classification_status" varchar(20) not null, "occurred_at" timestamptz not null, "member_state_of_consumption" varchar(2) not null, "currency" varchar(3) not null, "taxable_amount_minor" bigint not null, "vat_amount_minor" bigint not null, "vat_rate_bps" int not null, "rate_category" varchar(20) not null, "original_event_id" uuid null, "committed_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "supply_event_account_id_index" on "ledger"."supply_event" ("account_id");`);
    this.addSql(`create index "supply_event_occurred_at_index" on "ledger"."supply_event" ("occurred_at");`);
  }

}
