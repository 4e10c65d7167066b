import type { Subscription } from '@vat/platform/bus';
import { subjectOf } from '@vat/platform/events';
import { applySupplyProjection } from '@vat/platform/supply-projection';
import { SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { principalHeaders } from '@vat/platform/principal';
import type { ProfileDefaults } from './article59c/classify';
import type { ThresholdsDeps } from './context';

export const PROJECTION_DURABLE = 'thresholds-supply-projection';

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
      const client = await deps.pool.connect();
      try {
        await client.query('begin');
        const { decoded, fresh } = await applySupplyProjection(client, 'thresholds', PROJECTION_DURABLE, batch);
        const seen = new Set<string>();
        const events = decoded.flatMap((d) => {
          if (!d.event || !fresh.has(d.messageId) || seen.has(d.messageId)) return [];
          seen.add(d.messageId);
          return [d.event];
        });
        await deps.article59c.applyEvents(client, events, release, deps.now(), (accountId) => profileDefaults(deps, accountId));
        await client.query('commit');
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
  };
}

/**
 * The account's source-profile defaults (calculation's `ListSources`, on behalf of the account). When
 * calculation cannot answer, no default applies: events lacking a fact stay unresolved for the crossing
 * (never guessed), and a later batch looks again.
 */
async function profileDefaults(deps: ThresholdsDeps, accountId: string): Promise<Map<string, ProfileDefaults>> {
  try {
    const res = await deps.clients.sources.listSources({}, { headers: principalHeaders({ accountId: BigInt(accountId), apiKeyId: 0n, keyKind: 'v2', scope: 'read-only' }) });
    return new Map(res.items.map((p) => [p.sourceKey, { supplierEstablishmentCountry: p.supplierEstablishmentCountry, dispatchCountry: p.dispatchCountry }]));
  } catch (err) {
    deps.log.warn({ err, accountId }, 'source profiles unavailable to the thresholds projection; no profile default applied in this batch');
    return new Map();
  }
}
