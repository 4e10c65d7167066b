import type pg from 'pg';
import { insertRowsStatement, type Queryable } from '@vat/platform/sql';
import { uuidv7 } from '@vat/platform/uuid7';

const EVENT = '"ledger".supply_event';
const DECISION = '"ledger".classification_decision';
const CORRECTION = '"ledger".classification_correction';

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
  assignment_revision: 'int', rule_id: 'text', reason: 'text', coverage_manifest_digest: 'text', catalog_digest: 'text', decided_at: 'timestamptz',
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
   * Appends one order's decisions in one transaction. Each decision supersedes the one the caller saw;
   * when another decision was appended meanwhile the unique chain constraint refuses it and nothing of
   * the order is written (returns false).
   */
  async appendOrder(accountId: bigint, decisions: readonly DecisionInput[], now: Date): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { text, values } = insertRowsStatement(
        DECISION,
        DECISION_COLUMNS,
        decisions.map((d) => ({
          id: uuidv7(now.getTime()), account_id: accountId.toString(), supply_event_id: d.supplyEventId, supersedes: d.supersedes, classification_status: d.classificationStatus, tax_class_id: d.taxClassId, source: d.source,
          assignment_id: d.assignmentId, assignment_revision: d.assignmentRevision, rule_id: d.ruleId, reason: d.reason, coverage_manifest_digest: d.coverageManifestDigest, catalog_digest: d.catalogDigest, decided_at: now,
        })),
      );
      await client.query(text, values);
      await client.query('commit');
      return true;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      if ((err as { code?: string }).code === '23505') return false;
      throw err;
    } finally {
      client.release();
    }
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
