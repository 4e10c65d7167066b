import type { Subscription } from '@vat/platform/bus';
import { subjectOf } from '@vat/platform/events';
import { decodeEvent } from '@vat/platform/events';
import { applyClassificationDecisions, applySupplyProjection, decodeSupplyMessages } from '@vat/platform/supply-projection';
import { SUPPLY_MESSAGES_PER_PULL, SUPPLY_PROJECTION_LINGER_MS, supplyGroups } from '@vat/platform/supply-committed';
import { SourceProfileChangedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { ReturnPeriodOverdueSchema, VatNumberCheckedSchema } from '@vat/gen/vat/compliance_reports/v1/events_pb';
import { recordOverdueNotifications } from './repositories/threshold-notifications';
import { ClassificationDecidedSchema, SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { factColumns, lockAccounts } from './repositories/article59c';
import { RATE_DOC_COLUMN } from './article59c/rate-docs';
import { inTransaction } from '@vat/platform/transaction';
import type { ThresholdsDeps } from './context';

export const PROJECTION_DURABLE = 'thresholds-supply-projection';
export const DECISIONS_DURABLE = 'thresholds-classification-decisions';
export const PROFILES_DURABLE = 'thresholds-source-profiles';
export const OVERDUE_DURABLE = 'thresholds-return-period-overdue';
export const VAT_NUMBER_CHECKS_DURABLE = 'thresholds-vat-number-checks';

/**
 * The thresholds projection of `SupplyCommitted`: in one transaction per group of messages (at most 2,000 events), the inbox, facts and
 * position (the platform projection), then, for the ids that inbox saw for the first time, the running
 * totals, the immutable crossing and the notifications. A redelivered batch finds every id in the inbox.
 */
export function thresholdsProjectionConsumer(deps: ThresholdsDeps): Subscription {
  return {
    durable: PROJECTION_DURABLE,
    subjects: [subjectOf(SupplyCommittedSchema)],
    maxBatch: SUPPLY_MESSAGES_PER_PULL,
    lingerMs: SUPPLY_PROJECTION_LINGER_MS,
    handler: async (batch) => {
      const release = await deps.releases.current();
      for (const messages of supplyGroups(batch)) {
        const group = decodeSupplyMessages(messages);
        await inTransaction(deps.pool, async (client) => {
          await lockAccounts(client, group.flatMap((d) => d.events.map((e) => e.accountId.toString())));
          const fresh = await applySupplyProjection(client, 'thresholds', PROJECTION_DURABLE, group, RATE_DOC_COLUMN);
          const seen = new Set<string>();
          const events = group.flatMap((d) => {
            if (!fresh.has(d.messageId) || seen.has(d.messageId)) return [];
            seen.add(d.messageId);
            return d.events;
          });
          await deps.article59c.applyEvents(client, events, release, deps.now(), (accountId) => deps.profileDefaults.of(accountId, client));
        });
      }
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

/**
 * compliance-reports announces a return period past its due date (`ReturnPeriodOverdue`); the account's
 * notifications get one `return_period_overdue` entry per period (thresholds owns the notifications).
 */
export function overdueNotificationConsumer(deps: ThresholdsDeps): Subscription {
  return {
    durable: OVERDUE_DURABLE,
    subjects: [subjectOf(ReturnPeriodOverdueSchema)],
    handler: async (batch) => {
      const events = batch.map((m) => ({ id: m.id, ...decodeEvent(ReturnPeriodOverdueSchema, m.data) }));
      await recordOverdueNotifications(deps.pool, OVERDUE_DURABLE, events, deps.now());
    },
  };
}

/**
 * compliance-reports' VIES checks (`VatNumberChecked`, a durable of its own): in one transaction per batch
 * under the accounts' locks (shared with the supply projection), the inbox and the definitive checks, and the
 * `b2b` facts whose evidence at their tax point they change move between running totals. A check and the
 * supplies it proves may arrive in either order, on any replica: the evidence is evaluated over every check
 * and fact applied, so the totals are the same (docs/thresholds.md, "B2B supplies and VIES evidence").
 */
export function vatNumberCheckConsumer(deps: ThresholdsDeps): Subscription {
  return {
    durable: VAT_NUMBER_CHECKS_DURABLE,
    subjects: [subjectOf(VatNumberCheckedSchema)],
    handler: async (batch) => {
      const release = await deps.releases.current();
      const checks = batch.map((m) => {
        const e = decodeEvent(VatNumberCheckedSchema, m.data);
        return { id: e.eventId || m.id, accountId: e.accountId, checkId: e.checkId, vatNumberDigest: e.vatNumberDigest, result: e.result, checkedAt: e.checkedAt };
      });
      await inTransaction(deps.pool, async (client) => {
        await lockAccounts(client, checks.map((c) => c.accountId.toString()));
        await deps.article59c.applyVatNumberChecks(client, VAT_NUMBER_CHECKS_DURABLE, checks, release);
      });
    },
  };
}
