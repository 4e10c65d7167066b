import type pg from 'pg';
import { payloadAt, payloadParams, type OutboxEvent } from '@vat/platform/outbox';
import { JsonDocs, jsonDocsCte, jsonRowsSelect, pgTimestamp, rowsByKeys, Where, type JsonRowColumn } from '@vat/platform/sql';
import { uuidv7 } from '@vat/platform/uuid7';
import type { NormalizedSupplyEvent } from '../domain/supply-event-rules';
import { HEAD, underHeadLock, type LedgerHead } from './ledger-head';

const TABLE = '"ledger".supply_event';
const OUTBOX = '"ledger".outbox';

/** A stored event: the normalized content plus the ledger's id, position and knowledge time. */
export type SupplyEventRecord = NormalizedSupplyEvent & {
  id: string;
  accountId: bigint;
  sequence: bigint;
  recordedAt: Date;
  contentDigest: string;
  ecbRateEvidence: EcbRateEvidence | null;
  /** The customer's VAT number as AES-256-GCM ciphertext bound to the account; never leaves the ledger. */
  customerVatNumberEncrypted: Buffer | null;
};

/** ECB euro reference rates of the publication day last before the tax point (units per 1 EUR, as published). */
export type EcbRateEvidence = { rateDate: string; ratesPerEur: Record<string, string> };


export type CommitOutcome =
  | { ok: true; items: { record: SupplyEventRecord; created: boolean }[]; fencedPeriods: Set<string> }
  | { ok: false; conflicts: { index: number; eventId: string }[] };

/** Validated list filters. */
export type SupplyEventQuery = { from?: string; to?: string; eventType?: string; countryOfConsumption?: string; supplyKind?: string; classificationStatus?: string; sourceId?: string };

/** Record field → column and its SQL type (the rows of WRITE_SQL, in this order); the one mapping of the table. */
const COLUMNS: [keyof SupplyEventRecord, string, string][] = [
  ['id', 'id', 'uuid'],
  ['accountId', 'account_id', 'bigint'],
  ['sequence', 'sequence', 'bigint'],
  ['eventId', 'event_id', 'text'],
  ['contentDigest', 'content_digest', 'text'],
  ['recordedAt', 'recorded_at', 'timestamptz'],
  ['eventType', 'event_type', 'text'],
  ['originalEventId', 'original_event_id', 'text'],
  ['occurredAt', 'occurred_at', 'timestamptz'],
  ['supplyKind', 'supply_kind', 'text'],
  ['customerType', 'customer_type', 'text'],
  ['countryOfConsumption', 'country_of_consumption', 'text'],
  ['dispatchCountry', 'dispatch_country', 'text'],
  ['supplierEstablishmentCountry', 'supplier_establishment_country', 'text'],
  ['currency', 'currency', 'text'],
  ['netAmountMinor', 'net_amount_minor', 'bigint'],
  ['vatAmountMinor', 'vat_amount_minor', 'bigint'],
  ['vatRateBps', 'vat_rate_bps', 'int'],
  ['rateCategory', 'rate_category', 'text'],
  ['classificationStatus', 'classification_status', 'text'],
  ['taxClassId', 'tax_class_id', 'text'],
  ['productReference', 'product_reference', 'text'],
  ['variantReference', 'variant_reference', 'text'],
  ['orderReference', 'order_reference', 'text'],
  ['integrationId', 'integration_id', 'bigint'],
  ['sourceId', 'source_id', 'text'],
  ['calculationId', 'calculation_id', 'uuid'],
  ['consignmentReference', 'consignment_reference', 'text'],
  ['intrinsicValueEurMinor', 'intrinsic_value_eur_minor', 'bigint'],
  ['thirdCountryOrigin', 'third_country_origin', 'text'],
  ['exciseGoods', 'excise_goods', 'boolean'],
  ['region', 'region', 'text'],
  ['ecbRateEvidence', 'ecb_rate_evidence', 'jsonb'],
  ['customerVatNumberDigest', 'customer_vat_number_digest', 'text'],
  ['customerVatNumberMasked', 'customer_vat_number_masked', 'text'],
  ['customerVatNumberEncrypted', 'customer_vat_number_encrypted', 'bytea'],
];
const BIGINTS = new Set(COLUMNS.filter(([, , t]) => t === 'bigint').map(([f]) => f));
/** The account's rows by `event_id`: the duplicate check (inside the head lock) and the originals' rates. */
const byEventIds = (columns: string) => rowsByKeys(TABLE, columns, 'account_id = $1', 'event_id', '$2');
const EXISTING_SQL = byEventIds('*');
const RATES_SQL = byEventIds('event_id, vat_rate_bps, rate_category, region, occurred_at');
/** Union OSS quarters fenced for a lock (FenceReturnPeriod takes the same head lock: read under it, the answer is exact). */
const FENCED_SQL = `select period_key from "ledger".return_period_fence where account_id = $1`;
/**
 * The events, their outbox rows and the new head in one statement (one round trip while the head is locked).
 * The ECB evidence is sent once per distinct object (`$7`, a JSON array; a batch has one per tax-point day) and
 * each row names its entry (`ecb_evidence`, 1-based): PostgreSQL turns each into jsonb once, not once per event
 * (16 of the 53 ms of a 1,000-event insert in a psql measurement). The outbox payloads go in one binary parameter
 * (`$4`, cut by `$8` and `$9`: payloadParams), not as hex text.
 */
const WRITE_SQL = `with ${jsonDocsCte('evidence', '$7')},
  events as (
    insert into ${TABLE} (${COLUMNS.map(([, c]) => c).join(', ')})
    select ${COLUMNS.map(([, c]) => (c === 'ecb_rate_evidence' ? 'evidence.doc' : `r.${c}`)).join(', ')}
    from (${jsonRowsSelect('$1', COLUMNS.map(([, c, t]): JsonRowColumn => (c === 'ecb_rate_evidence' ? ['ecb_evidence', 'int'] : [c, t])))}) as r
    left join evidence on evidence.ord = r.ecb_evidence),
  outbox as (
    insert into ${OUTBOX} (id, subject, payload, created_at, attempts)
    select id, subject, ${payloadAt('$4', 'o.start', 'o.len')}, now(), 0 from unnest($2::uuid[], $3::text[], $8::int[], $9::int[]) as o(id, subject, start, len))
  update ${HEAD} set sequence = $6 where account_id = $5`;

function toRecord(r: Record<string, unknown>): SupplyEventRecord {
  const out: Record<string, unknown> = {};
  for (const [field, column] of COLUMNS) {
    const v = r[column];
    out[field] = v === null || v === undefined ? null : BIGINTS.has(field) ? BigInt(v as string) : field === 'recordedAt' ? pgTimestamp(v) : field === 'occurredAt' ? pgTimestamp(v).toISOString() : v;
  }
  return out as SupplyEventRecord;
}

/** Each column's value as its row cell: by the column's SQL type (the evidence by its entry in the statement's documents). */
const CELLS: ((v: any, evidence: JsonDocs) => unknown)[] = COLUMNS.map(([field, , type]) => {
  if (field === 'ecbRateEvidence') return (v: EcbRateEvidence, evidence) => evidence.ref(v);
  if (type === 'bigint') return (v: bigint) => v.toString();
  if (type === 'timestamptz') return (v: Date | string) => (v instanceof Date ? v.toISOString() : v);
  if (type === 'bytea') return (v: Buffer) => `\\x${v.toString('hex')}`;
  return (v: unknown) => v;
});
const FIELDS = COLUMNS.map(([field]) => field);

/** The rows of WRITE_SQL's `$1` (positional, {@link COLUMNS}' order) and the distinct evidence objects of its `$7` (each row names its entry, 1-based). */
function writeParams(records: readonly SupplyEventRecord[]): { rows: string; evidence: string } {
  const evidence = new JsonDocs();
  const rows = records.map((rec) => {
    const out: unknown[] = new Array(FIELDS.length);
    for (let i = 0; i < FIELDS.length; i++) {
      const v = rec[FIELDS[i]!];
      out[i] = v === null || v === undefined ? null : CELLS[i]!(v, evidence);
    }
    return out;
  });
  return { rows: JSON.stringify(rows), evidence: evidence.param() };
}

function filterWhere(accountId: bigint, q: SupplyEventQuery): Where {
  const w = new Where().and('account_id = ?', accountId.toString());
  if (q.from !== undefined) w.and('occurred_at >= ?::date', q.from);
  if (q.to !== undefined) w.and('occurred_at < ?::date + 1', q.to);
  if (q.eventType !== undefined) w.and('event_type = ?', q.eventType);
  if (q.countryOfConsumption !== undefined) w.and('country_of_consumption = ?', q.countryOfConsumption);
  if (q.supplyKind !== undefined) w.and('supply_kind = ?', q.supplyKind);
  if (q.classificationStatus !== undefined) w.and('classification_status = ?', q.classificationStatus);
  if (q.sourceId !== undefined) w.and('source_id = ?', q.sourceId);
  return w;
}

/** Every SQL statement of the supply-event aggregate, through the ledger's one pool. */
export class SupplyEventRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Commits a batch all-or-nothing in one transaction holding the account's ledger head: events
   * whose event_id exists with the same content digest are returned as they are; a different
   * digest (or two different contents for one id inside the batch) refuses the whole batch.
   * New events get the next sequences and their outbox events (`outboxOf` the new records, in ledger order) in the same transaction.
   */
  async commit(accountId: bigint, batch: { event: NormalizedSupplyEvent; digest: string; evidence: EcbRateEvidence | null; customerVatNumberEncrypted: Buffer | null }[], now: Date, outboxOf: (fresh: SupplyEventRecord[]) => OutboxEvent[]): Promise<CommitOutcome> {
    const account = accountId.toString();
    const ids = [...new Set(batch.map((b) => b.event.eventId))];
    return underHeadLock<CommitOutcome>(this.pool, accountId, async (client, head, refuse) => {
      // A statement of its own, started once the lock is granted: it sees every earlier commit.
      const found = await client.query(EXISTING_SQL, [account, ids]);
      const fencedPeriods = new Set((await client.query<{ period_key: string }>(FENCED_SQL, [account])).rows.map((r) => r.period_key));
      let sequence = head.sequence;
      const known = new Map<string, SupplyEventRecord>(found.rows.map((r: Record<string, unknown>) => [r.event_id as string, toRecord(r)]));
      const items: { record: SupplyEventRecord; created: boolean }[] = [];
      const fresh: SupplyEventRecord[] = [];
      const conflicts: { index: number; eventId: string }[] = [];
      batch.forEach(({ event, digest, evidence, customerVatNumberEncrypted }, index) => {
        const existing = known.get(event.eventId);
        if (existing) {
          if (existing.contentDigest !== digest) conflicts.push({ index, eventId: event.eventId });
          else items.push({ record: existing, created: false });
          return;
        }
        sequence += 1n;
        const record: SupplyEventRecord = { ...event, id: uuidv7(), accountId, sequence, recordedAt: now, contentDigest: digest, ecbRateEvidence: evidence, customerVatNumberEncrypted };
        known.set(event.eventId, record);
        fresh.push(record);
        items.push({ record, created: true });
      });
      if (conflicts.length) return refuse({ ok: false, conflicts });
      if (!fresh.length) return { ok: true, items, fencedPeriods };
      const outbox = outboxOf(fresh);
      const { rows, evidence } = writeParams(fresh);
      const payloads = payloadParams(outbox);
      const params = [rows, outbox.map((o) => o.id), outbox.map((o) => o.subject), payloads.bytes, account, sequence.toString(), evidence, payloads.starts, payloads.lengths];
      await client.query(WRITE_SQL, params);
      return { ok: true, items, fencedPeriods };
    });
  }

  /** The committed rate of each of these event_ids (the originals corrections must carry). */
  async ratesOf(accountId: bigint, eventIds: string[]): Promise<{ eventId: string; vatRateBps: number; rateCategory: string; region: string | null; occurredAt: string }[]> {
    const res = await this.pool.query<{ event_id: string; vat_rate_bps: number; rate_category: string; region: string | null; occurred_at: unknown }>(
      RATES_SQL,
      [accountId.toString(), eventIds],
    );
    return res.rows.map((r) => ({ eventId: r.event_id, vatRateBps: r.vat_rate_bps, rateCategory: r.rate_category, region: r.region, occurredAt: pgTimestamp(r.occurred_at).toISOString() }));
  }

  async byId(accountId: bigint, id: string): Promise<SupplyEventRecord | undefined> {
    const res = await this.pool.query(`select * from ${TABLE} where account_id = $1 and id = $2`, [accountId.toString(), id]);
    return res.rows[0] ? toRecord(res.rows[0]) : undefined;
  }

  /** In ledger order (sequence ascending), after the given sequence. */
  async page(accountId: bigint, q: SupplyEventQuery, limit: number, afterSequence?: bigint): Promise<{ rows: SupplyEventRecord[]; more: boolean }> {
    const w = filterWhere(accountId, q);
    if (afterSequence !== undefined) w.and('sequence > ?', afterSequence.toString());
    const res = await this.pool.query(`select * from ${TABLE} where ${w.sql} order by sequence limit ${w.param(limit + 1)}`, w.values);
    const rows = res.rows.map(toRecord);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  /** The account's ledger head and published-decision count in one read (0 and 0 when none). */
  async head(accountId: bigint): Promise<LedgerHead> {
    const r = await this.pool.query(`select sequence::text as s, decision_count::text as n from ${HEAD} where account_id = $1`, [accountId.toString()]);
    return r.rows[0] ? { sequence: BigInt(r.rows[0].s), decisionCount: BigInt(r.rows[0].n) } : { sequence: 0n, decisionCount: 0n };
  }

  async count(accountId: bigint, q: SupplyEventQuery): Promise<bigint> {
    const w = filterWhere(accountId, q);
    const res = await this.pool.query(`select count(*)::text as n from ${TABLE} where ${w.sql}`, w.values);
    return BigInt(res.rows[0].n as string);
  }
}
