import type pg from 'pg';
import { payloadAt, payloadParams, type OutboxEvent } from '@vat/platform/outbox';
import { insertRowsStatement, pgTimestamp, type Queryable } from '@vat/platform/sql';
import { uuidv7 } from '@vat/platform/uuid7';
import { HEAD, underHeadLock } from './ledger-head';
import { anyFenced } from './return-period-fences';

const EVENT = '"ledger".supply_event';
const DECISION = '"ledger".classification_decision';
const OUTBOX = '"ledger".outbox';

/** A stored decision as it is published (ClassificationDecided). */
export type AppendedDecision = DecisionInput & { id: string; accountId: bigint; generation: number; decidedAt: Date };
type AppendOutcome = 'appended' | 'stale' | 'period_locked';

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

/**
 * Inserts decisions with their generation, their `ClassificationDecided` outbox rows and the head's count,
 * inside the caller's transaction (which holds the account's head lock: the chain lengths cannot move).
 */
export async function writeDecisions(client: pg.PoolClient, accountId: bigint, decisions: readonly DecisionInput[], now: Date, outboxOf: (d: AppendedDecision) => OutboxEvent): Promise<AppendedDecision[]> {
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
  const payloads = payloadParams(outbox);
  await client.query(
    `with o as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts) select id, subject, ${payloadAt('$3', 'o.start', 'o.len')}, now(), 0 from unnest($1::uuid[], $2::text[], $6::int[], $7::int[]) as o(id, subject, start, len))
     update ${HEAD} set decision_count = decision_count + $4 where account_id = $5`,
    [outbox.map((o) => o.id), outbox.map((o) => o.subject), payloads.bytes, stored.length, account, payloads.starts, payloads.lengths],
  );
  return stored;
}

/** Every statement on classification decisions: the product reads that feed them, appends and publication. */
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
    try {
      return await underHeadLock<AppendOutcome>(this.pool, accountId, async (client, _head, refuse) => {
        if (await anyFenced(client, accountId, decisions.map((d) => d.supplyEventId))) return refuse('period_locked');
        await writeDecisions(client, accountId, decisions, now, outboxOf);
        return 'appended';
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return 'stale';
      throw err;
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
      published += await underHeadLock(this.pool, BigInt(account), async (client) => {
        const outbox = decisions.map(outboxOf);
        const payloads = payloadParams(outbox);
        const r = await client.query(
          `with o as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts) select id, subject, ${payloadAt('$3', 'o.start', 'o.len')}, $5, 0 from unnest($1::uuid[], $2::text[], $6::int[], $7::int[]) as o(id, subject, start, len) on conflict (id) do nothing returning id)
           update ${HEAD} set decision_count = decision_count + (select count(*) from o) where account_id = $4 returning (select count(*) from o)::int as n`,
          [outbox.map((o) => o.id), outbox.map((o) => o.subject), payloads.bytes, account, now, payloads.starts, payloads.lengths],
        );
        return (r.rows[0]?.n as number | undefined) ?? 0;
      });
    }
    return published;
  }
}
