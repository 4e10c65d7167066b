import type { Subscription } from '@vat/platform/bus';
import { subjectOf } from '@vat/platform/events';
import type pg from 'pg';
import { decodeEvent } from '@vat/platform/events';
import { applyClassificationDecisions, applySupplyProjection } from '@vat/platform/supply-projection';
import { SourceProfileChangedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { ClassificationDecidedSchema, SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { factColumns } from './repositories/article59c';
import { inTransaction } from '@vat/platform/transaction';
import type { ThresholdsDeps } from './context';

export const PROJECTION_DURABLE = 'thresholds-supply-projection';
export const DECISIONS_DURABLE = 'thresholds-classification-decisions';
export const PROFILES_DURABLE = 'thresholds-source-profiles';

/**
 * Serializes the consumers' transactions per account (they move running totals between buckets and check
 * marks from the facts and defaults they read): a transaction-scoped advisory lock per account, taken in one order.
 */
async function lockAccounts(client: pg.PoolClient, accountIds: Iterable<string>): Promise<void> {
  for (const id of [...new Set(accountIds)].sort()) await client.query(`select pg_advisory_xact_lock(hashtextextended('thresholds.account:' || $1::text, 0))`, [id]);
}

/**
 * The thresholds projection of `SupplyCommitted`: in one transaction per batch, the inbox, facts and
 * position (the platform projection), then, for the ids that inbox saw for the first time, the running
 * totals, the immutable crossing and the notifications. A redelivered batch finds every id in the inbox.
 */
export function thresholdsProjectionConsumer(deps: ThresholdsDeps): Subscription {
  return {
    durable: PROJECTION_DURABLE,
    subjects: [subjectOf(SupplyCommittedSchema)],
    handler: async (batch) => {
      const release = await deps.releases.current();
      await inTransaction(deps.pool, async (client) => {
        await lockAccounts(client, batch.map((m) => decodeEvent(SupplyCommittedSchema, m.data).supplyEvent?.accountId.toString() ?? '0'));
        const { decoded, fresh } = await applySupplyProjection(client, 'thresholds', PROJECTION_DURABLE, batch);
        const seen = new Set<string>();
        const events = decoded.flatMap((d) => {
          if (!d.event || !fresh.has(d.messageId) || seen.has(d.messageId)) return [];
          seen.add(d.messageId);
          return [d.event];
        });
        events.sort((a, b) => (a.accountId === b.accountId ? Number(a.sequence - b.sequence) : a.accountId < b.accountId ? -1 : 1));
        await requireLedgerOrder(client, events);
        // A warning or crossing is found among the events applied so far: when this batch records one, it is
        // applied again one event at a time, so the mark is the one of the exact ledger prefix that reached
        // it, whatever the batches were (at most twice per account and year: the slow path is rare).
        const marksBefore = await marksOf(client, events);
        const defaults = (accountId: string) => deps.profileDefaults.of(accountId, client);
        await client.query('savepoint thresholds_batch');
        await deps.article59c.applyEvents(client, events, release, deps.now(), defaults);
        if (events.length > 1 && (await marksOf(client, events)) !== marksBefore) {
          await client.query('rollback to savepoint thresholds_batch');
          for (const event of events) await deps.article59c.applyEvents(client, [event], release, deps.now(), defaults, event.sequence);
        }
        await client.query('release savepoint thresholds_batch');
      });
    },
  };
}

/** How many warnings and crossings the batch's accounts have recorded (a change means this batch recorded one). */
async function marksOf(client: pg.PoolClient, events: { accountId: bigint }[]): Promise<string> {
  const accounts = [...new Set(events.map((e) => e.accountId.toString()))];
  const res = await client.query<{ n: string }>(
    `select ((select count(*) from thresholds.threshold_notification where account_id = any($1::bigint[]))
           + (select count(*) from thresholds.article59c_crossing where account_id = any($1::bigint[])))::text as n`,
    [accounts],
  );
  return res.rows[0]!.n;
}

/** An event delivered before one of its account's earlier ledger events: delivered again later. */
export class AheadOfLedgerOrder extends Error {}

/**
 * The running totals record a crossing once, at the event that first takes the year over the threshold
 * among those applied so far: applied in another order, another event would be that one. So events are
 * applied in ledger order per account, as `npm start` delivers them: the batch's fresh events (facts
 * already inserted) may only be applied when every earlier sequence of their account is a fact too.
 * Otherwise the transaction rolls back and the bus delivers them again (one by one, a second apart), by
 * when the missing ones (held by another replica, or a killed one's after 30 s) have been applied.
 */
async function requireLedgerOrder(client: pg.PoolClient, events: { accountId: bigint; sequence: bigint }[]): Promise<void> {
  const highest = new Map<string, bigint>();
  for (const e of events) if ((highest.get(e.accountId.toString()) ?? 0n) < e.sequence) highest.set(e.accountId.toString(), e.sequence);
  if (highest.size === 0) return;
  const res = await client.query<{ account_id: string; highest: string; facts: string }>(
    `select m.account_id::text, m.highest::text,
            (select count(*) from thresholds.supply_fact f where f.account_id = m.account_id and f.sequence <= m.highest)::text as facts
       from unnest($1::bigint[], $2::bigint[]) as m(account_id, highest)`,
    [[...highest.keys()], [...highest.values()].map(String)],
  );
  const behind = res.rows.find((r) => r.facts !== r.highest);
  if (behind) throw new AheadOfLedgerOrder(`account ${behind.account_id}: sequence ${behind.highest} arrived before ${BigInt(behind.highest) - BigInt(behind.facts)} earlier event(s); delivered again later`);
}

/**
 * The thresholds projection of `ClassificationDecided` (a durable of its own): in one transaction per
 * batch, the facts move to the newest decision of their chain (platform projection, inbox), and each
 * reclassified fact's amount moves between the running totals of its old and new classification; a year
 * that gained a positive counted amount is checked for the warning band and the crossing. A decision that
 * overtakes its fact's `SupplyCommitted` is delivered again.
 */
export function thresholdsDecisionConsumer(deps: ThresholdsDeps): Subscription {
  return {
    durable: DECISIONS_DURABLE,
    subjects: [subjectOf(ClassificationDecidedSchema)],
    handler: async (batch) => {
      const release = await deps.releases.current();
      await inTransaction(deps.pool, async (client) => {
        await lockAccounts(client, batch.map((m) => decodeEvent(ClassificationDecidedSchema, m.data).accountId.toString()));
        const changes = await applyClassificationDecisions(client, 'thresholds', DECISIONS_DURABLE, batch, factColumns('f'));
        await deps.article59c.applyReclassifications(client, changes, release, deps.now(), (accountId) => deps.profileDefaults.of(accountId, client));
      });
    },
  };
}

/**
 * Thresholds' projection of calculation's source profiles (`SourceProfileChanged`, a durable of its own):
 * in one transaction per batch, the inbox and each profile's newest revision, then, for the sources whose
 * defaults changed, the marks a new event would check (a profile applied after the events relying on it).
 * The status and the other consumers read the defaults from here, never from calculation.
 */
export function sourceProfileConsumer(deps: ThresholdsDeps): Subscription {
  return {
    durable: PROFILES_DURABLE,
    subjects: [subjectOf(SourceProfileChangedSchema)],
    handler: async (batch) => {
      const release = await deps.releases.current();
      await inTransaction(deps.pool, async (client) => {
        await lockAccounts(client, batch.map((m) => decodeEvent(SourceProfileChangedSchema, m.data).accountId.toString()));
        const changed = await deps.profileDefaults.apply(client, PROFILES_DURABLE, batch);
        for (const [accountId, sourceKeys] of changed) {
          await deps.article59c.recheckSources(client, accountId, sourceKeys, release, deps.now(), (id) => deps.profileDefaults.of(id, client));
        }
      });
    },
  };
}
