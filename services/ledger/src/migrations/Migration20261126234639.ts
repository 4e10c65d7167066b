import { Migration } from '@mikro-orm/migrations';

export class Migration20261126234639 extends Migration {

  override name = 'Migration20261126234639';

  override up(): void | Promise<void> {
    this.addSql(`alter table "ledger"."supply_event" add "region" varchar(6) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "ledger"."supply_event" drop column "region";`);
  }

}
