import { Migration } from '@mikro-orm/migrations';

/**
 * b2b facts of an account by tax point (a partial index): a return served by the running totals reads its b2b
 * facts one by one (each needs its VIES evidence at its tax point), and most accounts have few.
 */
export class Migration20261128091500 extends Migration {

  override name = 'Migration20261128091500';

  override up(): void | Promise<void> {
    this.addSql(`create index "supply_fact_b2b_account_occurred_at_index" on "compliance_reports"."supply_fact" ("account_id", "occurred_at") where "customer_type" = 'b2b';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "compliance_reports"."supply_fact_b2b_account_occurred_at_index";`);
  }

}
