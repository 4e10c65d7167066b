import { Migration } from '@mikro-orm/migrations';

/**
 * What calculation has published for the other services' projections (`reference_publication`): the rate
 * release, each ECB import, and the one-off replays of calculations and source profiles. An upgraded database
 * has no row yet, so its first start publishes the current release, every stored ECB day, every calculation
 * and every profile once (docs/architecture.md, "The service graph").
 */
export class Migration20261128080751 extends Migration {

  override name = 'Migration20261128080751';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."reference_publication" ("kind" varchar(20) not null, "release_id" bigint not null, "published_at" timestamptz not null, primary key ("kind", "release_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "calculation"."reference_publication" cascade;`);
  }

}
