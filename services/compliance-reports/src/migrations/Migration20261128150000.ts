import { Migration } from '@mikro-orm/migrations';
import { contributions, upsert } from './Migration20261128081855';

const S = '"compliance_reports"';

/**
 * Corrections projected before their original (which is among the new facts, and had no earlier copy):
 * counted as `missing` until now, they move to their link. Found from the new facts through indexes only:
 * the corrections naming one (`supply_fact_original_event`) and an earlier copy of it (`(account_id, event_id)`,
 * behind `offset 0` so the planner cannot turn the check into an anti-join over every fact of the projection), checked
 * for the candidates only; membership in the new facts by a hashed `not in`, not a scan of them per row.
 */
const RELINKED = `select distinct on (c.id) c.* from new_facts n
    join ${S}.supply_fact c on c.account_id = n.account_id and c.original_event_id = n.event_id
   where c.event_type <> 'sale' and c.id not in (select id from new_facts)
     and not exists (select 1 from (select e.id from ${S}.supply_fact e where e.account_id = c.account_id and e.event_id = c.original_event_id offset 0) e
                      where e.id not in (select id from new_facts))`;

/**
 * The triggers of the Union OSS running totals without a scan of the projection per batch. The functions
 * of Migration20261128081855 cost time in proportion to the facts already projected, so a projection fell
 * minutes behind the ledger (issue 18's ingestion): (1) late originals were found with an anti-join the
 * planner ran as a hash of the whole `supply_fact` table (1.4 s per batch of 1,000 at 170,000 facts); (2)
 * PL/pgSQL keeps a statement's plan for the session, and a plan made while the table was nearly empty
 * (a new database, or statistics not yet gathered) kept scanning it: 1,000 facts took 52 ms at 0 facts and
 * 3 s at 27,000 in one session, 21 ms in a new one. Each statement is now `execute`d, planned per batch on
 * the table as it is (about a millisecond), and the late originals are read once (a materialized CTE).
 */
export class Migration20261128150000 extends Migration {

  override name = 'Migration20261128150000';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function ${S}.union_oss_totals_insert() returns trigger language plpgsql as $$
      begin
        execute $q$ with relinked as materialized (${RELINKED})
        ${upsert(`${contributions('new_facts f', '1')} union all ${contributions('relinked f', '1')} union all ${contributions('relinked f', '-1', true)}`)} $q$;
        return null;
      end $$;`);
    this.addSql(`create or replace function ${S}.union_oss_totals_update() returns trigger language plpgsql as $$
      begin
        execute $q$ ${upsert(`${contributions('old_facts f', '-1')} union all ${contributions('new_facts f', '1')}`)} $q$;
        return null;
      end $$;`);
  }

  override down(): void | Promise<void> {
    // The function as Migration20261128081855 created it is restored by running that migration's up again; down keeps this one.
  }

}
