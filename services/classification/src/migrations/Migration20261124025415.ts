import { Migration } from '@mikro-orm/migrations';

export class Migration20261124025415 extends Migration {

  override name = 'Migration20261124025415';

  override up(): void | Promise<void> {
    this.addSql(`create index "outbox_unpublished_created_at_idx" on "classification"."outbox" ("created_at") where published_at is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "classification"."outbox_unpublished_created_at_idx";`);
  }

}
