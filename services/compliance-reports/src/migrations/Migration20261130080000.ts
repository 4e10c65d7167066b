import { Migration } from '@mikro-orm/migrations';
import { LINKED_CTES } from './Migration20261128150000';
import { IOSS_TOTALS_V1, iossTotalsUpsert } from './Migration20261129053559';

const S = '"compliance_reports"';
const CORRECTIONS = `('refund', 'cancellation', 'credit_note', 'adjustment')`;

/**
 * The grouping columns of an IOSS running total (nulls equal: one row per key). A correction is kept by its
 * link (`none` for a sale or another event) and, when the link is valid, its original's UTC day and traits:
 * exactly what the read used to look up per correction.
 */
const KEY = `account_id, day, kind, link, original_day, customer_type, classification_status, rate_category, excise_goods, has_origin, consignment_value,
  vat_rate_bps, country_of_consumption, currency, unit_net, unit_vat`;

/** The columns of an original a correction takes (`o` in `contributions`). */
const ORIGINAL_COLUMNS = ['event_type', 'supply_kind', 'country_of_consumption', 'currency', 'occurred_at', 'customer_type', 'classification_status', 'rate_category', 'excise_goods',
  'third_country_origin', 'intrinsic_value_eur_minor', 'net_amount_minor', 'vat_rate_bps'];

/**
 * Where a correction's original comes from: the projection as it is now (`current`), as it was before the
 * update statement that fires the trigger (`old`: an original among the updated facts has its old columns), or
 * nowhere (`missing`: the contribution a correction made while its original was not projected yet).
 */
type Originals = 'current' | 'old' | 'missing';

/** The account's fact that a correction `f` names (any period; the first if the id were ever repeated). */
const original = (mode: Originals) => `left join lateral (
    select ${mode === 'old' ? ORIGINAL_COLUMNS.map((c) => `case when oo.id is null then o.${c} else oo.${c} end as ${c}`).join(', ') : ORIGINAL_COLUMNS.map((c) => `o.${c}`).join(', ')}
      from ${S}.supply_fact o${mode === 'old' ? ' left join old_facts oo on oo.id = o.id' : ''}
     where ${mode === 'missing' ? 'false and ' : ''}f.event_type in ${CORRECTIONS} and o.account_id = f.account_id and o.event_id = f.original_event_id limit 1
  ) o on true`;

/** The EUR 150 test of a sale row `r` (docs/ioss.md; Art. 369l of Directive 2006/112/EC: EUR 150 intrinsic value). */
const valueOf = (r: string) => `case when ${r}.intrinsic_value_eur_minor is not null then case when ${r}.intrinsic_value_eur_minor > 15000 then 'above' else 'within' end
           when ${r}.currency = 'EUR' then case when abs(${r}.net_amount_minor) > 15000 then 'above' else 'within' end
           else 'unverified' end`;

/** A trait: the sale's own, a validly linked correction's original's, else null. */
const trait = (expr: (r: string) => string) => `case when f.event_type = 'sale' then ${expr('f')} when l.link = 'ok' then ${expr('o')} end`;

/**
 * What imported-goods facts (`from`, as `f`) add to the totals, `sign` each, with a correction's link resolved as
 * the read resolved it (repositories/ioss-facts.ts `GROUPS_SQL`): missing when the account has no event of that
 * id; invalid when the original is not an imported-goods sale of the same State and currency, or is of a later
 * month than the correction; else ok, and the correction takes its original's day and traits. The EUR 150 test
 * is written with its amount (`IOSS_CONSIGNMENT_CEILING_EUR_MINOR`); a change needs a migration that rebuilds the totals.
 */
const contributions = (from: string, sign: string, originals: Originals) => `
  select f.account_id, (f.occurred_at at time zone 'UTC')::date as day,
    case when f.event_type = 'sale' then 'sale' when f.event_type in ${CORRECTIONS} then 'correction' else 'other' end as kind,
    l.link,
    case when l.link = 'ok' then (o.occurred_at at time zone 'UTC')::date end as original_day,
    ${trait((r) => `${r}.customer_type`)} as customer_type,
    ${trait((r) => `${r}.classification_status`)} as classification_status,
    ${trait((r) => `${r}.rate_category`)} as rate_category,
    ${trait((r) => `coalesce(${r}.excise_goods, false)`)} as excise_goods,
    ${trait((r) => `coalesce(${r}.third_country_origin, '') <> ''`)} as has_origin,
    ${trait(valueOf)} as consignment_value,
    ${trait((r) => `${r}.vat_rate_bps`)} as vat_rate_bps,
    f.country_of_consumption, f.currency,
    case when f.currency <> 'EUR' then f.net_amount_minor end as unit_net,
    case when f.currency <> 'EUR' then f.vat_amount_minor end as unit_vat,
    ${sign}::bigint as n, ${sign} * f.net_amount_minor as net, ${sign} * f.vat_amount_minor as vat
  from ${from}
  ${original(originals)}
  cross join lateral (
    select case when f.event_type not in ${CORRECTIONS} then 'none'
                when o.event_type is null then 'missing'
                when o.event_type <> 'sale' or o.supply_kind <> 'imported_goods' or o.country_of_consumption <> f.country_of_consumption or o.currency <> f.currency
                  or to_char(o.occurred_at at time zone 'UTC', 'YYYY-MM') > to_char(f.occurred_at at time zone 'UTC', 'YYYY-MM') then 'invalid'
                else 'ok' end as link
  ) l
  where f.supply_kind = 'imported_goods'`;

/** Adds signed contributions (`rows`) to the totals, one upsert per key. */
const upsert = iossTotalsUpsert(KEY);

/** Imported-goods corrections projected earlier that name one of `facts` (an event id of the statement's facts), not among the new facts themselves. */
const namingCorrections = (facts: string) => `select distinct on (c.id) c.* from (${facts}) n
      join ${S}.supply_fact c on c.account_id = n.account_id and c.original_event_id = n.event_id
     where c.supply_kind = 'imported_goods' and c.event_type in ${CORRECTIONS} and not exists (select 1 from new_facts x where x.id = c.id)`;

/**
 * Inserted facts add. A correction projected before its original (which is among the new facts and had no
 * earlier copy: `LINKED_CTES`, as the Union OSS totals find them) moves from `missing` to its link.
 */
const INSERT_FUNCTION = `create or replace function ${S}.ioss_totals_insert() returns trigger language plpgsql as $$
      begin
        execute $q$ with candidate as materialized (${namingCorrections('select account_id, event_id from new_facts')}),
        ${LINKED_CTES}
        ${upsert(`${contributions('new_facts f', '1', 'current')} union all ${contributions('relinked f', '1', 'current')} union all ${contributions('relinked f', '-1', 'missing')}`)} $q$;
        return null;
      end $$;`;

/**
 * An update (a classification decision) moves each updated fact from its old key to its new one, and every
 * correction naming an updated fact from the key its original's old columns gave to the one its new columns give.
 */
const UPDATE_FUNCTION = `create or replace function ${S}.ioss_totals_update() returns trigger language plpgsql as $$
      begin
        execute $q$ with moved as materialized (${namingCorrections('select account_id, event_id from new_facts union select account_id, event_id from old_facts')})
        ${upsert(`${contributions('old_facts f', '-1', 'old')} union all ${contributions('new_facts f', '1', 'current')} union all ${contributions('moved f', '-1', 'old')} union all ${contributions('moved f', '1', 'current')}`)} $q$;
        return null;
      end $$;`;

/**
 * Issue 24 (filing-prep ≤ 0.5 s): the IOSS running totals resolve a correction's original when the correction is
 * projected, not at read time. The read used to look up the original of every correction group (≈ 10,000 index
 * look-ups into the facts at 1,000,000 facts: 160 ms on a warm PostgreSQL backend, 390 ms on a new one); the totals
 * now carry the link and the original's day and traits, so corrections with the same ones share a total and the
 * read is one grouped scan of the totals. The triggers keep them exact where an original changes after its
 * correction: an original projected after its correction moves it from `missing`; an original's classification
 * decision moves its corrections with it. The totals are rebuilt from the facts.
 */
export class Migration20261130080000 extends Migration {

  override name = 'Migration20261130080000';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger if exists supply_fact_ioss_totals_insert on ${S}.supply_fact;`);
    this.addSql(`drop trigger if exists supply_fact_ioss_totals_update on ${S}.supply_fact;`);
    this.addSql(`drop table ${S}."ioss_day_total";`);
    this.addSql(`create table ${S}."ioss_day_total" ("id" bigserial primary key, "account_id" bigint not null, "day" date not null, "kind" varchar(10) not null, "link" varchar(10) not null, "original_day" date null, "customer_type" varchar(3) null, "classification_status" varchar(20) null, "rate_category" varchar(20) null, "excise_goods" boolean null, "has_origin" boolean null, "consignment_value" varchar(10) null, "vat_rate_bps" int null, "country_of_consumption" varchar(2) not null, "currency" varchar(3) not null, "unit_net" bigint null, "unit_vat" bigint null, "event_count" bigint not null, "net_sum" bigint not null, "vat_sum" bigint not null) with (fillfactor = 50);`);
    this.addSql(`create unique index ioss_day_total_key on ${S}.ioss_day_total (${KEY}) nulls not distinct;`);
    this.addSql(INSERT_FUNCTION);
    this.addSql(UPDATE_FUNCTION);
    this.addSql(`create trigger supply_fact_ioss_totals_insert after insert on ${S}.supply_fact referencing new table as new_facts for each statement execute function ${S}.ioss_totals_insert();`);
    this.addSql(`create trigger supply_fact_ioss_totals_update after update on ${S}.supply_fact referencing old table as old_facts new table as new_facts for each statement execute function ${S}.ioss_totals_update();`);
    // The facts projected so far.
    this.addSql(`${upsert(contributions(`${S}.supply_fact f`, '1', 'current'))};`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists supply_fact_ioss_totals_insert on ${S}.supply_fact;`);
    this.addSql(`drop trigger if exists supply_fact_ioss_totals_update on ${S}.supply_fact;`);
    this.addSql(`drop function if exists ${S}.ioss_totals_insert();`);
    this.addSql(`drop function if exists ${S}.ioss_totals_update();`);
    this.addSql(`drop table if exists ${S}."ioss_day_total" cascade;`);
    for (const sql of IOSS_TOTALS_V1) this.addSql(sql);
  }

}
