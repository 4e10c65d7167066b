import { Migration } from '@mikro-orm/migrations';

/**
 * The events a Union OSS lock sealed, each with its disposition and reason (issue 19, point 6): the
 * drill-down of a locked quarter lists exactly these. Written with the lock, never changed (a trigger).
 */
export class Migration20261127003000 extends Migration {

  override name = 'Migration20261127003000';

  override up(): void | Promise<void> {
    this.addSql(`create table "compliance_reports"."union_oss_sealed_event" ("locked_period_id" bigint not null, "ledger_sequence" bigint not null, "account_id" bigint not null, "period_key" varchar(7) not null, "event_id" varchar(100) not null, "event_type" varchar(20) not null, "occurred_at" timestamptz not null, "member_state_of_consumption" varchar(2) not null, "supply_kind" varchar(30) not null, "customer_type" varchar(3) not null, "currency" varchar(3) not null, "net_amount_minor" bigint not null, "vat_amount_minor" bigint not null, "late" boolean not null, "disposition" varchar(10) not null, "warning_code" varchar(60) null, "reason" varchar(60) null, "review" varchar(20) null, constraint "union_oss_sealed_event_pkey" primary key ("locked_period_id", "ledger_sequence"));`);
    this.addSql(`create index "union_oss_sealed_event_account_id_period_key_index" on "compliance_reports"."union_oss_sealed_event" ("account_id", "period_key");`);
    this.addSql(`create trigger union_oss_sealed_event_immutable before update or delete on "compliance_reports"."union_oss_sealed_event" for each row execute function "compliance_reports".refuse_union_oss_artifact_change();`);
    this.addSql(`create trigger union_oss_sealed_event_no_truncate before truncate on "compliance_reports"."union_oss_sealed_event" for each statement execute function "compliance_reports".refuse_union_oss_artifact_change();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "compliance_reports"."union_oss_sealed_event" cascade;`);
  }

}
