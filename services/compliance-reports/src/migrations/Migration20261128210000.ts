import { Migration } from '@mikro-orm/migrations';
import { LINKED_CTES, totalsInsertFunction } from './Migration20261128150000';

const S = '"compliance_reports"';

/**
 * The late originals of a batch as Migration20261128150000 finds them, except the first step: the corrections naming a
 * new fact are one probe of `supply_fact_original_event` per new fact (a lateral subquery kept apart by `offset 0`).
 * As a join the planner, without statistics, merged the batch with a sequential scan of every correction projected so
 * far (20–60 ms per batch at 60,000 facts, growing with the projection).
 */
const RELINKED_CTES = `candidate as materialized (
    select distinct on (c.id) c.* from new_facts n
      cross join lateral (select * from ${S}.supply_fact c
         where c.account_id = n.account_id and c.original_event_id = n.event_id and c.original_event_id is not null offset 0) c
     where c.event_type <> 'sale' and not exists (select 1 from new_facts x where x.id = c.id)),
  ${LINKED_CTES}`;

/**
 * Ingestion cost of the Union OSS running totals (issues 18 and 24), two changes, same totals:
 * - the insert trigger's late-original lookup by index probes (above);
 * - `union_oss_day_total` keeps half of each page free (`fillfactor = 50`). Every batch adds to the same day totals,
 *   and a full page cannot take the new version of a row: each update then added index entries, and the conflict
 *   check of the next batch walked every dead version (51 buffers per upserted row at 60,000 events). With room on
 *   the page the update is HOT (no index entry; `event_count` and the sums are in no index) and the page is pruned as
 *   it is read, without VACUUM. Applies to pages written from now on.
 */
export class Migration20261128210000 extends Migration {

  override name = 'Migration20261128210000';

  override up(): void | Promise<void> {
    this.addSql(`alter table ${S}.union_oss_day_total set (fillfactor = 50);`);
    this.addSql(totalsInsertFunction(RELINKED_CTES));
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table ${S}.union_oss_day_total reset (fillfactor);`);
    // The insert function as Migration20261128150000 defines it is restored by running that migration's up again.
  }

}
