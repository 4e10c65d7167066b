import { Migration } from '@mikro-orm/migrations';

/**
 * The report projection follows classification decisions: each fact names the decision applied to it
 * (`classification_status` and `tax_class_id` are updated in place) and the position counts applied decisions.
 */
export class Migration20261124042654 extends Migration {

  override name = 'Migration20261124042654';

  override up(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."supply_fact" add "decision_id" uuid null, add "decision_generation" int not null default 0;`);

    this.addSql(`alter table "compliance_reports"."supply_projection_position" add "decisions_applied" bigint not null default '0';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "compliance_reports"."supply_fact" drop column "decision_id", drop column "decision_generation";`);

    this.addSql(`alter table "compliance_reports"."supply_projection_position" drop column "decisions_applied";`);
  }

}
