import type pg from 'pg';
import type { OutboxEvent } from '@vat/platform/outbox';
import { pgTimestamp } from '@vat/platform/sql';
import { uuidv7 } from '@vat/platform/uuid7';
import { writeDecisions, type AppendedDecision, type DecisionInput } from './classification-decisions';
import { underHeadLock } from './ledger-head';
import { anyFenced } from './return-period-fences';

const EVENT = '"ledger".supply_event';
const DECISION = '"ledger".classification_decision';
const CORRECTION = '"ledger".classification_correction';
const RESOLUTION = '"ledger".classification_correction_resolution';

/** One entry of the correction-review list, with the event it concerns. */
export type CorrectionRecord = {
  id: string;
  supplyEventId: string;
  eventId: string;
  orderReference: string | null;
  productReference: string | null;
  integrationId: bigint | null;
  occurredAt: Date;
  reason: string;
  proposed: Record<string, unknown>;
  createdAt: Date;
  resolution: ResolutionRecord | null;
};
export type CorrectionStatus = 'open' | 'applied' | 'dismissed';
type CorrectionQuery = { id?: string; reason?: string; orderReference?: string; supplyEventId?: string; productReference?: string; status?: CorrectionStatus };
/** How a person resolved a correction-review entry. */
type ResolutionRecord = { action: 'apply' | 'dismiss'; note: string; resolvedAt: Date; apiKeyId: bigint; decisionId: string | null };
type ResolveInput = { id: string; action: 'apply' | 'dismiss'; note: string; apiKeyId: bigint };
/** `resolved`: the entries resolved (the requested one first); `replayed`: an identical earlier resolution. */
type ResolveOutcome = { kind: 'not_found' | 'already_resolved' | 'stale' | 'period_locked' } | { kind: 'resolved'; ids: string[] } | { kind: 'replayed' };

/** Every statement on the correction-review list: routing, listing and resolving its entries. */
export class ClassificationCorrectionRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Routes proposals to the correction-review list (an identical open entry is not repeated). */
  async routeToReview(accountId: bigint, items: readonly { supplyEventId: string; orderReference: string | null; proposed: Record<string, unknown> }[], reason: string, now: Date): Promise<void> {
    for (const item of items) {
      await this.pool.query(
        `insert into ${CORRECTION} (id, account_id, supply_event_id, order_reference, reason, proposed, created_at)
         select $1::uuid, $2::bigint, $3::uuid, $4::text, $5::text, $6::jsonb, $7::timestamptz
          where not exists (select 1 from ${CORRECTION} where account_id = $2::bigint and supply_event_id = $3::uuid and reason = $5::text and proposed = $6::jsonb)`,
        [uuidv7(now.getTime()), accountId.toString(), item.supplyEventId, item.orderReference, reason, JSON.stringify(item.proposed), now],
      );
    }
  }

  /** A page of the account's correction-review list in creation order (id = uuidv7), after the cursor id, with each entry's resolution. */
  async list(accountId: bigint, q: CorrectionQuery, after: string | undefined, limit: number): Promise<CorrectionRecord[]> {
    const r = await this.pool.query(
      `select c.id, c.supply_event_id, e.event_id, c.order_reference, e.product_reference, e.integration_id::text as integration_id, e.occurred_at, c.reason, c.proposed, c.created_at,
              s.action, s.note, s.resolved_at, s.api_key_id::text as api_key_id, s.decision_id
         from ${CORRECTION} c join ${EVENT} e on e.id = c.supply_event_id and e.account_id = c.account_id
         left join ${RESOLUTION} s on s.correction_id = c.id
        where c.account_id = $1 and ($2::uuid is null or c.id > $2::uuid) and ($3::text is null or c.reason = $3) and ($4::text is null or c.order_reference = $4)
          and ($5::uuid is null or c.supply_event_id = $5::uuid) and ($6::text is null or e.product_reference = $6) and ($7::uuid is null or c.id = $7::uuid)
          and ($8::text is null or ($8 = 'open' and s.action is null) or ($8 = 'applied' and s.action = 'apply') or ($8 = 'dismissed' and s.action = 'dismiss'))
        order by c.id limit $9`,
      [accountId.toString(), after ?? null, q.reason ?? null, q.orderReference ?? null, q.supplyEventId ?? null, q.productReference ?? null, q.id ?? null, q.status ?? null, limit],
    );
    return r.rows.map((row: Record<string, any>) => ({
      id: row.id, supplyEventId: row.supply_event_id, eventId: row.event_id, orderReference: row.order_reference, productReference: row.product_reference,
      integrationId: row.integration_id === null ? null : BigInt(row.integration_id), occurredAt: pgTimestamp(row.occurred_at), reason: row.reason, proposed: row.proposed, createdAt: pgTimestamp(row.created_at),
      resolution: row.action === null ? null : { action: row.action, note: row.note, resolvedAt: pgTimestamp(row.resolved_at), apiKeyId: BigInt(row.api_key_id), decisionId: row.decision_id },
    }));
  }

  /**
   * Resolves a correction-review entry in one transaction holding the account's head lock (so concurrent
   * resolves, appends and fences are ordered; one resolution is stored). A resolved entry answers
   * `replayed` for the same action and note, else `already_resolved`. `apply` takes the open entries routed
   * with this one for the same order (same order reference, reason and routing instant; an event without an
   * order is alone) and appends each proposal as a `manual` decision superseding the decision it was
   * computed against, all or nothing: `stale` when any event's decision in effect is another one,
   * `period_locked` when any event (imported goods aside) is in a fenced Union OSS quarter.
   */
  async resolve(accountId: bigint, input: ResolveInput, now: Date, outboxOf: (d: AppendedDecision) => OutboxEvent): Promise<ResolveOutcome> {
    try {
      return await underHeadLock<ResolveOutcome>(this.pool, accountId, async (client, _head, refuse) => {
        const entry = await entryOf(client, accountId, input.id);
        if (!entry) return refuse({ kind: 'not_found' });
        if (entry.action !== null) return refuse({ kind: entry.action === input.action && entry.note === input.note ? 'replayed' : 'already_resolved' });
        const entries = input.action === 'dismiss' ? [entry] : [entry, ...(await openSiblings(client, accountId, entry))];
        let decisionIds: (string | null)[] = entries.map(() => null);
        if (input.action === 'apply') {
          const eventIds = entries.map((e) => e.supply_event_id);
          if (await anyFenced(client, accountId, eventIds)) return refuse({ kind: 'period_locked' });
          if (!(await proposalsCurrent(client, accountId, entries))) return refuse({ kind: 'stale' });
          decisionIds = (await writeDecisions(client, accountId, entries.map(manualDecision), now, outboxOf)).map((d) => d.id);
        }
        await client.query(
          `insert into ${RESOLUTION} (correction_id, account_id, action, note, resolved_at, api_key_id, decision_id)
           select id, $2::bigint, $3::text, $4::text, $5::timestamptz, $6::bigint, decision_id from unnest($1::uuid[], $7::uuid[]) as r(id, decision_id)`,
          [entries.map((e) => e.id), accountId.toString(), input.action, input.note, now, input.apiKeyId.toString(), decisionIds],
        );
        return { kind: 'resolved', ids: entries.map((e) => e.id) };
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return { kind: 'stale' };
      throw err;
    }
  }
}

/** A correction-review entry with its proposal (and, on the entry asked for, its resolution if any). */
type Entry = { id: string; supply_event_id: string; order_reference: string | null; reason: string; created_at: unknown; proposed: Record<string, any>; action: string | null; note: string | null };

async function entryOf(client: pg.PoolClient, accountId: bigint, id: string): Promise<Entry | undefined> {
  const r = await client.query(
    `select c.id, c.supply_event_id, c.order_reference, c.reason, c.created_at, c.proposed, s.action, s.note
       from ${CORRECTION} c left join ${RESOLUTION} s on s.correction_id = c.id where c.account_id = $1 and c.id = $2`,
    [accountId.toString(), id],
  );
  return r.rows[0];
}

/** The open entries routed with `entry` for the same order (same order reference, reason and routing instant); none without an order. */
async function openSiblings(client: pg.PoolClient, accountId: bigint, entry: Entry): Promise<Entry[]> {
  if (entry.order_reference === null) return [];
  const r = await client.query(
    `select c.id, c.supply_event_id, c.proposed from ${CORRECTION} c
      where c.account_id = $1 and c.order_reference = $2 and c.reason = $3 and c.created_at = $4 and c.id <> $5
        and not exists (select 1 from ${RESOLUTION} s where s.correction_id = c.id) order by c.id`,
    [accountId.toString(), entry.order_reference, entry.reason, entry.created_at, entry.id],
  );
  return r.rows;
}

/** Whether every entry's event is named once and its decision in effect is still the one its proposal supersedes. */
async function proposalsCurrent(client: pg.PoolClient, accountId: bigint, entries: readonly Entry[]): Promise<boolean> {
  const eventIds = entries.map((e) => e.supply_event_id);
  const heads = await client.query(
    `select e.id::text as event_id, d.id::text as head from ${EVENT} e
       left join ${DECISION} d on d.supply_event_id = e.id and not exists (select 1 from ${DECISION} x where x.supersedes = d.id)
      where e.account_id = $1 and e.id = any($2::uuid[])`,
    [accountId.toString(), eventIds],
  );
  const headOf = new Map<string, string | null>(heads.rows.map((h: { event_id: string; head: string | null }) => [h.event_id, h.head]));
  return new Set(eventIds).size === eventIds.length && entries.every((e) => (headOf.get(e.supply_event_id) ?? null) === (e.proposed.supersedes ?? null));
}

/** An entry's proposal as the `manual` decision that applies it. */
function manualDecision({ supply_event_id, proposed: p }: Entry): DecisionInput {
  return {
    supplyEventId: supply_event_id, supersedes: p.supersedes ?? null, classificationStatus: p.classificationStatus, taxClassId: p.taxClassId ?? null, source: 'manual',
    assignmentId: p.assignmentId ?? null, assignmentRevision: p.assignmentRevision ?? null, ruleId: p.ruleId ?? null, reason: p.reason ?? null,
    coverageManifestDigest: p.coverageManifestDigest ?? null, catalogDigest: p.catalogDigest ?? null,
  };
}
