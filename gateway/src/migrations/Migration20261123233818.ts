import { Migration } from '@mikro-orm/migrations';

export class Migration20261123233818 extends Migration {

  override name = 'Migration20261123233818';

  override up(): void | Promise<void> {
    this.addSql(`alter table "gateway"."processed_event" drop constraint "processed_event_pkey";`);
    this.addSql(`alter table "gateway"."processed_event" add primary key ("consumer", "event_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "gateway"."processed_event" drop constraint "processed_event_pkey";`);
    this.addSql(`alter table "gateway"."processed_event" add primary key ("event_id");`);
  }

}
