import { Migration } from '@mikro-orm/migrations';

/**
 * The ECB history as one text per import marker (issue 24, start time): a start reads one row and splits it
 * instead of aggregating ~7,000 day rows into JSON and parsing it (the history into memory: ≈ 95 → ≈ 25 ms of a restart). A cache of
 * `ecb_rate_day`, named by the marker it was made at; the next start after this migration makes it. Stored
 * uncompressed (`storage external`, 1.7 MB): decompressing it cost the embedded database more than reading it.
 */

export class Migration20261130014823 extends Migration {

  override name = 'Migration20261130014823';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."ecb_rate_snapshot" ("marker" varchar(60) not null, "body" text not null, "created_at" timestamptz not null, primary key ("marker"));`);
    this.addSql(`alter table "calculation"."ecb_rate_snapshot" alter column "body" set storage external;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "calculation"."ecb_rate_snapshot" cascade;`);
  }

}
