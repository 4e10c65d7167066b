import { Migration } from '@mikro-orm/migrations';
import { contributions, upsert } from './Migration20261128081855';

const S = '"compliance_reports"';

/** Of the corrections found (`candidate`), those whose original has no earlier copy outside the batch (`relinked`). */
export const LINKED_CTES = `known_original as materialized (
    select distinct k.id from candidate k join ${S}.supply_fact e on e.account_id = k.account_id and e.event_id = k.original_event_id
     where not exists (select 1 from new_facts y where y.id = e.id)),
  relinked as materialized (
    select k.* from candidate k where not exists (select 1 from known_original o where o.id = k.id))`;

/**
 * Corrections projected before their original (which is among the new facts, and had no earlier copy):
 * counted as `missing` until now, they move to their link. Three steps, each a join PostgreSQL can hash or
 * drive by index, whatever the size of the batch: the corrections naming a new fact that are not new
 * themselves (`supply_fact_original_event`), those whose original has an earlier copy outside the batch
 * (`(account_id, event_id)`), and the rest. Membership in the new facts is always a `not exists` (a hash anti-join:
 * a `not in` falls back to a scan of the batch per row once the batch outgrows work_mem).
 */
const RELINKED_CTES = `candidate as materialized (
    select distinct on (c.id) c.* from new_facts n
      join ${S}.supply_fact c on c.account_id = n.account_id and c.original_event_id = n.event_id
     where c.event_type <> 'sale' and not exists (select 1 from new_facts x where x.id = c.id)),
  ${LINKED_CTES}`;

/** The insert trigger's function: new facts add, and the corrections `relinkedCtes` finds move from `missing` to their link. */
export const totalsInsertFunction = (relinkedCtes: string) => `create or replace function ${S}.union_oss_totals_insert() returns trigger language plpgsql as $$
      begin
        execute $q$ with ${relinkedCtes}
        ${upsert(`${contributions('new_facts f', '1')} union all ${contributions('relinked f', '1')} union all ${contributions('relinked f', '-1', true)}`)} $q$;
        return null;
      end $$;`;

/** The two trigger functions as this migration (and Migration20261128200000, for databases that ran an earlier body of it) defines them. */
export const UNION_OSS_TOTALS_FUNCTIONS = [
  totalsInsertFunction(RELINKED_CTES),
  `create or replace function ${S}.union_oss_totals_update() returns trigger language plpgsql as $$
      begin
        execute $q$ ${upsert(`${contributions('old_facts f', '-1')} union all ${contributions('new_facts f', '1')}`)} $q$;
        return null;
      end $$;`,
];

/**
 * The triggers of the Union OSS running totals without a scan of the projection per batch. The functions
 * of Migration20261128081855 cost time in proportion to the facts already projected, so a projection fell
 * minutes behind the ledger (issue 18's ingestion): (1) late originals were found with an anti-join the
 * planner ran as a hash of the whole `supply_fact` table (1.4 s per batch of 1,000 at 170,000 facts); (2)
 * PL/pgSQL keeps a statement's plan for the session, and a plan made while the table was nearly empty
 * (a new database, or statistics not yet gathered) kept scanning it: 1,000 facts took 52 ms at 0 facts and
 * 3 s at 27,000 in one session, 21 ms in a new one. Each statement is now `execute`d, planned per batch on
 * the table as it is (about a millisecond), and the late originals are found once per batch (materialized CTEs).
 */
export class Migration20261128150000 extends Migration {

  override name = 'Migration20261128150000';

  override up(): void | Promise<void> {
    for (const sql of UNION_OSS_TOTALS_FUNCTIONS) this.addSql(sql);
  }

  override down(): void | Promise<void> {
    // The function as Migration20261128081855 created it is restored by running that migration's up again; down keeps this one.
  }

}
