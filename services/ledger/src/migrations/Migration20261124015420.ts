import { Migration } from '@mikro-orm/migrations';

export class Migration20261124015420 extends Migration {

  override name = 'Migration20261124015420';

  override up(): void | Promise<void> {
    this.addSql(`create index "outbox_unpublished_created_at_idx" on "ledger"."outbox" ("created_at") where published_at is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "ledger"."outbox_unpublished_created_at_idx";`);
  }

}
