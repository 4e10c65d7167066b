import { Migration } from '@mikro-orm/migrations';

export class Migration20261128082435 extends Migration {

  override name = 'Migration20261128082435';

  override up(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."outbox" add "trace_context" varchar(100) null default nullif(current_setting('vat.trace_context', true), '');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."outbox" drop column "trace_context";`);
  }

}
