import { Migration } from '@mikro-orm/migrations';

/**
 * Decisions are published: each records its place in the event's chain (`generation`) and the account's
 * head counts the published decisions; Union OSS quarters being locked fence the decisions of their events.
 */
export class Migration20261124042051 extends Migration {

  override name = 'Migration20261124042051';

  override up(): void | Promise<void> {
    this.addSql(`create table "ledger"."return_period_fence" ("account_id" bigint not null, "period_key" varchar(7) not null, "fenced_at" timestamptz not null, primary key ("account_id", "period_key"));`);

    this.addSql(`alter table "ledger"."classification_decision" add "generation" int null;`);

    this.addSql(`alter table "ledger"."ledger_head" add "decision_count" bigint not null default '0';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "ledger"."return_period_fence" cascade;`);

    this.addSql(`alter table "ledger"."classification_decision" drop column "generation";`);

    this.addSql(`alter table "ledger"."ledger_head" drop column "decision_count";`);
  }

}
