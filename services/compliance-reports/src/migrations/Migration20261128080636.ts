import { Migration } from '@mikro-orm/migrations';

/**
 * VAT-number checks against VIES, each answer kept as evidence (issue 26). Evidence is never changed
 * or deleted (a trigger), like a locked quarter's artifacts.
 */
export class Migration20261128080636 extends Migration {

  override name = 'Migration20261128080636';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."vat_number_check" ("id" bigserial primary key, "account_id" bigint not null, "vat_number_digest" varchar(64) not null, "vat_number_masked" varchar(40) not null, "vat_number_encrypted" bytea not null, "member_state" varchar(2) not null, "result" varchar(20) not null, "reason" varchar(300) null, "checked_at" timestamptz not null, "vies_request_date" varchar(40) null, "consultation_number" varchar(100) null, "name" varchar(500) null, "address" varchar(1000) null, "requester_vat_number_masked" varchar(40) null, "member_state_availability" varchar(30) not null, "attempts" int not null);`);
    this.addSql(`create index "vat_number_check_account_id_vat_number_digest_checked_at_index" on "compliance_reports"."vat_number_check" ("account_id", "vat_number_digest", "checked_at");`);
    this.addSql(`create index "vat_number_check_account_id_id_index" on "compliance_reports"."vat_number_check" ("account_id", "id");`);
    this.addSql(`alter table "compliance_reports"."vat_number_check" add constraint "vat_number_check_result_check" check ("result" in ('valid', 'invalid', 'format_invalid', 'unavailable'));`);
    this.addSql(`create function "compliance_reports".refuse_vat_number_check_change() returns trigger language plpgsql as $$
      begin
        raise exception 'VAT-number evidence is immutable: % is refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`create trigger vat_number_check_immutable before update or delete on "compliance_reports"."vat_number_check" for each row execute function "compliance_reports".refuse_vat_number_check_change();`);
    this.addSql(`create trigger vat_number_check_no_truncate before truncate on "compliance_reports"."vat_number_check" for each statement execute function "compliance_reports".refuse_vat_number_check_change();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "compliance_reports"."vat_number_check" cascade;`);
    this.addSql(`drop function if exists "compliance_reports".refuse_vat_number_check_change() cascade;`);
  }

}
