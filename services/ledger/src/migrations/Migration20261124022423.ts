import { Migration } from '@mikro-orm/migrations';

/**
 * Successor classification decisions (append-only: a chain per event, one first decision each) and the
 * correction-review list for reclassifications the ledger does not apply by itself.
 */
export class Migration20261124022423 extends Migration {

  override name = 'Migration20261124022423';

  override up(): void | Promise<void> {
    this.addSql(`create table "ledger"."classification_correction" ("id" uuid not null, "account_id" bigint not null, "supply_event_id" uuid not null, "order_reference" varchar(200) null, "reason" varchar(40) not null, "proposed" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "classification_correction_account_id_created_at_index" on "ledger"."classification_correction" ("account_id", "created_at");`);

    this.addSql(`create table "ledger"."classification_decision" ("id" uuid not null, "account_id" bigint not null, "supply_event_id" uuid not null, "supersedes" uuid null, "classification_status" varchar(20) not null, "tax_class_id" varchar(60) null, "source" varchar(20) not null, "assignment_id" uuid null, "assignment_revision" int null, "rule_id" varchar(100) null, "reason" varchar(60) null, "coverage_manifest_digest" varchar(80) null, "catalog_digest" varchar(80) null, "decided_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "classification_decision_account_id_supply_event_id_index" on "ledger"."classification_decision" ("account_id", "supply_event_id");`);
    this.addSql(`alter table "ledger"."classification_decision" add constraint "classification_decision_supply_event_id_supersedes_unique" unique ("supply_event_id", "supersedes");`);
    this.addSql(`create unique index "classification_decision_one_first" on "ledger"."classification_decision" ("supply_event_id") where "supersedes" is null;`);
    this.addSql(`create function "ledger".refuse_decision_change() returns trigger language plpgsql as $$
      begin
        raise exception 'classification decisions are append-only: % is refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger classification_decision_append_only before update or delete on "ledger"."classification_decision" for each row execute function "ledger".refuse_decision_change();`);
    this.addSql(`create trigger classification_decision_no_truncate before truncate on "ledger"."classification_decision" for each statement execute function "ledger".refuse_decision_change();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "ledger".refuse_decision_change() cascade;`);
    this.addSql(`drop table if exists "ledger"."classification_correction" cascade;`);
    this.addSql(`drop table if exists "ledger"."classification_decision" cascade;`);
  }

}
