import type pg from 'pg';
import { insertRowsStatement, pgTimestamp, type Queryable } from '@vat/platform/sql';
import { uuidv7 } from '@vat/platform/uuid7';

const EVENT = '"ledger".supply_event';
const DECISION = '"ledger".classification_decision';
const CORRECTION = '"ledger".classification_correction';
const HEAD = '"ledger".ledger_head';
const FENCE = '"ledger".return_period_fence';
const OUTBOX = '"ledger".outbox';

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
export type OutboxEvent = { id: string; subject: string; payload: Uint8Array };
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
};
export type CorrectionQuery = { reason?: string; orderReference?: string; supplyEventId?: string; productReference?: string };

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
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(LOCK_HEAD_SQL, [account]);
      const fenced = await client.query(
        `select 1 from ${EVENT} e join ${FENCE} f on f.account_id = e.account_id and f.period_key = to_char(e.occurred_at at time zone 'UTC', 'YYYY-"Q"Q')
          where e.account_id = $1 and e.id = any($2::uuid[]) and e.supply_kind <> 'imported_goods' limit 1`,
        [account, ids],
      );
      if (fenced.rowCount) {
        await client.query('rollback');
        return 'period_locked';
      }
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
      await client.query('commit');
      return 'appended';
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      if ((err as { code?: string }).code === '23505') return 'stale';
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Fences a Union OSS quarter (idempotent) under the account's head lock and answers the head and the
   * published-decision count at that moment: every decision appended before the fence is counted, every
   * one after it sees the fence.
   */
  async fence(accountId: bigint, periodKey: string, now: Date): Promise<{ sequence: bigint; decisionCount: bigint; periodDecisionCount: bigint }> {
    const account = accountId.toString();
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const head = await client.query(LOCK_HEAD_SQL, [account]);
      await client.query(`insert into ${FENCE} (account_id, period_key, fenced_at) values ($1, $2, $3) on conflict do nothing`, [account, periodKey, now]);
      const inPeriod = await client.query(
        `select count(*)::text as n from ${DECISION} d join ${EVENT} e on e.id = d.supply_event_id
          where e.account_id = $1 and e.occurred_at >= $2::timestamptz and e.occurred_at < $3::timestamptz and e.supply_kind <> 'imported_goods'`,
        [account, ...quarterBounds(periodKey)],
      );
      await client.query('commit');
      return { sequence: BigInt(head.rows[0].sequence), decisionCount: BigInt(head.rows[0].decision_count), periodDecisionCount: BigInt(inPeriod.rows[0].n) };
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** The account's ledger head and published-decision count in one read (0 and 0 when none). */
  async head(accountId: bigint): Promise<{ sequence: bigint; decisionCount: bigint }> {
    const r = await this.pool.query(`select sequence::text as s, decision_count::text as n from ${HEAD} where account_id = $1`, [accountId.toString()]);
    return r.rows[0] ? { sequence: BigInt(r.rows[0].s), decisionCount: BigInt(r.rows[0].n) } : { sequence: 0n, decisionCount: 0n };
  }

  /** A page of the account's correction-review list in creation order (id = uuidv7), after the cursor id. */
  async corrections(accountId: bigint, q: CorrectionQuery, after: string | undefined, limit: number): Promise<CorrectionRecord[]> {
    const r = await this.pool.query(
      `select c.id, c.supply_event_id, e.event_id, c.order_reference, e.product_reference, e.integration_id::text as integration_id, e.occurred_at, c.reason, c.proposed, c.created_at
         from ${CORRECTION} c join ${EVENT} e on e.id = c.supply_event_id and e.account_id = c.account_id
        where c.account_id = $1 and ($2::uuid is null or c.id > $2::uuid) and ($3::text is null or c.reason = $3) and ($4::text is null or c.order_reference = $4)
          and ($5::uuid is null or c.supply_event_id = $5::uuid) and ($6::text is null or e.product_reference = $6)
        order by c.id limit $7`,
      [accountId.toString(), after ?? null, q.reason ?? null, q.orderReference ?? null, q.supplyEventId ?? null, q.productReference ?? null, limit],
    );
    return r.rows.map((row: Record<string, any>) => ({
      id: row.id, supplyEventId: row.supply_event_id, eventId: row.event_id, orderReference: row.order_reference, productReference: row.product_reference,
      integrationId: row.integration_id === null ? null : BigInt(row.integration_id), occurredAt: pgTimestamp(row.occurred_at), reason: row.reason, proposed: row.proposed, createdAt: pgTimestamp(row.created_at),
    }));
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
      const client = await this.pool.connect();
      try {
        await client.query('begin');
        await client.query(LOCK_HEAD_SQL, [account]);
        const outbox = decisions.map(outboxOf);
        const r = await client.query(
          `with o as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts) select id, subject, payload, $5, 0 from unnest($1::uuid[], $2::text[], $3::bytea[]) as o(id, subject, payload) on conflict (id) do nothing returning id)
           update ${HEAD} set decision_count = decision_count + (select count(*) from o) where account_id = $4 returning (select count(*) from o)::int as n`,
          [outbox.map((o) => o.id), outbox.map((o) => o.subject), outbox.map((o) => Buffer.from(o.payload)), account, now],
        );
        await client.query('commit');
        published += r.rows[0]?.n ?? 0;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
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
