import { Migration } from '@mikro-orm/migrations';

/**
 * How many rows a reference kind must hold to be complete, as calculation announces it
 * (`ExchangeRatesPublished.days_held`): the ECB days arrive in some 28 events, and the projection counts as
 * complete (ready, and answering conversions) only once it holds them all (docs/reference-data.md, "On request").
 */
export class Migration20261128190000 extends Migration {

  override name = 'Migration20261128190000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."reference_projection_version" add column "expected_rows" bigint null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."reference_projection_version" drop column "expected_rows";`);
  }

}
