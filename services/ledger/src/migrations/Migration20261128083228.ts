import { Migration } from '@mikro-orm/migrations';

/** Customers' VAT numbers on supply events (issue 26): the keyed digest that is matched against VIES evidence (never the number). */
export class Migration20261128083228 extends Migration {

  override name = 'Migration20261128083228';

  override up(): void | Promise<void> {
    this.addSql(`alter table "ledger"."supply_event" add "customer_vat_number_digest" varchar(64) null, add "customer_vat_number_masked" varchar(40) null, add "customer_vat_number_encrypted" bytea null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "ledger"."supply_event" drop column "customer_vat_number_digest", drop column "customer_vat_number_masked", drop column "customer_vat_number_encrypted";`);
  }

}
