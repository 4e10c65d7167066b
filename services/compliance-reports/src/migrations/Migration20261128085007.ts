import { Migration } from '@mikro-orm/migrations';

/** The VIES check that put a sealed b2b event out of scope (issue 26); added to the immutable table without touching its rows. */
export class Migration20261128085007 extends Migration {

  override name = 'Migration20261128085007';

  override up(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."union_oss_sealed_event" add "vat_number_check_id" bigint null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."union_oss_sealed_event" drop column "vat_number_check_id";`);
  }

}
