import { defineEntity, p } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { ClassificationDecidedSchema, SupplyCommittedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import type { SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { BusMessage, Subscription } from './bus';
import { decodeEvent, subjectOf } from './events';
import { SUPPLY_MESSAGES_PER_PULL, SUPPLY_PROJECTION_LINGER_MS, supplyGroups } from './supply-committed';
import { freshEvents } from './inbox';
import { inTransaction } from './transaction';
import { jsonRowsSelect, type JsonRowColumn } from './sql';

/**
 * A service's own copy of committed supply events (from `SupplyCommitted`), and the position it
 * reflects per account. Reports and thresholds read only their projection; a read that must be
 * current compares `applied` with the ledger head (`GetLedgerHead`): equal means caught up, since
 * the ledger numbers each account's events 1, 2, 3, … and each is applied exactly once.
 */
/**
 * The columns of a committed supply event, shared by the ledger's `supply_event` (which adds its
 * digest, `variant_reference` and `calculation_id`) and every projection's `supply_fact`: one
 * definition, so a field added to the event is added to both. A fresh set of builders per call.
 */
export function supplyEventProperties() {
  return {
    id: p.uuid().primary(),
    accountId: p.bigint(),
    sequence: p.bigint(),
    eventId: p.string().length(100),
    recordedAt: p.datetime(),
    eventType: p.string().length(20),
    originalEventId: p.string().length(100).nullable(),
    occurredAt: p.datetime(),
    supplyKind: p.string().length(30),
    customerType: p.string().length(3),
    countryOfConsumption: p.string().length(2),
    dispatchCountry: p.string().length(2).nullable(),
    supplierEstablishmentCountry: p.string().length(2).nullable(),
    currency: p.string().length(3),
    netAmountMinor: p.bigint(),
    vatAmountMinor: p.bigint(),
    vatRateBps: p.integer(),
    rateCategory: p.string().length(20),
    classificationStatus: p.string().length(20),
    taxClassId: p.string().length(60).nullable(),
    productReference: p.string().length(200).nullable(),
    orderReference: p.string().length(200).nullable(),
    integrationId: p.bigint().nullable(),
    sourceId: p.string().length(100).nullable(),
    consignmentReference: p.string().length(100).nullable(),
    intrinsicValueEurMinor: p.bigint().nullable(),
    thirdCountryOrigin: p.string().length(2).nullable(),
    exciseGoods: p.boolean().nullable(),
    /** Keyed digest of the customer's VAT number (never the number): matched against VIES evidence. */
    customerVatNumberDigest: p.string().length(64).nullable(),
  };
}

export function defineSupplyProjectionEntities<X extends Record<string, any> = Record<never, never>>(extraProperties?: X) {
  const SupplyFact = defineEntity({
    name: 'SupplyFact',
    tableName: 'supply_fact',
    properties: {
      ...supplyEventProperties(),
      ...(extraProperties ?? ({} as X)),
      // `classification_status` and `tax_class_id` hold the classification in effect: as committed, then
      // the latest applied `ClassificationDecided` (these two columns name it; 0 / null = none applied).
      decisionId: p.uuid().nullable(),
      decisionGeneration: p.integer().default(0),
    },
    uniques: [{ properties: ['accountId', 'sequence'] }],
    indexes: [{ properties: ['accountId', 'occurredAt'] }, { properties: ['accountId', 'eventId'] }],
  });
  const ProjectionPosition = defineEntity({
    name: 'SupplyProjectionPosition',
    tableName: 'supply_projection_position',
    properties: {
      accountId: p.bigint().primary().autoincrement(false),
      applied: p.bigint(),
      /** How many `ClassificationDecided` events of the account were applied (compared with the ledger's count). */
      decisionsApplied: p.bigint().default(0),
    },
  });
  return { SupplyFact, ProjectionPosition };
}

/** Projection column → value of the event message, and its SQL type (the one mapping). */
const COLUMNS: [string, string, (e: SupplyEvent) => unknown][] = [
  ['id', 'uuid', (e) => e.id],
  ['account_id', 'bigint', (e) => e.accountId.toString()],
  ['sequence', 'bigint', (e) => e.sequence.toString()],
  ['event_id', 'text', (e) => e.eventId],
  ['recorded_at', 'timestamptz', (e) => e.recordedAt],
  ['event_type', 'text', (e) => e.eventType],
  ['original_event_id', 'text', (e) => e.originalEventId ?? null],
  ['occurred_at', 'timestamptz', (e) => e.occurredAt],
  ['supply_kind', 'text', (e) => e.supplyKind],
  ['customer_type', 'text', (e) => e.customerType],
  ['country_of_consumption', 'text', (e) => e.countryOfConsumption],
  ['dispatch_country', 'text', (e) => e.dispatchCountry ?? null],
  ['supplier_establishment_country', 'text', (e) => e.supplierEstablishmentCountry ?? null],
  ['currency', 'text', (e) => e.currency],
  ['net_amount_minor', 'bigint', (e) => e.netAmountMinor.toString()],
  ['vat_amount_minor', 'bigint', (e) => e.vatAmountMinor.toString()],
  ['vat_rate_bps', 'int', (e) => e.vatRateBps],
  ['rate_category', 'text', (e) => e.rateCategory],
  ['classification_status', 'text', (e) => e.classificationStatus],
  ['tax_class_id', 'text', (e) => e.taxClassId ?? null],
  ['product_reference', 'text', (e) => e.productReference ?? null],
  ['order_reference', 'text', (e) => e.orderReference ?? null],
  ['integration_id', 'bigint', (e) => e.integrationId?.toString() ?? null],
  ['source_id', 'text', (e) => e.sourceId ?? null],
  ['consignment_reference', 'text', (e) => e.consignmentReference ?? null],
  ['intrinsic_value_eur_minor', 'bigint', (e) => e.intrinsicValueEurMinor?.toString() ?? null],
  ['third_country_origin', 'text', (e) => e.thirdCountryOrigin ?? null],
  ['excise_goods', 'boolean', (e) => e.exciseGoods ?? null],
  ['customer_vat_number_digest', 'text', (e) => e.customerVatNumberDigest ?? null],
];

/**
 * Columns a projection adds to its `supply_fact` (after {@link COLUMNS}), each with its value of the event: thresholds
 * names each fact's ECB rate evidence document. Its SupplyFact entity declares them ({@link defineSupplyProjectionEntities}).
 */
export type ExtraFactColumns = { columns: readonly JsonRowColumn[]; values: (e: SupplyEvent) => unknown[] };

/** One statement per batch: inbox, the facts of only fresh events, and the positions they advance; yields the fresh ids. */
function applySql(schema: string, extra: readonly JsonRowColumn[] = []): string {
  const all = [...COLUMNS.map(([c, t]): JsonRowColumn => [c, t]), ...extra];
  const cols = all.map(([c]) => c).join(', ');
  return `with ${freshEvents(schema)},
    rows as (${jsonRowsSelect('$3', [['message_id', 'text'], ...all])}),
    ins as (
      insert into "${schema}".supply_fact (${cols})
      select distinct on (rows.id) ${all.map(([c]) => `rows.${c}`).join(', ')} from rows join fresh on fresh.event_id = rows.message_id
      on conflict (id) do nothing
      returning account_id),
    pos as (
      insert into "${schema}".supply_projection_position (account_id, applied)
      select account_id, count(*) from ins group by account_id
      on conflict (account_id) do update set applied = "${schema}".supply_projection_position.applied + excluded.applied)
    select event_id from fresh`;
}

const APPLY_SQL = new Map<string, string>();

/** A `SupplyCommitted` message with its events (up to 250 of one account; one for versions that published one per event). */
export type DecodedSupply = { messageId: string; events: SupplyEvent[] };

/** Decodes a batch of `SupplyCommitted` messages, in delivery order. */
export function decodeSupplyMessages(batch: readonly BusMessage[]): DecodedSupply[] {
  return batch.map((msg) => {
    const ev = decodeEvent(SupplyCommittedSchema, msg.data);
    return { messageId: ev.eventId || msg.id, events: ev.supplyEvents.length ? ev.supplyEvents : ev.supplyEvent ? [ev.supplyEvent] : [] };
  });
}

/**
 * Applies decoded messages to `schema`'s projection through `db` (a pool, or a transaction's client when a
 * service adds its own effects to the same transaction), in one statement. Returns the message ids its inbox
 * saw for the first time (a service's own effects apply to their events only).
 */
export async function applySupplyProjection(db: Pick<pg.Pool | pg.PoolClient, 'query'>, schema: string, durable: string, decoded: readonly DecodedSupply[], extra?: ExtraFactColumns): Promise<Set<string>> {
  const key = extra ? `${schema}:${extra.columns.map(([c]) => c).join(',')}` : schema;
  let sql = APPLY_SQL.get(key);
  if (sql === undefined) APPLY_SQL.set(key, (sql = applySql(schema, extra?.columns)));
  const res = await db.query(sql, [decoded.map((d) => d.messageId), durable, rowsText(decoded, extra)]);
  return new Set(res.rows.map((r: { event_id: string }) => r.event_id));
}

/** The rows of {@link applySql}'s `$3` ({@link jsonRowsSelect}): per event its message id, then {@link COLUMNS} in order, then `extra`'s. */
export function rowsText(decoded: readonly DecodedSupply[], extra?: ExtraFactColumns): string {
  // Arrays of primitives in a plain loop (no objects, no spread): two projections build 2,000 of these per group.
  const rows: unknown[][] = [];
  for (const { messageId, events } of decoded) {
    for (const event of events) {
      const row: unknown[] = [messageId];
      for (let i = 0; i < COLUMNS.length; i++) row.push(COLUMNS[i]![2](event));
      if (extra) {
        const values = extra.values(event);
        if (values.length !== extra.columns.length) throw new Error(`supply projection: ${values.length} values for ${extra.columns.length} extra columns`);
        for (const v of values) row.push(v);
      }
      rows.push(row);
    }
  }
  return JSON.stringify(rows);
}

/**
 * The durable consumer that keeps `schema`'s projection of the ledger: a statement per group of whole messages of
 * at most 2,000 events, pulling that many at a time (so a process holds one group, decoded, at once).
 */
export function supplyProjectionConsumer(pool: pg.Pool, schema: string, durable: string): Subscription {
  return {
    durable,
    subjects: [subjectOf(SupplyCommittedSchema)],
    maxBatch: SUPPLY_MESSAGES_PER_PULL,
    lingerMs: SUPPLY_PROJECTION_LINGER_MS,
    handler: async (batch) => {
      for (const group of supplyGroups(batch)) await applySupplyProjection(pool, schema, durable, decodeSupplyMessages(group));
    },
  };
}

/** How many of the account's ledger events the projection has applied (its ledger position). */
export async function projectionPosition(pool: pg.Pool, schema: string, accountId: bigint): Promise<bigint> {
  const res = await pool.query(`select applied::text as applied from "${schema}".supply_projection_position where account_id = $1`, [accountId.toString()]);
  return res.rows[0] ? BigInt(res.rows[0].applied as string) : 0n;
}

/** A fact whose classification a decision changed: the facts before, and the classification now in effect. */
export type Reclassified = { before: Record<string, any>; classificationStatus: string; taxClassId: string | null };

/**
 * Applies a batch of `ClassificationDecided` events to `schema`'s projection inside the caller's
 * transaction (`db` must be a transaction's client): records the ids in the inbox, and for the fresh ones
 * moves each fact to the newest decision of its chain (by `generation`: a decision older than the one
 * applied never wins, whatever order the bus delivers them in), in place (`classification_status`,
 * `tax_class_id`, `decision_id`, `decision_generation`), and counts them in the position's
 * `decisions_applied`. A decision whose fact is not projected yet (its `SupplyCommitted` travels on
 * another durable) throws, so the batch is rolled back and delivered again. Returns the facts that
 * changed, with their columns as they were (`factColumns`, locked `for update`).
 */
export async function applyClassificationDecisions(db: Pick<pg.PoolClient, 'query'>, schema: string, durable: string, batch: BusMessage[], factColumns = 'f.*'): Promise<Reclassified[]> {
  const decoded = batch.map((msg) => decodeEvent(ClassificationDecidedSchema, msg.data)).map((d, i) => ({ ...d, eventId: d.eventId || batch[i]!.id }));
  const inbox = await db.query(
    `with ${freshEvents(schema)} select event_id from fresh`,
    [decoded.map((d) => d.eventId), durable],
  );
  const fresh = new Set(inbox.rows.map((r: { event_id: string }) => r.event_id));
  const latest = new Map<string, (typeof decoded)[number]>();
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (const d of decoded) {
    if (!fresh.has(d.eventId) || seen.has(d.eventId)) continue;
    seen.add(d.eventId);
    counts.set(d.accountId.toString(), (counts.get(d.accountId.toString()) ?? 0) + 1);
    const had = latest.get(d.supplyEventId);
    if (!had || d.generation > had.generation) latest.set(d.supplyEventId, d);
  }
  if (latest.size === 0) return [];
  const facts = await db.query(
    `select ${factColumns}, f.id::text as fact_id_key, f.account_id::text as fact_account_key, f.decision_generation as fact_generation_key from "${schema}".supply_fact f
      where f.id = any($1::uuid[]) order by f.id for update`,
    [[...latest.keys()]],
  );
  const byId = new Map<string, Record<string, any>>(facts.rows.map((r: Record<string, any>) => [r.fact_id_key, r]));
  const missing = [...latest.values()].filter((d) => byId.get(d.supplyEventId)?.fact_account_key !== d.accountId.toString());
  if (missing.length) throw new Error(`${missing.length} classification decisions name supply events not projected yet (first ${missing[0]!.supplyEventId}); retrying`);
  const changes = [...latest.values()].filter((d) => d.generation > byId.get(d.supplyEventId)!.fact_generation_key);
  if (changes.length) {
    await db.query(
      `update "${schema}".supply_fact f set classification_status = r.classification_status, tax_class_id = r.tax_class_id, decision_id = r.decision_id, decision_generation = r.generation
         from json_to_recordset($1::json) as r(id uuid, classification_status text, tax_class_id text, decision_id uuid, generation int)
        where f.id = r.id and f.decision_generation < r.generation`,
      [JSON.stringify(changes.map((d) => ({ id: d.supplyEventId, classification_status: d.classificationStatus, tax_class_id: d.taxClassId ?? null, decision_id: d.eventId, generation: d.generation })))],
    );
  }
  await db.query(
    `insert into "${schema}".supply_projection_position (account_id, applied, decisions_applied)
     select account_id, 0, n from json_to_recordset($1::json) as r(account_id bigint, n bigint)
     on conflict (account_id) do update set decisions_applied = "${schema}".supply_projection_position.decisions_applied + excluded.decisions_applied`,
    [JSON.stringify([...counts].map(([account_id, n]) => ({ account_id, n })))],
  );
  return changes.map((d) => {
    const { fact_id_key: _a, fact_account_key: _b, fact_generation_key: _c, ...before } = byId.get(d.supplyEventId)!;
    return { before, classificationStatus: d.classificationStatus, taxClassId: d.taxClassId ?? null };
  });
}

/** The durable consumer that keeps `schema`'s facts on the latest classification decision (one transaction per batch). */
export function classificationDecisionConsumer(pool: pg.Pool, schema: string, durable: string): Subscription {
  return {
    durable,
    subjects: [subjectOf(ClassificationDecidedSchema)],
    handler: async (batch) => {
      await inTransaction(pool, (client) => applyClassificationDecisions(client, schema, durable, batch));
    },
  };
}
