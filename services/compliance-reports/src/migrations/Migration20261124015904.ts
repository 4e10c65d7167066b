import { Migration } from '@mikro-orm/migrations';

/**
 * Locked Union OSS quarters and their artifacts. Immutable in the database itself, for every role
 * including the service's own: artifacts refuse UPDATE, DELETE and TRUNCATE; a locked period
 * refuses DELETE and TRUNCATE and allows one UPDATE only, `locked` -> `filed` with the first
 * filing audit, every frozen column unchanged.
 */
export class Migration20261124015904 extends Migration {

  override name = 'Migration20261124015904';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."union_oss_export" ("id" uuid not null, "account_id" bigint not null, "locked_period_id" bigint not null, "period_key" varchar(7) not null, "export_kind" varchar(60) not null, "format" varchar(4) not null, "media_type" varchar(60) not null, "filename" varchar(120) not null, "content" bytea not null, "sha256" varchar(64) not null, "byte_size" int not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "union_oss_export_locked_period_id_index" on "compliance_reports"."union_oss_export" ("locked_period_id");`);

    this.addSql(`create table "compliance_reports"."union_oss_locked_period" ("id" bigserial primary key, "account_id" bigint not null, "period_key" varchar(7) not null, "registration_id" bigint not null, "member_state_identification" varchar(2) not null, "return_currency" varchar(3) not null, "ledger_position" bigint not null, "status" varchar(10) not null, "filing_status" varchar(30) not null, "filing_status_detail" varchar(300) not null, "nil_return_eligible" boolean not null, "total_source_event_count" bigint not null, "included_source_event_count" bigint not null, "excluded_source_event_count" bigint not null, "warning_count" int not null, "jurisdiction_count" int not null, "locked_at" timestamptz not null, "locked_by_api_key_id" bigint not null, "filed_at" timestamptz null, "filed_by_api_key_id" bigint null);`);
    this.addSql(`alter table "compliance_reports"."union_oss_locked_period" add constraint "union_oss_locked_period_account_id_period_key_unique" unique ("account_id", "period_key");`);
    this.addSql(`create function "compliance_reports".refuse_union_oss_artifact_change() returns trigger language plpgsql as $$
      begin
        raise exception 'locked Union OSS artifacts are immutable: % is refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger union_oss_export_immutable before update or delete on "compliance_reports"."union_oss_export" for each row execute function "compliance_reports".refuse_union_oss_artifact_change();`);
    this.addSql(`create trigger union_oss_export_no_truncate before truncate on "compliance_reports"."union_oss_export" for each statement execute function "compliance_reports".refuse_union_oss_artifact_change();`);
    this.addSql(`create trigger union_oss_locked_period_no_delete before delete on "compliance_reports"."union_oss_locked_period" for each row execute function "compliance_reports".refuse_union_oss_artifact_change();`);
    this.addSql(`create trigger union_oss_locked_period_no_truncate before truncate on "compliance_reports"."union_oss_locked_period" for each statement execute function "compliance_reports".refuse_union_oss_artifact_change();`);
    this.addSql(`create function "compliance_reports".union_oss_locked_period_only_filing() returns trigger language plpgsql as $$
      begin
        if old.status = 'locked' and new.status = 'filed' and old.filed_at is null and new.filed_at is not null
           and (to_jsonb(new) - array['status', 'filing_status', 'filing_status_detail', 'filed_at', 'filed_by_api_key_id'])
             = (to_jsonb(old) - array['status', 'filing_status', 'filing_status_detail', 'filed_at', 'filed_by_api_key_id']) then
          return new;
        end if;
        raise exception 'a locked Union OSS period only moves from locked to filed once' using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger union_oss_locked_period_only_filing before update on "compliance_reports"."union_oss_locked_period" for each row execute function "compliance_reports".union_oss_locked_period_only_filing();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "compliance_reports".union_oss_locked_period_only_filing() cascade;`);
    this.addSql(`drop function if exists "compliance_reports".refuse_union_oss_artifact_change() cascade;`);
    this.addSql(`drop table if exists "compliance_reports"."union_oss_export" cascade;`);
    this.addSql(`drop table if exists "compliance_reports"."union_oss_locked_period" cascade;`);
  }

}
