import { Migration } from '@mikro-orm/migrations';

export class Migration20261123233245 extends Migration {

  override name = 'Migration20261123233245';

  override up(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."tax_registration" add "vat_registration_number_encrypted" bytea null, add "ioss_intermediary_number_encrypted" bytea null;`);
    this.addSql(`create index "tax_registration_account_id_scheme_type_index" on "compliance_reports"."tax_registration" ("account_id", "scheme_type");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "compliance_reports"."tax_registration_account_id_scheme_type_index";`);
    this.addSql(`alter table "compliance_reports"."tax_registration" drop column "vat_registration_number_encrypted", drop column "ioss_intermediary_number_encrypted";`);
  }

}
