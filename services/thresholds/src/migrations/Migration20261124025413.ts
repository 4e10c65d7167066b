import { Migration } from '@mikro-orm/migrations';

export class Migration20261124025413 extends Migration {

  override name = 'Migration20261124025413';

  override up(): void | Promise<void> {
    this.addSql(`create index "outbox_unpublished_created_at_idx" on "thresholds"."outbox" ("created_at") where published_at is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "thresholds"."outbox_unpublished_created_at_idx";`);
  }

}
