import { Migration } from '@mikro-orm/migrations';

/**
 * Article 59c amounts in other currencies (issue 19, point 4): each event's ECB rate evidence as the ledger
 * attached it, and per running total the events' amounts converted (per event) into each threshold currency.
 */
export class Migration20261127011000 extends Migration {

  override name = 'Migration20261127011000';

  override up(): void | Promise<void> {
    this.addSql(`create table "thresholds"."article59c_rate_evidence" ("account_id" bigint not null, "event_id" varchar(100) not null, "rate_date" varchar(10) not null, "rates" jsonb not null, primary key ("account_id", "event_id"));`);
    this.addSql(`alter table "thresholds"."article59c_bucket" add "converted_minor" jsonb not null default '{}', add "converted_count" jsonb not null default '{}';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "thresholds"."article59c_rate_evidence" cascade;`);
    this.addSql(`alter table "thresholds"."article59c_bucket" drop column "converted_minor", drop column "converted_count";`);
  }

}
