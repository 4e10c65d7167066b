import { Migration } from '@mikro-orm/migrations';

export class Migration20261124022638 extends Migration {

  override name = 'Migration20261124022638';

  override up(): void | Promise<void> {
    this.addSql(`alter table "classification"."reprocess_job" add "outcome" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "classification"."reprocess_job" drop column "outcome";`);
  }

}
