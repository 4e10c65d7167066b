import type pg from 'pg';
import { inTransaction } from '@vat/platform/transaction';

export const HEAD = '"ledger".ledger_head';

/** Takes the account's head row (the lock that orders commits, fences and decision appends of an account). */
const LOCK_HEAD_SQL = `insert into ${HEAD} (account_id, sequence, decision_count) values ($1, 0, 0)
  on conflict (account_id) do update set sequence = ${HEAD}.sequence returning sequence::text, decision_count::text`;

/** The account's ledger position and published-decision count. */
export type LedgerHead = { sequence: bigint; decisionCount: bigint };

/** Thrown by the body of `underHeadLock` to roll its transaction back and answer `outcome`. */
class Refused<T> {
  constructor(readonly outcome: T) {}
}

/**
 * Runs `fn` in one transaction (`inTransaction`) holding the account's head row, with the head as locked.
 * `refuse(outcome)` rolls the transaction back, so nothing is written (not even a first head row), and
 * answers `outcome`.
 */
export async function underHeadLock<T>(pool: pg.Pool, accountId: bigint, fn: (client: pg.PoolClient, head: LedgerHead, refuse: (outcome: T) => never) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(pool, async (client) => {
      const r = await client.query(LOCK_HEAD_SQL, [accountId.toString()]);
      const head = { sequence: BigInt(r.rows[0].sequence), decisionCount: BigInt(r.rows[0].decision_count) };
      return fn(client, head, (outcome) => {
        throw new Refused(outcome);
      });
    });
  } catch (err) {
    if (err instanceof Refused) return err.outcome as T;
    throw err;
  }
}
