/** Issue 21: the notification table also holds return_period_overdue notifications (from compliance-reports' ReturnPeriodOverdue). */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261128082821 extends Migration {

  override name = 'Migration20261128082821';

  override up(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."threshold_notification" drop constraint "threshold_notification_account_id_year_kind_unique";`);
    this.addSql(`alter table "thresholds"."threshold_notification" add "scheme_type" varchar(20) null, add "period_key" varchar(7) not null default '', add "due_date" varchar(10) null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "cumulative_minor" drop not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "currency" drop not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "event_id" drop not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "occurred_at" drop not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "recorded_at" drop not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "threshold_minor" drop not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" add constraint "threshold_notification_account_id_year_kind_period_key_unique" unique ("account_id", "year", "kind", "period_key");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."threshold_notification" drop constraint "threshold_notification_account_id_year_kind_period_key_unique";`);
    this.addSql(`alter table "thresholds"."threshold_notification" drop column "scheme_type", drop column "period_key", drop column "due_date";`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "event_id" set not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "cumulative_minor" set not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "threshold_minor" set not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "currency" set not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "occurred_at" set not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" alter column "recorded_at" set not null;`);
    this.addSql(`alter table "thresholds"."threshold_notification" add constraint "threshold_notification_account_id_year_kind_unique" unique ("account_id", "year", "kind");`);
  }

}
