import { Migration } from '@mikro-orm/migrations';

/**
 * A Union OSS lock seals its basis (the scope it read and each event key's disposition) instead of a
 * copy of every event (issue 24: a million-event quarter copied a million rows inside the lock). The
 * basis never changes (a trigger), and neither do the facts it reads: a fact at or before a lock's
 * ledger position, of that quarter or an earlier one, refuses every update (the ledger already fences
 * the quarter's classification decisions; this is the database's own guard).
 */
export class Migration20261128080618 extends Migration {

  override name = 'Migration20261128080618';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."union_oss_sealed_basis" ("locked_period_id" bigint not null, "account_id" bigint not null, "period_key" varchar(7) not null, "scope" jsonb not null, "dispositions" jsonb not null, primary key ("locked_period_id"));`);
    this.addSql(`alter table "compliance_reports"."union_oss_sealed_basis" add constraint "union_oss_sealed_basis_account_id_period_key_unique" unique ("account_id", "period_key");`);
    this.addSql(`create trigger union_oss_sealed_basis_immutable before update or delete on "compliance_reports"."union_oss_sealed_basis" for each row execute function "compliance_reports".refuse_union_oss_artifact_change();`);
    this.addSql(`create trigger union_oss_sealed_basis_no_truncate before truncate on "compliance_reports"."union_oss_sealed_basis" for each statement execute function "compliance_reports".refuse_union_oss_artifact_change();`);
    this.addSql(`create function "compliance_reports".refuse_sealed_fact_change() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from "compliance_reports".union_oss_locked_period l
                    where l.account_id = old.account_id and l.ledger_position >= old.sequence
                      and l.period_key >= to_char(old.occurred_at at time zone 'UTC', 'YYYY-"Q"Q')) then
          raise exception 'supply fact % is sealed by a Union OSS lock: % is refused', old.event_id, tg_op using errcode = 'restrict_violation';
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger supply_fact_sealed_by_lock before update on "compliance_reports"."supply_fact" for each row execute function "compliance_reports".refuse_sealed_fact_change();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists supply_fact_sealed_by_lock on "compliance_reports"."supply_fact";`);
    this.addSql(`drop function if exists "compliance_reports".refuse_sealed_fact_change();`);
    this.addSql(`drop table if exists "compliance_reports"."union_oss_sealed_basis" cascade;`);
  }

}
