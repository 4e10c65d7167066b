import { Migration } from '@mikro-orm/migrations';

export class Migration20261128080647 extends Migration {

  override name = 'Migration20261128080647';

  override up(): void | Promise<void> {
    this.addSql(`create table "gateway"."web_session" ("token_hash" varchar(64) not null, "account_id" bigint not null, "api_key_id" bigint not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("token_hash"));`);
    this.addSql(`create index "web_session_account_id_index" on "gateway"."web_session" ("account_id");`);
    this.addSql(`create index "web_session_api_key_id_index" on "gateway"."web_session" ("api_key_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "gateway"."web_session" cascade;`);
  }

}
