import { Migration } from '@mikro-orm/migrations';
import { UNION_OSS_TOTALS_FUNCTIONS } from './Migration20261128150000';

/**
 * Migration20261128150000's trigger functions again. Its body changed twice after it was first committed (the late
 * originals by index only, then planned per batch, then by hash anti-joins), and a migration runs once: a database
 * that applied an earlier body keeps a function whose cost grows with the projection (the 1,000,000-fact seeding of
 * the OSS bench never finished with one of them). Same totals either way; this makes every database run the current one.
 */
export class Migration20261128200000 extends Migration {

  override name = 'Migration20261128200000';

  override up(): void | Promise<void> {
    for (const sql of UNION_OSS_TOTALS_FUNCTIONS) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    // Nothing to undo: the functions are those Migration20261128150000 defines.
  }

}
