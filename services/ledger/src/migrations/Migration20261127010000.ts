import { Migration } from '@mikro-orm/migrations';

/**
 * ECB rate evidence per event (issue 19, point 4): the euro reference rates last published at the tax point,
 * attached at commit for the event's currency and every non-euro EU currency. Events stored before it have none.
 */
export class Migration20261127010000 extends Migration {

  override name = 'Migration20261127010000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "ledger"."supply_event" add "ecb_rate_evidence" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "ledger"."supply_event" drop column "ecb_rate_evidence";`);
  }

}
