import { Migration } from '@mikro-orm/migrations';

/**
 * The ledger stops calling calculation: its own projections of `CalculationRecorded` (`calculation_summary`),
 * `RateReleasePublished` and `ExchangeRatesPublished` (platform/src/reference-projection.ts), filled by
 * calculation's publication at its next start (docs/ledger.md, "What the ledger keeps of calculation").
 */
export class Migration20261128080806 extends Migration {

  override name = 'Migration20261128080806';

  override up(): void | Promise<void> {
    this.addSql(`create table "ledger"."calculation_summary" ("calculation_id" uuid not null, "account_id" bigint not null, "country" varchar(2) not null, "currency" varchar(3) not null, "net_amount_minor" bigint not null, "vat_amount_minor" bigint not null, "vat_rate_bps" int not null, primary key ("calculation_id"));`);

    this.addSql(`create table "ledger"."ecb_rate_day_projection" ("rate_date" varchar(10) not null, "rates" jsonb not null, "import_id" bigint not null, primary key ("rate_date"));`);

    this.addSql(`create table "ledger"."rate_release_projection" ("release_id" bigint not null, "digest" varchar(80) not null, "version" varchar(40) not null, "tax_class_ids" jsonb not null, "rates_in_force" jsonb not null, "windows" jsonb not null, "applied_at" timestamptz not null, primary key ("release_id"));`);

    this.addSql(`create table "ledger"."reference_projection_version" ("kind" varchar(20) not null, "version" bigint not null, primary key ("kind"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "ledger"."calculation_summary" cascade;`);
    this.addSql(`drop table if exists "ledger"."ecb_rate_day_projection" cascade;`);
    this.addSql(`drop table if exists "ledger"."rate_release_projection" cascade;`);
    this.addSql(`drop table if exists "ledger"."reference_projection_version" cascade;`);
  }

}
