import { Migration } from '@mikro-orm/migrations';

/**
 * Ingestion cost of the Article 59c running totals (issues 18 and 24): `article59c_bucket` keeps half of each page
 * free. Every batch adds to the same buckets; on a full page each update was a new version elsewhere with new index
 * entries, and the next batch's conflict check walked the dead versions. With room on the page the update is HOT (the
 * counts, sums and conversions are in no index) and the page is pruned as it is read. Applies to pages written from now on.
 */
export class Migration20261128210000 extends Migration {

  override name = 'Migration20261128210000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."article59c_bucket" set (fillfactor = 50);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "thresholds"."article59c_bucket" reset (fillfactor);`);
  }

}
