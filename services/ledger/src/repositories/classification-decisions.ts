import type pg from 'pg';
import type { OutboxEvent } from '@vat/platform/outbox';
import { insertRowsStatement, pgTimestamp, type Queryable } from '@vat/platform/sql';
import { inTransaction } from '@vat/platform/transaction';
import { uuidv7 } from '@vat/platform/uuid7';

const EVENT = '"ledger".supply_event';
const DECISION = '"ledger".classification_decision';
const CORRECTION = '"ledger".classification_correction';
const HEAD = '"ledger".ledger_head';
const FENCE = '"ledger".return_period_fence';
const OUTBOX = '"ledger".outbox';
const RESOLUTION = '"ledger".classification_correction_resolution';

/** Takes the account's head row (the lock that orders commits, fences and decision appends of an account). */
const LOCK_HEAD_SQL = `insert into ${HEAD} (account_id, sequence, decision_count) values ($1, 0, 0)
  on conflict (account_id) do update set sequence = ${HEAD}.sequence returning sequence::text, decision_count::text`;

/** The first instant of a `YYYY-Qn` quarter and of the next one (UTC). */
function quarterBounds(periodKey: string): [string, string] {
  const year = Number(periodKey.slice(0, 4));
  const q = Number(periodKey.slice(6));
  const at = (y: number, m: number) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01T00:00:00Z`;
  return [at(year, q * 3 - 2), q === 4 ? at(year + 1, 1) : at(year, q * 3 + 1)];
}

/** A stored decision as it is published (ClassificationDecided). */
export type AppendedDecision = DecisionInput & { id: string; accountId: bigint; generation: number; decidedAt: Date };
export type AppendOutcome = 'appended' | 'stale' | 'period_locked';

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
export type CorrectionQuery = { id?: string; reason?: string; orderReference?: string; supplyEventId?: string; productReference?: string; status?: CorrectionStatus };
/** How a person resolved a correction-review entry. */
export type ResolutionRecord = { action: 'apply' | 'dismiss'; note: string; resolvedAt: Date; apiKeyId: bigint; decisionId: string | null };
export type ResolveInput = { id: string; action: 'apply' | 'dismiss'; note: string; apiKeyId: bigint };
/** `resolved`: the entries resolved (the requested one first); `replayed`: an identical earlier resolution. */
export type ResolveOutcome = { kind: 'not_found' | 'already_resolved' | 'stale' | 'period_locked' } | { kind: 'resolved'; ids: string[] } | { kind: 'replayed' };

/** One event of a product with the classification in effect (its latest decision, else as committed). */
export type ProductEventRecord = {
  id: string;
  eventId: string;
  orderReference: string | null;
  variantReference: string | null;
  occurredOn: string;
  countryOfConsumption: string;
  originalStatus: string;
  originalTaxClassId: string | null;
  decisionId: string | null;
  decisionStatus: string | null;
  decisionTaxClassId: string | null;
  decisionSource: string | null;
  decisionAssignmentId: string | null;
  decisionAssignmentRevision: number | null;
  decisionRuleId: string | null;
};

export type DecisionInput = {
  supplyEventId: string;
  supersedes: string | null;
  classificationStatus: string;
  taxClassId: string | null;
  source: string;
  assignmentId: string | null;
  assignmentRevision: number | null;
  ruleId: string | null;
  reason: string | null;
  coverageManifestDigest: string | null;
  catalogDigest: string | null;
};

const DECISION_COLUMNS = {
  id: 'uuid', account_id: 'bigint', supply_event_id: 'uuid', supersedes: 'uuid', classification_status: 'text', tax_class_id: 'text', source: 'text', assignment_id: 'uuid',
  assignment_revision: 'int', rule_id: 'text', reason: 'text', coverage_manifest_digest: 'text', catalog_digest: 'text', decided_at: 'timestamptz', generation: 'int',
} as const;

function productEvent(r: Record<string, any>): ProductEventRecord {
  return {
    id: r.id,
    eventId: r.event_id,
    orderReference: r.order_reference,
    variantReference: r.variant_reference,
    occurredOn: r.occurred_on,
    countryOfConsumption: r.country_of_consumption,
    originalStatus: r.classification_status,
    originalTaxClassId: r.tax_class_id,
    decisionId: r.decision_id,
    decisionStatus: r.decision_status,
    decisionTaxClassId: r.decision_tax_class_id,
    decisionSource: r.decision_source,
    decisionAssignmentId: r.decision_assignment_id,
    decisionAssignmentRevision: r.decision_assignment_revision,
    decisionRuleId: r.decision_rule_id,
  };
}

const FENCED_SQL = `select 1 from ${EVENT} e join ${FENCE} f on f.account_id = e.account_id and f.period_key = to_char(e.occurred_at at time zone 'UTC', 'YYYY-"Q"Q')
  where e.account_id = $1 and e.id = any($2::uuid[]) and e.supply_kind <> 'imported_goods' limit 1`;

/**
 * Inserts decisions with their generation, their `ClassificationDecided` outbox rows and the head's count,
 * inside the caller's transaction (which holds the account's head lock: the chain lengths cannot move).
 */
async function writeDecisions(client: pg.PoolClient, accountId: bigint, decisions: readonly DecisionInput[], now: Date, outboxOf: (d: AppendedDecision) => OutboxEvent): Promise<AppendedDecision[]> {
  const account = accountId.toString();
  const ids = decisions.map((d) => d.supplyEventId);
  // The chain is linear (unique constraints) and appends of the account are serialized: its length is the next generation - 1.
  const lengths = await client.query(`select supply_event_id::text as id, count(*)::int as n from ${DECISION} where supply_event_id = any($1::uuid[]) group by 1`, [ids]);
  const chain = new Map<string, number>(lengths.rows.map((r: { id: string; n: number }) => [r.id, r.n]));
  const stored: AppendedDecision[] = decisions.map((d) => ({ ...d, id: uuidv7(now.getTime()), accountId, generation: (chain.get(d.supplyEventId) ?? 0) + 1, decidedAt: now }));
  const { text, values } = insertRowsStatement(
    DECISION,
    DECISION_COLUMNS,
    stored.map((d) => ({
      id: d.id, account_id: account, supply_event_id: d.supplyEventId, supersedes: d.supersedes, classification_status: d.classificationStatus, tax_class_id: d.taxClassId, source: d.source,
      assignment_id: d.assignmentId, assignment_revision: d.assignmentRevision, rule_id: d.ruleId, reason: d.reason, coverage_manifest_digest: d.coverageManifestDigest, catalog_digest: d.catalogDigest, decided_at: now,
      generation: d.generation,
    })),
  );
  await client.query(text, values);
  const outbox = stored.map(outboxOf);
  await client.query(
    `with o as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts) select id, subject, payload, now(), 0 from unnest($1::uuid[], $2::text[], $3::bytea[]) as o(id, subject, payload))
     update ${HEAD} set decision_count = decision_count + $4 where account_id = $5`,
    [outbox.map((o) => o.id), outbox.map((o) => o.subject), outbox.map((o) => Buffer.from(o.payload)), stored.length, account],
  );
  return stored;
}

/** Every statement on classification decisions and the correction-review list. */
export class ClassificationDecisionRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** A page of a product's events in id order with the decision in effect (the one no other supersedes). */
  async productEvents(accountId: bigint, integrationId: bigint, product: string, after: string | undefined, limit: number, db: Queryable = this.pool): Promise<ProductEventRecord[]> {
    const r = await db.query(
      `select e.id, e.event_id, e.order_reference, e.variant_reference, to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD') as occurred_on,
              e.country_of_consumption, e.classification_status, e.tax_class_id,
              d.id as decision_id, d.classification_status as decision_status, d.tax_class_id as decision_tax_class_id, d.source as decision_source,
              d.assignment_id as decision_assignment_id, d.assignment_revision as decision_assignment_revision, d.rule_id as decision_rule_id
         from ${EVENT} e
         left join lateral (
           select * from ${DECISION} d where d.supply_event_id = e.id and d.account_id = e.account_id
              and not exists (select 1 from ${DECISION} x where x.supersedes = d.id)
         ) d on true
        where e.account_id = $1 and e.integration_id = $2 and e.product_reference = $3 and ($4::uuid is null or e.id > $4::uuid)
        order by e.id limit $5`,
      [accountId.toString(), integrationId.toString(), product, after ?? null, limit],
    );
    return r.rows.map(productEvent);
  }

  /** How many events of the account carry the order reference (the whole economic order, every product). */
  async orderSize(accountId: bigint, orderReference: string): Promise<number> {
    const r = await this.pool.query(`select count(*)::int as n from ${EVENT} where account_id = $1 and order_reference = $2`, [accountId.toString(), orderReference]);
    return r.rows[0].n;
  }

  /**
   * Appends one order's decisions in one transaction holding the account's head row (so commits, fences
   * and appends of the account are ordered), with one `ClassificationDecided` per decision in the outbox
   * and the head's published-decision count. Each decision supersedes the one the caller saw; when another
   * decision was appended meanwhile the unique chain constraint refuses it (`stale`). When an event of the
   * order (other than imported goods) has its tax point in a fenced Union OSS quarter nothing is written
   * (`period_locked`): the fence is read after the head lock, so a fence committed before this
   * transaction is always seen, and one committed after it counts this transaction's decisions.
   */
  async appendOrder(accountId: bigint, decisions: readonly DecisionInput[], now: Date, outboxOf: (d: AppendedDecision) => OutboxEvent): Promise<AppendOutcome> {
    const account = accountId.toString();
    const ids = decisions.map((d) => d.supplyEventId);
    try {
      return await inTransaction(this.pool, async (client) => {
        await client.query(LOCK_HEAD_SQL, [account]);
        const fenced = await client.query(FENCED_SQL, [account, ids]);
        if (fenced.rowCount) return 'period_locked'; // nothing written
        await writeDecisions(client, accountId, decisions, now, outboxOf);
        return 'appended';
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return 'stale';
      throw err;
    }
  }

  /**
   * Fences a Union OSS quarter (idempotent) under the account's head lock and answers the head and the
   * published-decision count at that moment: every decision appended before the fence is counted, every
   * one after it sees the fence.
   */
  async fence(accountId: bigint, periodKey: string, now: Date): Promise<{ sequence: bigint; decisionCount: bigint; periodDecisionCount: bigint }> {
    const account = accountId.toString();
    return inTransaction(this.pool, async (client) => {
      const head = await client.query(LOCK_HEAD_SQL, [account]);
      await client.query(`insert into ${FENCE} (account_id, period_key, fenced_at) values ($1, $2, $3) on conflict do nothing`, [account, periodKey, now]);
      const inPeriod = await client.query(
        `select count(*)::text as n from ${DECISION} d join ${EVENT} e on e.id = d.supply_event_id
          where e.account_id = $1 and e.occurred_at >= $2::timestamptz and e.occurred_at < $3::timestamptz and e.supply_kind <> 'imported_goods'`,
        [account, ...quarterBounds(periodKey)],
      );
      return { sequence: BigInt(head.rows[0].sequence), decisionCount: BigInt(head.rows[0].decision_count), periodDecisionCount: BigInt(inPeriod.rows[0].n) };
    });
  }

  /** The account's ledger head and published-decision count in one read (0 and 0 when none). */
  async head(accountId: bigint): Promise<{ sequence: bigint; decisionCount: bigint }> {
    const r = await this.pool.query(`select sequence::text as s, decision_count::text as n from ${HEAD} where account_id = $1`, [accountId.toString()]);
    return r.rows[0] ? { sequence: BigInt(r.rows[0].s), decisionCount: BigInt(r.rows[0].n) } : { sequence: 0n, decisionCount: 0n };
  }

  /** A page of the account's correction-review list in creation order (id = uuidv7), after the cursor id, with each entry's resolution. */
  async corrections(accountId: bigint, q: CorrectionQuery, after: string | undefined, limit: number): Promise<CorrectionRecord[]> {
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
    const account = accountId.toString();
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(LOCK_HEAD_SQL, [account]);
      const entry = await client.query(
        `select c.id, c.supply_event_id, c.order_reference, c.reason, c.created_at, c.proposed, s.action, s.note
           from ${CORRECTION} c left join ${RESOLUTION} s on s.correction_id = c.id where c.account_id = $1 and c.id = $2`,
        [account, input.id],
      );
      const row = entry.rows[0] as Record<string, any> | undefined;
      const done = async (outcome: ResolveOutcome) => {
        await client.query(outcome.kind === 'resolved' ? 'commit' : 'rollback');
        return outcome;
      };
      if (!row) return await done({ kind: 'not_found' });
      if (row.action !== null) return await done({ kind: row.action === input.action && row.note === input.note ? 'replayed' : 'already_resolved' });
      const resolve = (ids: string[], decisionIds: (string | null)[]) =>
        client.query(
          `insert into ${RESOLUTION} (correction_id, account_id, action, note, resolved_at, api_key_id, decision_id)
           select id, $2::bigint, $3::text, $4::text, $5::timestamptz, $6::bigint, decision_id from unnest($1::uuid[], $7::uuid[]) as r(id, decision_id)`,
          [ids, account, input.action, input.note, now, input.apiKeyId.toString(), decisionIds],
        );
      if (input.action === 'dismiss') {
        await resolve([row.id], [null]);
        return await done({ kind: 'resolved', ids: [row.id] });
      }
      const siblings = row.order_reference === null ? { rows: [] } : await client.query(
        `select c.id, c.supply_event_id, c.proposed from ${CORRECTION} c
          where c.account_id = $1 and c.order_reference = $2 and c.reason = $3 and c.created_at = $4 and c.id <> $5
            and not exists (select 1 from ${RESOLUTION} s where s.correction_id = c.id) order by c.id`,
        [account, row.order_reference, row.reason, row.created_at, row.id],
      );
      const entries = [row, ...siblings.rows] as { id: string; supply_event_id: string; proposed: Record<string, any> }[];
      const eventIds = entries.map((e) => e.supply_event_id);
      if ((await client.query(FENCED_SQL, [account, eventIds])).rowCount) return await done({ kind: 'period_locked' });
      const heads = await client.query(
        `select e.id::text as event_id, d.id::text as head from ${EVENT} e
           left join ${DECISION} d on d.supply_event_id = e.id and not exists (select 1 from ${DECISION} x where x.supersedes = d.id)
          where e.account_id = $1 and e.id = any($2::uuid[])`,
        [account, eventIds],
      );
      const headOf = new Map<string, string | null>(heads.rows.map((h: { event_id: string; head: string | null }) => [h.event_id, h.head]));
      if (new Set(eventIds).size !== eventIds.length || entries.some((e) => (headOf.get(e.supply_event_id) ?? null) !== (e.proposed.supersedes ?? null))) return await done({ kind: 'stale' });
      const decisions: DecisionInput[] = entries.map(({ supply_event_id, proposed: p }) => ({
        supplyEventId: supply_event_id, supersedes: p.supersedes ?? null, classificationStatus: p.classificationStatus, taxClassId: p.taxClassId ?? null, source: 'manual',
        assignmentId: p.assignmentId ?? null, assignmentRevision: p.assignmentRevision ?? null, ruleId: p.ruleId ?? null, reason: p.reason ?? null,
        coverageManifestDigest: p.coverageManifestDigest ?? null, catalogDigest: p.catalogDigest ?? null,
      }));
      const stored = await writeDecisions(client, accountId, decisions, now, outboxOf);
      await resolve(entries.map((e) => e.id), stored.map((d) => d.id));
      return await done({ kind: 'resolved', ids: entries.map((e) => e.id) });
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      if ((err as { code?: string }).code === '23505') return { kind: 'stale' };
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Publishes the decisions appended before decisions were published (no `generation`, no outbox row):
   * their generation is their place in the chain, their outbox row gets the decision's id (so running it
   * twice adds nothing) and the account's published-decision count grows by what was added. Idempotent;
   * returns how many were published.
   */
  async publishUnpublished(now: Date, outboxOf: (d: AppendedDecision) => OutboxEvent): Promise<number> {
    const legacy = await this.pool.query(
      `with recursive chain as (
         select d.id, 1 as gen from ${DECISION} d
          where d.supersedes is null and d.supply_event_id in (select supply_event_id from ${DECISION} where generation is null)
         union all
         select d.id, c.gen + 1 from ${DECISION} d join chain c on d.supersedes = c.id)
       select d.*, d.account_id::text as account, c.gen from ${DECISION} d join chain c on c.id = d.id
        where d.generation is null and not exists (select 1 from ${OUTBOX} o where o.id = d.id)
        order by d.account_id, d.decided_at, d.id`,
    );
    const byAccount = new Map<string, AppendedDecision[]>();
    for (const r of legacy.rows as Record<string, any>[]) {
      const d: AppendedDecision = {
        id: r.id, accountId: BigInt(r.account), supplyEventId: r.supply_event_id, supersedes: r.supersedes, classificationStatus: r.classification_status, taxClassId: r.tax_class_id, source: r.source,
        assignmentId: r.assignment_id, assignmentRevision: r.assignment_revision, ruleId: r.rule_id, reason: r.reason, coverageManifestDigest: r.coverage_manifest_digest, catalogDigest: r.catalog_digest,
        generation: r.gen, decidedAt: pgTimestamp(r.decided_at),
      };
      byAccount.set(r.account, [...(byAccount.get(r.account) ?? []), d]);
    }
    let published = 0;
    for (const [account, decisions] of byAccount) {
      published += await inTransaction(this.pool, async (client) => {
        await client.query(LOCK_HEAD_SQL, [account]);
        const outbox = decisions.map(outboxOf);
        const r = await client.query(
          `with o as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts) select id, subject, payload, $5, 0 from unnest($1::uuid[], $2::text[], $3::bytea[]) as o(id, subject, payload) on conflict (id) do nothing returning id)
           update ${HEAD} set decision_count = decision_count + (select count(*) from o) where account_id = $4 returning (select count(*) from o)::int as n`,
          [outbox.map((o) => o.id), outbox.map((o) => o.subject), outbox.map((o) => Buffer.from(o.payload)), account, now],
        );
        return (r.rows[0]?.n as number | undefined) ?? 0;
      });
    }
    return published;
  }

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
}
