import { Migration } from '@mikro-orm/migrations';

export class Migration20261123234339 extends Migration {

  override name = 'Migration20261123234339';

  override up(): void | Promise<void> {
    this.addSql(`create table "calculation"."ecb_rate_day" ("rate_date" date not null, "rates" json not null, primary key ("rate_date"));`);
    // Rates already imported move over, one row per publication day, as canonical decimal strings.
    this.addSql(`insert into "calculation"."ecb_rate_day" ("rate_date", "rates") select "rate_date"::date, json_object_agg("currency", trim_scale("rate")::text order by "currency") from "calculation"."ecb_rate" group by "rate_date";`);

    this.addSql(`drop table if exists "calculation"."ecb_rate" cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create table "calculation"."ecb_rate" ("currency" varchar(3) not null, "rate" numeric(18,6) not null, "rate_date" varchar(10) not null, primary key ("currency", "rate_date"));`);
    this.addSql(`insert into "calculation"."ecb_rate" ("currency", "rate", "rate_date") select r.key, r.value::numeric, d."rate_date"::text from "calculation"."ecb_rate_day" d, json_each_text(d."rates") r;`);

    this.addSql(`drop table if exists "calculation"."ecb_rate_day" cascade;`);
  }

}
