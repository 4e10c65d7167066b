import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 21: the filing record (reference, day, note) set once with `locked` -> `filed` (the trigger now
 * lets those three columns change in that one update, every frozen column still unchanged), and the
 * return periods found overdue (one row each: the overdue notification is raised once).
 */
export class Migration20261128080513 extends Migration {

  override name = 'Migration20261128080513';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."return_period_overdue" ("account_id" bigint not null, "scheme_type" varchar(20) not null, "period_key" varchar(7) not null, "due_date" varchar(10) not null, "detected_at" timestamptz not null, primary key ("account_id", "scheme_type", "period_key"));`);

    this.addSql(`alter table "compliance_reports"."union_oss_locked_period" add "submission_reference" varchar(100) null, add "filed_on" varchar(10) null, add "filing_note" varchar(1000) null;`);
    this.addSql(`create or replace function "compliance_reports".union_oss_locked_period_only_filing() returns trigger language plpgsql as $$
      declare
        filing text[] := array['status', 'filing_status', 'filing_status_detail', 'filed_at', 'filed_by_api_key_id', 'submission_reference', 'filed_on', 'filing_note'];
      begin
        if old.status = 'locked' and new.status = 'filed' and old.filed_at is null and new.filed_at is not null
           and (to_jsonb(new) - filing) = (to_jsonb(old) - filing) then
          return new;
        end if;
        raise exception 'a locked Union OSS period only moves from locked to filed once' using errcode = 'restrict_violation';
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function "compliance_reports".union_oss_locked_period_only_filing() returns trigger language plpgsql as $$
      begin
        if old.status = 'locked' and new.status = 'filed' and old.filed_at is null and new.filed_at is not null
           and (to_jsonb(new) - array['status', 'filing_status', 'filing_status_detail', 'filed_at', 'filed_by_api_key_id'])
             = (to_jsonb(old) - array['status', 'filing_status', 'filing_status_detail', 'filed_at', 'filed_by_api_key_id']) then
          return new;
        end if;
        raise exception 'a locked Union OSS period only moves from locked to filed once' using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`drop table if exists "compliance_reports"."return_period_overdue" cascade;`);

    this.addSql(`alter table "compliance_reports"."union_oss_locked_period" drop column "submission_reference", drop column "filed_on", drop column "filing_note";`);
  }

}
