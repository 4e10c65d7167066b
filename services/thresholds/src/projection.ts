import type { Subscription } from '@vat/platform/bus';
import { subjectOf } from '@vat/platform/events';
import type pg from 'pg';
import { decodeEvent } from '@vat/platform/events';
import { applyClassificationDecisions, applySupplyProjection } from '@vat/platform/supply-projection';
import { ClassificationDecidedSchema, SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { factColumns, type ProfileDefaultsOf } from './repositories/article59c';
import { principalHeaders } from '@vat/platform/principal';
import { inTransaction } from '@vat/platform/transaction';
import type { ProfileDefaults } from './article59c/classify';
import type { ThresholdsDeps } from './context';

export const PROJECTION_DURABLE = 'thresholds-supply-projection';
export const DECISIONS_DURABLE = 'thresholds-classification-decisions';

/**
 * Serializes the two consumers' transactions per account (both move running totals between buckets from
 * the facts they read): a transaction-scoped advisory lock per account, taken in one order.
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
      const accounts = batch.map((m) => decodeEvent(SupplyCommittedSchema, m.data).supplyEvent?.accountId.toString() ?? '0');
      const defaults = await profileDefaults(deps, accounts);
      await inTransaction(deps.pool, async (client) => {
        await lockAccounts(client, accounts);
        const { decoded, fresh } = await applySupplyProjection(client, 'thresholds', PROJECTION_DURABLE, batch);
        const seen = new Set<string>();
        const events = decoded.flatMap((d) => {
          if (!d.event || !fresh.has(d.messageId) || seen.has(d.messageId)) return [];
          seen.add(d.messageId);
          return [d.event];
        });
        await deps.article59c.applyEvents(client, events, release, deps.now(), defaults);
      });
    },
  };
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
      const accounts = batch.map((m) => decodeEvent(ClassificationDecidedSchema, m.data).accountId.toString());
      const defaults = await profileDefaults(deps, accounts);
      await inTransaction(deps.pool, async (client) => {
        await lockAccounts(client, accounts);
        const changes = await applyClassificationDecisions(client, 'thresholds', DECISIONS_DURABLE, batch, factColumns('f'));
        await deps.article59c.applyReclassifications(client, changes, release, deps.now(), defaults);
      });
    },
  };
}

/**
 * The source-profile defaults of the batch's accounts (calculation's `ListSources`, on behalf of each
 * account), fetched before the batch's transaction begins: no call may wait inside it. When calculation
 * cannot answer for an account, no default applies to it: events lacking a fact stay unresolved for the
 * crossing (never guessed), and a later batch looks again.
 */
async function profileDefaults(deps: ThresholdsDeps, accountIds: Iterable<string>): Promise<ProfileDefaultsOf> {
  const byAccount = new Map<string, Map<string, ProfileDefaults>>();
  for (const accountId of new Set(accountIds)) {
    if (accountId === '0') continue;
    try {
      const res = await deps.clients.sources.listSources({}, { headers: principalHeaders({ accountId: BigInt(accountId), apiKeyId: 0n, keyKind: 'v2', scope: 'read-only' }) });
      byAccount.set(accountId, new Map(res.items.map((p) => [p.sourceKey, { supplierEstablishmentCountry: p.supplierEstablishmentCountry, dispatchCountry: p.dispatchCountry }])));
    } catch (err) {
      deps.log.warn({ err, accountId }, 'source profiles unavailable to the thresholds projection; no profile default applied in this batch');
    }
  }
  return async (accountId) => byAccount.get(accountId) ?? new Map();
}
