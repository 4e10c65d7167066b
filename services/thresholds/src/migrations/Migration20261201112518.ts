import { Migration } from '@mikro-orm/migrations';

/** The digest a document stored before this migration is named by: SHA-256 (hex) of `<rate date>\n<rates as jsonb text>`. */
const DIGEST = (e: string) => `encode(sha256(convert_to(${e}.rate_date || E'\\n' || ${e}.rates::text, 'UTF8')), 'hex')`;

/**
 * Ingestion cost (issue 24): an event's ECB rate evidence was a row of its own (`article59c_rate_evidence`: the
 * rates' jsonb copied per event, with an index entry: 7.6 buffers and 0.34 kB of WAL per event). Each distinct
 * document is now stored once (`article59c_rate_doc`) and the fact names it (`supply_fact.rate_doc`, written with
 * the fact). The evidence already stored moves over: each distinct document once, each fact naming its own.
 */
export class Migration20261201112518 extends Migration {

  override name = 'Migration20261201112518';

  override up(): void | Promise<void> {
    this.addSql(`create table "thresholds"."article59c_rate_doc" ("digest" varchar(64) not null, "rate_date" varchar(10) not null, "rates" jsonb not null, primary key ("digest"));`);

    this.addSql(`alter table "thresholds"."supply_fact" add "rate_doc" varchar(64) null;`);

    this.addSql(`insert into "thresholds"."article59c_rate_doc" (digest, rate_date, rates)
      select distinct on (digest) ${DIGEST('e')} as digest, e.rate_date, e.rates from "thresholds"."article59c_rate_evidence" e order by digest;`);

    this.addSql(`update "thresholds"."supply_fact" f set rate_doc = ${DIGEST('e')}
      from "thresholds"."article59c_rate_evidence" e where e.account_id = f.account_id and e.event_id = f.event_id;`);

    this.addSql(`drop table if exists "thresholds"."article59c_rate_evidence" cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create table "thresholds"."article59c_rate_evidence" ("account_id" bigint not null, "event_id" varchar(100) not null, "rate_date" varchar(10) not null, "rates" jsonb not null, primary key ("account_id", "event_id"));`);

    this.addSql(`insert into "thresholds"."article59c_rate_evidence" (account_id, event_id, rate_date, rates)
      select f.account_id, f.event_id, d.rate_date, d.rates from "thresholds"."supply_fact" f join "thresholds"."article59c_rate_doc" d on d.digest = f.rate_doc
      on conflict do nothing;`);

    this.addSql(`drop table if exists "thresholds"."article59c_rate_doc" cascade;`);

    this.addSql(`alter table "thresholds"."supply_fact" drop column "rate_doc";`);
  }

}
