import { Migration } from '@mikro-orm/migrations';

/** Customers' VAT numbers on supply events (issue 26): the keyed digest that is matched against VIES evidence (never the number). */
export class Migration20261128083303 extends Migration {

  override name = 'Migration20261128083303';

  override up(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."supply_fact" add "customer_vat_number_digest" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."supply_fact" drop column "customer_vat_number_digest";`);
  }

}
