import type pg from 'pg';
import { quarterInstants } from '@vat/platform/quarters';
import type { Queryable } from '@vat/platform/sql';
import { underHeadLock, type LedgerHead } from './ledger-head';

const EVENT = '"ledger".supply_event';
const DECISION = '"ledger".classification_decision';
const FENCE = '"ledger".return_period_fence';

const FENCED_SQL = `select 1 from ${EVENT} e join ${FENCE} f on f.account_id = e.account_id and f.period_key = to_char(e.occurred_at at time zone 'UTC', 'YYYY-"Q"Q')
  where e.account_id = $1 and e.id = any($2::uuid[]) and e.supply_kind <> 'imported_goods' limit 1`;

/**
 * Whether an event of the account (imported goods aside) has its tax point in a fenced Union OSS quarter.
 * Read after the head lock, a fence committed before the caller's transaction is always seen.
 */
export async function anyFenced(db: Queryable, accountId: bigint, supplyEventIds: readonly string[]): Promise<boolean> {
  return Boolean((await db.query(FENCED_SQL, [accountId.toString(), supplyEventIds])).rowCount);
}

/** Every statement on the fences of Union OSS quarters. */
export class ReturnPeriodFenceRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Fences a Union OSS quarter (idempotent) under the account's head lock and answers the head and the
   * published-decision count at that moment: every decision appended before the fence is counted, every
   * one after it sees the fence.
   */
  async fence(accountId: bigint, periodKey: string, now: Date): Promise<LedgerHead & { periodDecisionCount: bigint }> {
    const account = accountId.toString();
    return underHeadLock(this.pool, accountId, async (client, head) => {
      await client.query(`insert into ${FENCE} (account_id, period_key, fenced_at) values ($1, $2, $3) on conflict do nothing`, [account, periodKey, now]);
      const inPeriod = await client.query(
        `select count(*)::text as n from ${DECISION} d join ${EVENT} e on e.id = d.supply_event_id
          where e.account_id = $1 and e.occurred_at >= $2::timestamptz and e.occurred_at < $3::timestamptz and e.supply_kind <> 'imported_goods'`,
        [account, ...quarterInstants(periodKey)],
      );
      return { ...head, periodDecisionCount: BigInt(inPeriod.rows[0].n) };
    });
  }
}
