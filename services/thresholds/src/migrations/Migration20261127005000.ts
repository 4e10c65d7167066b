import { Migration } from '@mikro-orm/migrations';

/**
 * Article 59c crossings in tax-point order (issue 19, point 3): a backdated sale that arrives later and
 * moves the crossing earlier adds a crossing row for the year; every row stays immutable (the trigger), the
 * earliest by tax point is the crossing, the others are its visible history.
 */
export class Migration20261127005000 extends Migration {

  override name = 'Migration20261127005000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."article59c_crossing" drop constraint "article59c_crossing_pkey";`);
    this.addSql(`alter table "thresholds"."article59c_crossing" add constraint "article59c_crossing_pkey" primary key ("account_id", "year", "sequence");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."article59c_crossing" drop constraint "article59c_crossing_pkey";`);
    this.addSql(`alter table "thresholds"."article59c_crossing" add constraint "article59c_crossing_pkey" primary key ("account_id", "year");`);
  }

}
