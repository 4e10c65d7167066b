import { Migration } from '@mikro-orm/migrations';

/**
 * Source-profile changes are published (`SourceProfileChanged`): the latest revision of each profile
 * written to the outbox. Profiles stored before have no row, so the first start publishes them once.
 */
export class Migration20261126233211 extends Migration {

  override name = 'Migration20261126233211';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."source_profile_publication" ("profile_id" bigint not null, "revision" int not null, "event_id" uuid not null, "recorded_at" timestamptz not null, primary key ("profile_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "calculation"."source_profile_publication" cascade;`);
  }

}
