import { Migration } from '@mikro-orm/migrations';

/**
 * Resolutions of correction-review entries: one per entry, append-only (a trigger refuses UPDATE, DELETE
 * and TRUNCATE, like the decisions).
 */
export class Migration20261124053246 extends Migration {

  override name = 'Migration20261124053246';

  override up(): void | Promise<void> {
    this.addSql(`create table "ledger"."classification_correction_resolution" ("correction_id" uuid not null, "account_id" bigint not null, "action" varchar(10) not null, "note" varchar(1000) not null, "resolved_at" timestamptz not null, "api_key_id" bigint not null, "decision_id" uuid null, primary key ("correction_id"));`);
    this.addSql(`create function "ledger".refuse_resolution_change() returns trigger language plpgsql as $$
      begin
        raise exception 'correction resolutions are append-only: % is refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger classification_correction_resolution_append_only before update or delete on "ledger"."classification_correction_resolution" for each row execute function "ledger".refuse_resolution_change();`);
    this.addSql(`create trigger classification_correction_resolution_no_truncate before truncate on "ledger"."classification_correction_resolution" for each statement execute function "ledger".refuse_resolution_change();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "ledger".refuse_resolution_change() cascade;`);
    this.addSql(`drop table if exists "ledger"."classification_correction_resolution" cascade;`);
  }

}
