import { Migration } from '@mikro-orm/migrations';

/**
 * How many currencies each projected ECB day holds, so readiness sums a column instead of expanding every
 * day's JSON (about 100 ms per service on the embedded database at every start).
 */
export class Migration20261129115847 extends Migration {

  override name = 'Migration20261129115847';

  override up(): void | Promise<void> {
    // Existing days are counted once here; the projection writes the count with every day it stores.
    this.addSql(`alter table "ledger"."ecb_rate_day_projection" add "rate_count" int null;`);
    this.addSql(`update "ledger"."ecb_rate_day_projection" set "rate_count" = (select count(*) from jsonb_object_keys("rates"));`);
    this.addSql(`alter table "ledger"."ecb_rate_day_projection" alter column "rate_count" set not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "ledger"."ecb_rate_day_projection" drop column "rate_count";`);
  }

}
