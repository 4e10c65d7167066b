import { Migration } from '@mikro-orm/migrations';

/**
 * Thresholds keeps its own source-profile defaults, fed by calculation's `SourceProfileChanged` (calculation
 * publishes every profile once at the start after this upgrade), instead of calling ListSources.
 */
export class Migration20261126233344 extends Migration {

  override name = 'Migration20261126233344';

  override up(): void | Promise<void> {
    this.addSql(`create table "thresholds"."source_profile_default" ("account_id" bigint not null, "source_key" varchar(100) not null, "profile_id" bigint not null, "revision" int not null, "supplier_establishment_country" varchar(2) null, "dispatch_country" varchar(2) null, primary key ("account_id", "source_key"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "thresholds"."source_profile_default" cascade;`);
  }

}
