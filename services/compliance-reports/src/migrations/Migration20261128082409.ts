import { Migration } from '@mikro-orm/migrations';

export class Migration20261128082409 extends Migration {

  override name = 'Migration20261128082409';

  override up(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."outbox" add "trace_context" varchar(100) null default nullif(current_setting('vat.trace_context', true), '');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."outbox" drop column "trace_context";`);
  }

}
