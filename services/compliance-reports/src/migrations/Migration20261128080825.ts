import { Migration } from '@mikro-orm/migrations';

/**
 * Compliance-reports stops calling calculation: its own projections of the rate release and ECB days
 * (platform/src/reference-projection.ts) and of the source-profile defaults
 * (platform/src/source-profile-projection.ts), filled by calculation's publication at its next start.
 */
export class Migration20261128080825 extends Migration {

  override name = 'Migration20261128080825';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."ecb_rate_day_projection" ("rate_date" varchar(10) not null, "rates" jsonb not null, "import_id" bigint not null, primary key ("rate_date"));`);

    this.addSql(`create table "compliance_reports"."rate_release_projection" ("release_id" bigint not null, "digest" varchar(80) not null, "version" varchar(40) not null, "tax_class_ids" jsonb not null, "rates_in_force" jsonb not null, "windows" jsonb not null, "applied_at" timestamptz not null, primary key ("release_id"));`);

    this.addSql(`create table "compliance_reports"."reference_projection_version" ("kind" varchar(20) not null, "version" bigint not null, primary key ("kind"));`);

    this.addSql(`create table "compliance_reports"."source_profile_default" ("account_id" bigint not null, "source_key" varchar(100) not null, "profile_id" bigint not null, "revision" int not null, "supplier_establishment_country" varchar(2) null, "dispatch_country" varchar(2) null, primary key ("account_id", "source_key"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "compliance_reports"."ecb_rate_day_projection" cascade;`);
    this.addSql(`drop table if exists "compliance_reports"."rate_release_projection" cascade;`);
    this.addSql(`drop table if exists "compliance_reports"."reference_projection_version" cascade;`);
    this.addSql(`drop table if exists "compliance_reports"."source_profile_default" cascade;`);
  }

}
