import { Migration } from '@mikro-orm/migrations';

export class Migration20261124055115 extends Migration {

  override name = 'Migration20261124055115';

  override up(): void | Promise<void> {
    this.addSql(`create index "governed_decision_account_id_seq_index" on "calculation"."governed_decision" ("account_id", "seq");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "calculation"."governed_decision_account_id_seq_index";`);
  }

}
