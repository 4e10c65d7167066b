import { Migration } from '@mikro-orm/migrations';

/**
 * Article 59c marks in ledger order (issue 23): the ledger prefix whose marks are evaluated, per account, and the
 * prefix from which a correction that preceded its original is linked. Existing accounts start at the contiguous
 * prefix of their facts (marks up to there were recorded by the earlier rule).
 */
export class Migration20261128080915 extends Migration {

  override name = 'Migration20261128080915';

  override up(): void | Promise<void> {
    this.addSql(`create table "thresholds"."article59c_marks_position" ("account_id" bigint not null, "sequence" bigint not null, primary key ("account_id"));`);

    this.addSql(`alter table "thresholds"."article59c_pending_correction" add "linked_at_sequence" bigint null;`);
    this.addSql(`create index "article59c_pending_correction_account_id_linked_at_8c01e_index" on "thresholds"."article59c_pending_correction" ("account_id", "linked_at_sequence");`);
    this.addSql(`insert into "thresholds"."article59c_marks_position" ("account_id", "sequence")
      select a.account_id, (select min(f.sequence) from "thresholds"."supply_fact" f where f.account_id = a.account_id
        and not exists (select 1 from "thresholds"."supply_fact" g where g.account_id = f.account_id and g.sequence = f.sequence + 1))
      from (select distinct account_id from "thresholds"."supply_fact" where sequence = 1) a;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "thresholds"."article59c_marks_position" cascade;`);

    this.addSql(`drop index "thresholds"."article59c_pending_correction_account_id_linked_at_8c01e_index";`);
    this.addSql(`alter table "thresholds"."article59c_pending_correction" drop column "linked_at_sequence";`);
  }

}
