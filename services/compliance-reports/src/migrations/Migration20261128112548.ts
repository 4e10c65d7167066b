import { Migration } from '@mikro-orm/migrations';

/** Issue 26: one VatNumberChecked event per VIES check (the checks stored before are announced once at start). */
export class Migration20261128112548 extends Migration {

  override name = 'Migration20261128112548';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."vat_number_check_event" ("check_id" bigint not null, "event_id" uuid not null, primary key ("check_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "compliance_reports"."vat_number_check_event" cascade;`);
  }

}
