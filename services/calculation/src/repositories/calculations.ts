import type pg from 'pg';
import { calculationGroupHead, calculationGroupPart } from '@vat/platform/calculation-recorded';
import { subjectOf } from '@vat/platform/events';
import { isDatabaseUnavailable } from '@vat/platform/db-faults';
import { payloadAt, payloadParams, type OutboxEvent } from '@vat/platform/outbox';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { sha256Hex } from '@vat/platform/canonical-json';
import { insertStatement, jsonRowsSelect, keysetBatches, pgTimestamp, Where, type JsonRowColumn, type Statement } from '@vat/platform/sql';
import { preparedStatement } from '@vat/platform/prepared';
import { deepFreeze } from '../domain/deep-freeze';
import type { CanonicalRequest, StoredRateEvidence } from '../evidence';

const TABLE = '"calculation".calculation';
const CALCULATION_RECORDED_SUBJECT = subjectOf(CalculationRecordedSchema);
const OUTBOX = '"calculation".outbox';
/** Each rate window's evidence, stored once; a calculation names its document by `rate_evidence_digest`. */
const DOCS = '"calculation".rate_evidence_doc';

/** A stored calculation with its sealed evidence, as the handlers use it. */
export type CalculationRecord = {
  seq: bigint;
  id: string;
  accountId: bigint;
  apiKeyId: bigint;
  createdAt: Date;
  transactionDate: Date;
  country: string;
  currency: string;
  taxClassId: string;
  priceIncludesVat: boolean;
  amountMinor: bigint;
  netMinor: bigint;
  vatMinor: bigint;
  grossMinor: bigint;
  vatRateBps: number;
  sourceId: string | null;
  idempotencyKey: string | null;
  requestDigest: string;
  canonicalRequest: CanonicalRequest;
  rateEvidence: StoredRateEvidence;
  rateEvidenceStatus: string;
  replayStatus: string;
  calculationVersion: string;
  executionDigest: string;
  manifestDigest: string;
};

export type NewCalculation = Omit<CalculationRecord, 'seq'>;

/** Validated history filters (see domain/transaction-filter.ts). */
export type TransactionQuery = {
  from?: string;
  to?: string;
  country?: string;
  currency?: string;
  taxClassId?: string;
  sourceId?: string;
  apiKeyId?: bigint;
};

/** One export row: the stored columns the CSV needs, timestamps already as ISO strings. */
export type ExportRow = {
  seq: string;
  id: string;
  createdAt: string;
  transactionDate: string;
  country: string;
  currency: string;
  taxClassId: string;
  priceIncludesVat: boolean;
  vatRateBps: number;
  netMinor: string;
  vatMinor: string;
  grossMinor: string;
  sourceId: string | null;
  apiKeyId: string;
  rateEvidenceStatus: string;
  replayStatus: string;
  calculationVersion: string;
  executionDigest: string;
  manifestDigest: string;
  rateReleaseDigest: string | null;
  rateWindowDigest: string | null;
  /** The row's rate evidence document, when the evidence is not inline (`exportRows` fills the two digests from it). */
  rateEvidenceDigest?: string | null;
  requestDigest: string;
};

/** Per group key, currency and UTC day: the sums aggregation converts to EUR. */
export type DailyTotal = { key: string; currency: string; day: string; count: bigint; gross: bigint; net: bigint; vat: bigint };


/** Column name of each record field (the one mapping between the table and the record). */
const COLUMN: Record<keyof CalculationRecord, string> = {
  seq: 'seq',
  id: 'id',
  accountId: 'account_id',
  apiKeyId: 'api_key_id',
  createdAt: 'created_at',
  transactionDate: 'transaction_date',
  country: 'country',
  currency: 'currency',
  taxClassId: 'tax_class_id',
  priceIncludesVat: 'price_includes_vat',
  amountMinor: 'amount_minor',
  netMinor: 'net_minor',
  vatMinor: 'vat_minor',
  grossMinor: 'gross_minor',
  vatRateBps: 'vat_rate_bps',
  sourceId: 'source_id',
  idempotencyKey: 'idempotency_key',
  requestDigest: 'request_digest',
  canonicalRequest: 'canonical_request',
  rateEvidence: 'rate_evidence',
  rateEvidenceStatus: 'rate_evidence_status',
  replayStatus: 'replay_status',
  calculationVersion: 'calculation_version',
  executionDigest: 'execution_digest',
  manifestDigest: 'manifest_digest',
};

type Row = Record<string, unknown>;

/**
 * A `calculation` row (read by column name) as a record. Its `rate_evidence` is the inline copy (calculations
 * stored before 2026-11-29) or the document the row names, put there by the reader (`withEvidence`, or
 * `CALCULATION_SELECT`); a row whose document is missing fails here rather than be answered without evidence.
 */
export function calculationRecordOf(r: Row): CalculationRecord {
  if (r.rate_evidence === null || r.rate_evidence === undefined) {
    throw new Error(`calculation ${String(r.id)}: its rate evidence (document ${String(r.rate_evidence_digest)}) is missing`);
  }
  const big = (k: keyof CalculationRecord) => BigInt(r[COLUMN[k]] as string);
  const text = (k: keyof CalculationRecord) => r[COLUMN[k]] as string;
  return {
    seq: big('seq'),
    id: text('id'),
    accountId: big('accountId'),
    apiKeyId: big('apiKeyId'),
    createdAt: pgTimestamp(r.created_at),
    transactionDate: pgTimestamp(r.transaction_date),
    country: text('country'),
    currency: text('currency'),
    taxClassId: text('taxClassId'),
    priceIncludesVat: r.price_includes_vat as boolean,
    amountMinor: big('amountMinor'),
    netMinor: big('netMinor'),
    vatMinor: big('vatMinor'),
    grossMinor: big('grossMinor'),
    vatRateBps: Number(r.vat_rate_bps),
    sourceId: (r.source_id as string | null) ?? null,
    idempotencyKey: (r.idempotency_key as string | null) ?? null,
    requestDigest: text('requestDigest'),
    canonicalRequest: r.canonical_request as CanonicalRequest,
    rateEvidence: r.rate_evidence as StoredRateEvidence,
    rateEvidenceStatus: text('rateEvidenceStatus'),
    replayStatus: text('replayStatus'),
    calculationVersion: text('calculationVersion'),
    executionDigest: text('executionDigest'),
    manifestDigest: text('manifestDigest'),
  };
}

/** A rate evidence document as stored: its JSON text and its name, `sha256:` + the SHA-256 of that text. */
export type EvidenceDoc = { digest: string; text: string };

/** The document of each frozen evidence object (pinRate shares one between the calculations of a window): made once. */
const frozenDocs = new WeakMap<object, EvidenceDoc>();

export function evidenceDoc(v: StoredRateEvidence): EvidenceDoc {
  const frozen = Object.isFrozen(v);
  let doc = frozen ? frozenDocs.get(v) : undefined;
  if (doc === undefined) {
    const text = JSON.stringify(v);
    doc = { digest: `sha256:${sha256Hex(text)}`, text };
    if (frozen) frozenDocs.set(v, doc);
  }
  return doc;
}

/** The stored fields and their columns (all but the database's `seq`). */
const STORED_FIELDS = (Object.entries(COLUMN) as [keyof CalculationRecord, string][]).filter((e): e is [keyof NewCalculation, string] => e[0] !== 'seq');

/**
 * The row's column values; the rate evidence as the name of its document (`rate_evidence_digest`), the
 * canonical request encoded by `json` (text for a bound parameter, by default).
 */
function columnsOf(c: NewCalculation, json: (v: unknown) => unknown = (v) => JSON.stringify(v)): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of STORED_FIELDS) {
    const v = c[field];
    if (field === 'rateEvidence') row.rate_evidence_digest = evidenceDoc(c.rateEvidence).digest;
    else row[column] = typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : field === 'canonicalRequest' ? json(v) : v;
  }
  return row;
}

/** The stored columns (all but the database's `seq`), in the record's order; the evidence by its document's name. */
const STORED_COLUMNS = Object.values(COLUMN).filter((c) => c !== 'seq').map((c) => (c === 'rate_evidence' ? 'rate_evidence_digest' : c));

/** The columns of a calculation with its rate evidence resolved in SQL (for a reader that cannot call `withEvidence`). */
export const CALCULATION_SELECT = Object.values(COLUMN)
  .map((c) => (c === 'rate_evidence' ? `coalesce(rate_evidence, (select d.doc from ${DOCS} d where d.digest = rate_evidence_digest)) as rate_evidence, rate_evidence_digest` : c))
  .join(', ');

/**
 * The one insert of a stored calculation, its rate evidence document (unless stored already) and its outbox
 * event, atomic without a transaction; no calculation when the account already used the idempotency key. The
 * same text for every call (every column always bound), so it runs as a named statement (planned once per
 * connection).
 */
const INSERT_ONE_SQL = `with doc as (insert into ${DOCS} (digest, doc, created_at) values ($${STORED_COLUMNS.length + 4}, $${STORED_COLUMNS.length + 5}::jsonb, now()) on conflict do nothing),
      c as (${insertStatement(TABLE, Object.fromEntries(STORED_COLUMNS.map((c) => [c, null])), { canonical_request: 'jsonb' }).text}
        on conflict (account_id, idempotency_key) do nothing returning seq),
      o as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts)
        select $${STORED_COLUMNS.length + 1}, $${STORED_COLUMNS.length + 2}, $${STORED_COLUMNS.length + 3}, now(), 0 from c)
    select seq::text as seq from c`;

/** SQL type of each stored column, for the group insert's rows (`jsonRowsSelect`). */
const COLUMN_TYPE: Record<string, string> = {
  id: 'uuid', account_id: 'bigint', api_key_id: 'bigint', created_at: 'timestamptz', transaction_date: 'timestamptz', country: 'text', currency: 'text',
  tax_class_id: 'text', price_includes_vat: 'boolean', amount_minor: 'bigint', net_minor: 'bigint', vat_minor: 'bigint', gross_minor: 'bigint',
  vat_rate_bps: 'int', source_id: 'text', idempotency_key: 'text', request_digest: 'text', canonical_request: 'jsonb', rate_evidence_digest: 'text',
  rate_evidence_status: 'text', replay_status: 'text', calculation_version: 'text', execution_digest: 'text', manifest_digest: 'text',
};
for (const c of STORED_COLUMNS) if (!COLUMN_TYPE[c]) throw new Error(`no SQL type for calculation column ${c}`);

/**
 * Several calculations and their outbox events in ONE statement (group commit): the rows as JSON (`$1`, each
 * naming its rate evidence document), the group's documents once each (`$5` names, `$7` texts; stored unless
 * they are already), and one outbox row per account of the group (`$10` ids): a group `CalculationRecorded`
 * (`$3` its subject) assembled from its head (`$11`/`$12`) and the parts of the calculations the statement
 * stored (`$8`/`$9`, each naming its account's group, `$2`), in storage order (platform/src/calculation-recorded.ts).
 * All payloads are cut out of one binary parameter, `$4`. A row whose idempotency key the account already used
 * (before, or by an earlier row of the same group) is skipped with its part; an account none of whose rows was
 * stored gets no outbox row. The statement answers the id and position of every row it stored.
 */
const INSERT_GROUP_SQL = `with docs as (insert into ${DOCS} (digest, doc, created_at)
        select x.digest, x.doc::jsonb, now() from unnest($5::text[], $7::text[]) as x(digest, doc) on conflict do nothing),
      c as (insert into ${TABLE} (${STORED_COLUMNS.join(', ')})
        select ${STORED_COLUMNS.map((c) => `r.${c}`).join(', ')}
        from (${jsonRowsSelect('$1', [...STORED_COLUMNS.map((c): JsonRowColumn => [c, COLUMN_TYPE[c]!]), ['n', 'int']])}) as r
        order by r.n
        on conflict (account_id, idempotency_key) do nothing returning id, seq),
      o as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts)
        select g.id, $3::text, ${payloadAt('$4', 'g.start', 'g.len')} || string_agg(${payloadAt('$4', 'e.start', 'e.len')}, ''::bytea order by e.n), now(), 0
          from unnest($6::uuid[], $8::int[], $9::int[], $2::int[]) with ordinality as e(calculation_id, start, len, grp, n)
          join c on c.id = e.calculation_id
          join unnest($10::uuid[], $11::int[], $12::int[]) with ordinality as g(id, start, len, k) on g.k = e.grp
         group by g.id, g.start, g.len)
    select id::text as id, seq::text as seq from c`;

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// The position is selected under another name: `order by seq` must sort the bigint column, not text.
const EXPORT_SELECT = `seq::text as position, id, ${ISO('created_at')} as created_at, ${ISO('transaction_date')} as transaction_date, country, currency,
  tax_class_id, price_includes_vat, vat_rate_bps, net_minor::text as net_minor, vat_minor::text as vat_minor, gross_minor::text as gross_minor,
  source_id, api_key_id::text as api_key_id, rate_evidence_status, replay_status, calculation_version, execution_digest, manifest_digest,
  rate_evidence->>'release_digest' as rate_release_digest, rate_evidence->>'pinned_digest' as rate_window_digest, rate_evidence_digest, request_digest`;

function toExportRow(r: Row): ExportRow {
  return {
    seq: r.position as string,
    id: r.id as string,
    createdAt: r.created_at as string,
    transactionDate: r.transaction_date as string,
    country: r.country as string,
    currency: r.currency as string,
    taxClassId: r.tax_class_id as string,
    priceIncludesVat: r.price_includes_vat as boolean,
    vatRateBps: Number(r.vat_rate_bps),
    netMinor: r.net_minor as string,
    vatMinor: r.vat_minor as string,
    grossMinor: r.gross_minor as string,
    sourceId: (r.source_id as string | null) ?? null,
    apiKeyId: r.api_key_id as string,
    rateEvidenceStatus: r.rate_evidence_status as string,
    replayStatus: r.replay_status as string,
    calculationVersion: r.calculation_version as string,
    executionDigest: r.execution_digest as string,
    manifestDigest: r.manifest_digest as string,
    rateReleaseDigest: (r.rate_release_digest as string | null) ?? null,
    rateWindowDigest: (r.rate_window_digest as string | null) ?? null,
    rateEvidenceDigest: (r.rate_evidence_digest as string | null) ?? null,
    requestDigest: r.request_digest as string,
  };
}

function filterWhere(accountId: bigint, q: TransactionQuery): Where {
  const w = new Where().and('account_id = ?', accountId.toString());
  if (q.from !== undefined) w.and('transaction_date >= ?::date', q.from);
  if (q.to !== undefined) w.and('transaction_date < ?::date + 1', q.to);
  if (q.country !== undefined) w.and('country = ?', q.country);
  if (q.currency !== undefined) w.and('currency = ?', q.currency);
  if (q.taxClassId !== undefined) w.and('tax_class_id = ?', q.taxClassId);
  if (q.sourceId !== undefined) w.and('source_id = ?', q.sourceId);
  if (q.apiKeyId !== undefined) w.and('api_key_id = ?', q.apiKeyId.toString());
  return w;
}

export const GROUP_KEY_SQL = { country: 'country', tax_class: 'tax_class_id', month: `to_char(transaction_date at time zone 'UTC', 'YYYY-MM')` } as const;
export type GroupBy = keyof typeof GROUP_KEY_SQL;

/** A stored calculation waiting for the next group statement. */
type PendingInsert = { c: NewCalculation; event: OutboxEvent; resolve: (r: CalculationRecord | undefined) => void; reject: (err: unknown) => void };
/** At most this many rows in one group statement. */
const GROUP_MAX = 64;
/**
 * Group statements running at once on a PostgreSQL server (each on a pool connection, each a backend of its own);
 * later calls wait for one of them to end. The embedded database runs one statement at a time in its one session,
 * so its repository keeps one in flight (`calculationContext`): a second and third would only queue there, and the
 * calls they take alone (a call goes at once while a slot is free) pay a statement each. Under 64 connections of
 * persisted calculations on the embedded database, with three: 804 insert statements per 5 s, 327 of them a single
 * row at 1.25 ms each; with one: 399, 10 single; the inserts' share of the session's busy time per calculation a
 * third lower (docs/benchmarks.md).
 */
export const GROUPS_IN_FLIGHT_ON_SERVER = 3;

/** Rate evidence documents a repository keeps in memory (one per rate window of a release read). */
const DOC_CACHE_MAX = 10_000;

/** Every SQL statement of the `calculation` aggregate, through the service's one pool. */
export class CalculationRepository {
  /** `groupsInFlight`: group statements running at once (GROUPS_IN_FLIGHT_ON_SERVER; 1 on the embedded database). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly groupsInFlight = GROUPS_IN_FLIGHT_ON_SERVER,
  ) {}

  /**
   * Stores a calculation and its outbox event (atomic without a transaction); undefined when the account already
   * used the idempotency key (nothing is written). Concurrent calls are grouped: the calls made in one turn of the
   * event loop go together at its end (`setImmediate`: the requests one socket read delivered, a few microseconds
   * later), and while `groupsInFlight` statements are running, later calls wait and go together in the next
   * statement (up to GROUP_MAX rows): one round trip and one commit for the group instead of one each. A call
   * alone in its turn (an idle service) goes by itself.
   */
  insertOnce(c: NewCalculation, event: OutboxEvent): Promise<CalculationRecord | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ c, event, resolve, reject });
      if (this.pumpScheduled) return;
      this.pumpScheduled = true;
      setImmediate(() => {
        this.pumpScheduled = false;
        this.pump();
      });
    });
  }

  private readonly waiting: PendingInsert[] = [];
  private inFlight = 0;
  private pumpScheduled = false;

  /**
   * Starts the statements the free slots allow. Called at the end of a turn in which calls arrived, not on each
   * call: taken at once, the first call of a turn went alone while a slot was free, and with the distributed
   * calculation (requests arriving over one HTTP/2 connection) three insert statements in four were a single row
   * (docs/benchmarks.md, twenty-second session).
   */
  private pump(): void {
    while (this.waiting.length > 0 && this.inFlight < this.groupsInFlight) {
      const group = this.waiting.splice(0, GROUP_MAX);
      this.inFlight++;
      void this.store(group).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** One statement for the group; when it fails, each row again alone, so each caller gets its own answer or error. */
  private async store(group: PendingInsert[]): Promise<void> {
    if (group.length > 1) {
      try {
        const stored = await this.insertGroup(group);
        for (const p of group) {
          const seq = stored.get(p.c.id);
          p.resolve(seq === undefined ? undefined : { seq, ...p.c });
        }
        return;
      } catch (err) {
        // A database that cannot be reached fails every row alike: each call gets that answer now (trying each row
        // again would wait for it once more, a connect timeout, before the callers could answer 503).
        if (isDatabaseUnavailable(err)) {
          for (const p of group) p.reject(err);
          return;
        }
        // A row the database refuses must not fail the others: each row alone below.
      }
    }
    await Promise.all(group.map(async (p) => {
      try {
        p.resolve(await this.insertOne(p.c, p.event));
      } catch (err) {
        p.reject(err);
      }
    }));
  }

  private async insertOne(c: NewCalculation, event: OutboxEvent): Promise<CalculationRecord | undefined> {
    const row = columnsOf(c);
    const doc = evidenceDoc(c.rateEvidence);
    const values = [...Object.values(row), event.id, event.subject, Buffer.from(event.payload), doc.digest, doc.text];
    const res = await this.pool.query<{ seq: string }>(preparedStatement(this.pool, 'calculation_insert_once_v2', INSERT_ONE_SQL, values));
    // Only the position comes back: everything else is what was written (jsonb keeps the same values; the
    // record's objects are the ones the request built), so nothing is parsed back from PostgreSQL.
    return res.rows[0] ? { seq: BigInt(res.rows[0].seq), ...c } : undefined;
  }

  /** The group's rows in one statement; the position of each row stored, by calculation id. */
  private async insertGroup(group: PendingInsert[]): Promise<Map<string, bigint>> {
    const docs = new Map<string, string>();
    const rows = group.map(({ c }, n) => {
      // The rows go as one JSON document (positional, STORED_COLUMNS then n): the canonical request inside it, the evidence by its document's name.
      const doc = evidenceDoc(c.rateEvidence);
      docs.set(doc.digest, doc.text);
      // columnsOf's values are in STORED_COLUMNS' order (as INSERT_ONE_SQL binds them).
      return [...Object.values(columnsOf(c, (v) => v)), n];
    });
    // The documents in the order of their names: two statements storing the same new documents wait for each other in one order, never crosswise.
    const names = [...docs.keys()].sort();
    // One group event per account (a message never mixes accounts); its payload is assembled in SQL from the stored rows' parts.
    const heads = new Map<bigint, { k: number; head: OutboxEvent }>();
    const grp = group.map(({ c, event }) => {
      if (event.subject !== CALCULATION_RECORDED_SUBJECT) throw new Error(`a calculation's outbox event must be CalculationRecorded, not ${event.subject}`);
      let h = heads.get(c.accountId);
      if (!h) heads.set(c.accountId, (h = { k: heads.size + 1, head: calculationGroupHead(c.accountId) }));
      return h.k;
    });
    const groupEvents = [...heads.values()].map((h) => h.head);
    const payloads = payloadParams([...groupEvents, ...group.map((p) => ({ payload: calculationGroupPart(p.event.payload) }))]);
    const values = [
      JSON.stringify(rows),
      grp,
      CALCULATION_RECORDED_SUBJECT,
      payloads.bytes,
      names,
      group.map((p) => p.c.id),
      names.map((n) => docs.get(n)!),
      payloads.starts.slice(groupEvents.length),
      payloads.lengths.slice(groupEvents.length),
      groupEvents.map((e) => e.id),
      payloads.starts.slice(0, groupEvents.length),
      payloads.lengths.slice(0, groupEvents.length),
    ];
    const res = await this.pool.query<{ id: string; seq: string }>(preparedStatement(this.pool, 'calculation_insert_group_v4', INSERT_GROUP_SQL, values));
    return new Map(res.rows.map((r) => [r.id, BigInt(r.seq)]));
  }

  /**
   * Common-table expressions that store a calculation and its outbox event only when the CTE named `guard`
   * returned a row, for a caller that stores the calculation with something else in one statement (a v2
   * decision). Parameters start after `offset`.
   */
  guardedInsert(c: NewCalculation, event: OutboxEvent, guard: string, offset: number): Statement {
    const row = columnsOf(c);
    const columns = Object.keys(row);
    const doc = evidenceDoc(c.rateEvidence);
    const values = [...Object.values(row), event.id, event.subject, Buffer.from(event.payload), doc.digest, doc.text];
    const p = (i: number) => `$${offset + i + 1}`;
    const n = columns.length;
    return {
      text: `calc_evidence as (insert into ${DOCS} (digest, doc, created_at) values (${p(n + 3)}, ${p(n + 4)}::jsonb, now()) on conflict do nothing),
      calc as (insert into ${TABLE} (${columns.join(', ')}) select ${columns.map((col, i) => `${p(i)}${col === 'canonical_request' ? '::jsonb' : ''}`).join(', ')} where exists (select 1 from ${guard}) returning id),
      calc_event as (insert into ${OUTBOX} (id, subject, payload, created_at, attempts) select ${p(n)}, ${p(n + 1)}, ${p(n + 2)}, now(), 0 from calc)`,
      values,
    };
  }

  /**
   * The documents read so far (by name; at most DOC_CACHE_MAX, then read again): a document never changes (the
   * table is append-only), so a copy stays right. Frozen: the records of one window share it.
   */
  private readonly docs = new Map<string, StoredRateEvidence>();

  /**
   * The documents named in `digests` (cached, the others read in one statement), by name; a name without a
   * document throws. The answer is the caller's own map: a concurrent read that clears the cache cannot empty it.
   */
  private async docsNamed(digests: Iterable<string | null | undefined>): Promise<Map<string, StoredRateEvidence>> {
    const named = new Map<string, StoredRateEvidence>();
    const missing: string[] = [];
    for (const d of digests) {
      if (typeof d !== 'string' || named.has(d)) continue;
      const doc = this.docs.get(d);
      if (doc) named.set(d, doc);
      else if (!missing.includes(d)) missing.push(d);
    }
    if (missing.length === 0) return named;
    const res = await this.pool.query<{ digest: string; doc: StoredRateEvidence }>(`select digest, doc from ${DOCS} where digest = any($1::text[])`, [missing]);
    if (this.docs.size + res.rows.length > DOC_CACHE_MAX) this.docs.clear();
    for (const r of res.rows) {
      const doc = deepFreeze(r.doc) as StoredRateEvidence;
      this.docs.set(r.digest, doc);
      named.set(r.digest, doc);
    }
    const absent = missing.filter((d) => !named.has(d));
    if (absent.length) throw new Error(`rate evidence document ${absent[0]} is missing (${absent.length} named, not stored)`);
    return named;
  }

  /** Records of `rows` (`select *`), each with its rate evidence: inline, or its document's. */
  private async withEvidence(rows: Row[]): Promise<CalculationRecord[]> {
    const docs = await this.docsNamed(rows.filter((r) => r.rate_evidence === null).map((r) => r.rate_evidence_digest as string | null));
    return rows.map((r) => calculationRecordOf(r.rate_evidence === null ? { ...r, rate_evidence: docs.get(r.rate_evidence_digest as string) } : r));
  }

  async byIdempotencyKey(accountId: bigint, key: string): Promise<CalculationRecord | undefined> {
    const res = await this.pool.query(`select * from ${TABLE} where account_id = $1 and idempotency_key = $2`, [accountId.toString(), key]);
    return (await this.withEvidence(res.rows))[0];
  }

  /** The account's calculation with this id; another account's id is simply absent. */
  async owned(accountId: bigint, id: string): Promise<CalculationRecord | undefined> {
    const res = await this.pool.query(`select * from ${TABLE} where account_id = $1 and id = $2`, [accountId.toString(), id]);
    return (await this.withEvidence(res.rows))[0];
  }

  async ownedMany(accountId: bigint, ids: string[]): Promise<CalculationRecord[]> {
    const res = await this.pool.query(`select * from ${TABLE} where account_id = $1 and id = any($2::uuid[])`, [accountId.toString(), ids]);
    return this.withEvidence(res.rows);
  }

  /** Newest first; `beforeId` (the last row of the previous page) must be the account's own. */
  async page(accountId: bigint, q: TransactionQuery, limit: number, beforeId?: string): Promise<{ rows: CalculationRecord[]; more: boolean } | undefined> {
    const w = filterWhere(accountId, q);
    if (beforeId !== undefined) {
      const at = await this.pool.query(`select seq from ${TABLE} where account_id = $1 and id = $2`, [accountId.toString(), beforeId]);
      if (!at.rows[0]) return undefined;
      w.and('seq < ?', at.rows[0].seq);
    }
    const res = await this.pool.query(`select * from ${TABLE} where ${w.sql} order by seq desc limit ${w.param(limit + 1)}`, w.values);
    const rows = await this.withEvidence(res.rows);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  /** Export rows in storage order, in keyset batches (each its own short statement). */
  async *exportRows(accountId: bigint, q: TransactionQuery, batchSize: number, signal?: AbortSignal): AsyncGenerator<ExportRow[]> {
    const fetch = async (after: string | undefined) => {
      const w = filterWhere(accountId, q);
      if (after !== undefined) w.and('seq > ?', after);
      const res = await this.pool.query(`select ${EXPORT_SELECT} from ${TABLE} where ${w.sql} order by seq limit ${w.param(batchSize)}`, w.values);
      const rows = res.rows.map(toExportRow);
      // A row naming its document takes the release and window digests from it (inline evidence has them already).
      const docs = await this.docsNamed(rows.map((r) => r.rateEvidenceDigest));
      for (const r of rows) {
        const d = r.rateEvidenceDigest ? docs.get(r.rateEvidenceDigest) : undefined;
        if (!d) continue;
        r.rateReleaseDigest = d.release_digest ?? null;
        r.rateWindowDigest = d.pinned_digest ?? null;
      }
      return rows;
    };
    yield* keysetBatches(fetch, (r) => r.seq, signal);
  }

  /** Sums per group key, currency and UTC transaction day. */
  async dailyTotals(accountId: bigint, q: TransactionQuery, groupBy: GroupBy): Promise<DailyTotal[]> {
    const w = filterWhere(accountId, q);
    const res = await this.pool.query(
      `select ${GROUP_KEY_SQL[groupBy]} as key, currency, to_char(transaction_date at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::text as n,
              sum(gross_minor)::text as gross, sum(net_minor)::text as net, sum(vat_minor)::text as vat
       from ${TABLE} where ${w.sql} group by 1, 2, 3 order by 1, 2, 3`,
      w.values,
    );
    return res.rows.map((r: Row) => ({ key: r.key as string, currency: r.currency as string, day: r.day as string, count: BigInt(r.n as string), gross: BigInt(r.gross as string), net: BigInt(r.net as string), vat: BigInt(r.vat as string) }));
  }

  /** Raw `X-Source-ID` tags of the account's calculations that no source profile names, most frequent first. */
  async unknownSourceTags(accountId: bigint, limit: number): Promise<{ sourceId: string; count: bigint; firstSeen: string; lastSeen: string }[]> {
    const res = await this.pool.query(
      `select c.source_id, count(*)::text as n,
              to_char(min(c.transaction_date) at time zone 'UTC', 'YYYY-MM-DD') as first_seen,
              to_char(max(c.transaction_date) at time zone 'UTC', 'YYYY-MM-DD') as last_seen
       from ${TABLE} c
       where c.account_id = $1 and c.source_id is not null
         and not exists (select 1 from "calculation".source_profile p where p.account_id = c.account_id and p.source_key = c.source_id)
       group by c.source_id order by count(*) desc, c.source_id limit $2`,
      [accountId.toString(), limit],
    );
    return res.rows.map((r: Row) => ({ sourceId: r.source_id as string, count: BigInt(r.n as string), firstSeen: r.first_seen as string, lastSeen: r.last_seen as string }));
  }
}
