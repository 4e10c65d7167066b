import { Migration } from '@mikro-orm/migrations';

export class Migration20261124031249 extends Migration {

  override name = 'Migration20261124031249';

  override up(): void | Promise<void> {
    this.addSql(`create index "outbox_unpublished_created_at_idx" on "compliance_reports"."outbox" ("created_at") where published_at is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "compliance_reports"."outbox_unpublished_created_at_idx";`);
  }

}
