import { Migration } from '@mikro-orm/migrations';

export class Migration20261122131159 extends Migration {

  override name = 'Migration20261122131159';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "thresholds";`);
    this.addSql(`create table "thresholds"."outbox" ("id" uuid not null, "subject" varchar(200) not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "claimed_until" timestamptz null, "attempts" int not null default 0, primary key ("id"));`);
    this.addSql(`create index "outbox_created_at_index" on "thresholds"."outbox" ("created_at");`);
    this.addSql(`create index "outbox_published_at_index" on "thresholds"."outbox" ("published_at");`);

    this.addSql(`create table "thresholds"."sme_threshold_release" ("digest" varchar(80) not null, "document" jsonb not null, "row_count" int not null, "loaded_at" timestamptz not null, primary key ("digest"));`);
  }

}
