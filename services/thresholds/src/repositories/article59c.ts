import type pg from 'pg';
import { jsonRowsSelect, rowsByKeys, type JsonRowColumn } from '@vat/platform/sql';
import { rateDocOf, type RateDoc } from '../article59c/rate-docs';
import type { SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { Reclassified } from '@vat/platform/supply-projection';
import { classifyCandidate, type CandidateFacts, type ProfileDefaults } from '../article59c/classify';
import { convertEvent, thresholdCurrencies, withConversion, type Converted, type RateEvidence } from '../article59c/conversion';
import { byTaxPointThenSequence, marksAlongPrefixes, type PrefixContribution, type PrefixMark } from '../article59c/crossing';
import { bucketKeyOf, candidateOf, iso, lacksProfileFact, rawOfEvent, type Original, type RawFacts } from '../article59c/facts';
import type { Bucket } from '../article59c/summarize';
import { POLICY_VERSION } from '../article59c/policy';
import type { ThresholdRelease } from '../article59c/release';
import { summarizeYear } from '../article59c/summarize';
import { Article59cStatusRepository, eventFactsOfRow } from './article59c-status';
import { NOTIFICATION_KINDS, recordNotification } from './threshold-notifications';
import { evidenceColumn, reevaluateB2bFacts, registerB2bFacts, storeChecks, type CheckedEvent } from './vat-number-evidence';

const S = '"thresholds"';
/** What linking a correction needs of its original, by the originals' event ids. */
const ORIGINALS_SQL = rowsByKeys(`${S}.supply_fact`, 'event_id, event_type, occurred_at, country_of_consumption, currency, sequence::text as sequence', 'account_id = $1', 'event_id', '$2');
type Db = Pick<pg.PoolClient, 'query'>;

/**
 * Serializes the consumers' transactions per account (they move running totals between buckets and check
 * marks from the facts and defaults they read): a transaction-scoped advisory lock per account, taken in one order.
 */
export async function lockAccounts(client: Db, accountIds: Iterable<string>): Promise<void> {
  for (const id of [...new Set(accountIds)].sort()) await client.query(`select pg_advisory_xact_lock(hashtextextended('thresholds.account:' || $1::text, 0))`, [id]);
}

/** The account's source-profile defaults by `source_key` (read only when an event lacks a fact). */
export type ProfileDefaultsOf = (accountId: string) => Promise<Map<string, ProfileDefaults>>;

/** Profile defaults by account, read at most once per batch and only once some fact needs one. */
function profileLookup(profiles: ProfileDefaultsOf) {
  const byAccount = new Map<string, Map<string, ProfileDefaults>>();
  return async (accountId: string, facts: CandidateFacts[]) => {
    if (!byAccount.has(accountId) && facts.some(lacksProfileFact)) byAccount.set(accountId, await profiles(accountId));
    const m = byAccount.get(accountId);
    return (sourceId: string | null) => (sourceId === null || !m ? undefined : m.get(sourceId));
  };
}

/** The projected fact columns a bucket needs but its VIES evidence, qualified by `alias`. */
const eventColumns = (alias: string) =>
  [
    'id::text as fact_id', 'account_id::text as account_id', 'event_id', 'sequence::text as sequence', 'event_type', 'original_event_id', 'occurred_at', 'recorded_at',
    'supply_kind', 'customer_type', 'classification_status', 'country_of_consumption', 'dispatch_country', 'supplier_establishment_country', 'currency', 'source_id',
    'net_amount_minor::text as net_amount_minor',
  ].map((c) => `${alias}.${c}`).join(', ');

/** The projected fact columns a bucket needs, qualified by `alias`: a `b2b` fact's VIES evidence too. */
export const factColumns = (alias: string) => `${eventColumns(alias)}, ${evidenceColumn(alias)}`;

function rawOfRow(r: Record<string, any>): RawFacts {
  return {
    factId: r.fact_id,
    accountId: r.account_id,
    eventId: r.event_id,
    sequence: BigInt(r.sequence),
    eventType: r.event_type,
    originalEventId: r.original_event_id,
    occurredAt: iso(r.occurred_at),
    recordedAt: iso(r.recorded_at),
    ...eventFactsOfRow(r),
    netMinor: BigInt(r.net_amount_minor),
    vatNumberEvidence: r.vat_number_evidence ?? null,
  };
}

/** A ledger prefix that raised a year's timeline, and the position (tax point, sequence) it raised from (none: anywhere). */
type Raise = { prefix: bigint; at?: { occurredAt: string; sequence: bigint } };

type DefaultsFor = (facts: CandidateFacts[]) => Promise<(sourceId: string | null) => ProfileDefaults | undefined>;

/** One lock order for every batch (replicas applying batches side by side never deadlock on bucket rows). */
const sortedDeltas = (deltas: Map<string, Delta>) => [...deltas.values()].sort((a, b) => (a.accountId === b.accountId ? (a.key < b.key ? -1 : 1) : a.accountId < b.accountId ? -1 : 1));

/** `lost`: an event left the running total (moved to another one), so its latest recording time is recomputed. */
type Delta = { accountId: string; key: string; facts: CandidateFacts; occurredOn: string; count: bigint; net: bigint; maxRecordedAt: string; converted: Converted; lost: boolean };

/**
 * The facts of ledger events `from`+1..`to` when the fresh events of the batch hold every one of them (as the
 * projection just wrote them), else undefined (some were applied by an earlier batch: read from the projection).
 */
export function rangeOf(fresh: readonly RawFacts[], from: bigint, to: bigint): RawFacts[] | undefined {
  if (BigInt(fresh.length) < to - from) return undefined;
  const bySequence = new Map<bigint, RawFacts>();
  for (const raw of fresh) if (raw.sequence > from && raw.sequence <= to) bySequence.set(raw.sequence, raw);
  return BigInt(bySequence.size) === to - from ? [...bySequence.values()] : undefined;
}

/** Running-total changes keyed by account and bucket, and how to add one event's contribution. */
function deltaSet() {
  const deltas = new Map<string, Delta>();
  const add = (accountId: string, facts: CandidateFacts, occurredAt: string, recordedAt: string, count: bigint, net: bigint, converted: ReadonlyMap<string, bigint> = new Map()) => {
    const occurredOn = occurredAt.slice(0, 10);
    const key = bucketKeyOf(facts, occurredOn);
    const id = `${accountId}#${key}`;
    const d = deltas.get(id) ?? { accountId, key, facts, occurredOn, count: 0n, net: 0n, maxRecordedAt: recordedAt, converted: new Map(), lost: false };
    if (count < 0n) d.lost = true;
    d.count += count;
    d.net += net;
    // Each event converted on its own (count ±1 with its amount's sign): the bucket keeps per-currency sums and counts.
    for (const [currency, amount] of converted) {
      const c = d.converted.get(currency) ?? d.converted.set(currency, { net: 0n, count: 0n }).get(currency)!;
      c.net += count < 0n ? -amount : amount;
      c.count += count;
    }
    if (recordedAt > d.maxRecordedAt) d.maxRecordedAt = recordedAt;
    deltas.set(id, d);
  };
  return { deltas, add };
}

/** The running-total columns an upsert writes, in the order of its rows. */
const BUCKET_COLUMNS: JsonRowColumn[] = [
  ['account_id', 'bigint'], ['bucket_key', 'text'], ['year', 'int'], ['occurred_on', 'text'], ['event_class', 'text'], ['link_state', 'text'],
  ['supply_kind', 'text'], ['customer_type', 'text'], ['classification_status', 'text'], ['country_of_consumption', 'text'], ['dispatch_country', 'text'],
  ['supplier_establishment_country', 'text'], ['currency', 'text'], ['source_id', 'text'], ['vat_number_evidence', 'text'], ['event_count', 'bigint'],
  ['net_minor', 'numeric'], ['max_recorded_at', 'timestamptz'], ['converted_minor', 'jsonb'], ['converted_count', 'jsonb'],
];
/** Per-currency sums kept as exact decimal text in jsonb, added key by key. */
const mergeConverted = (c: string) =>
  `${c} = (select coalesce(jsonb_object_agg(k, ((coalesce(b.${c}->>k, '0'))::numeric + (coalesce(excluded.${c}->>k, '0'))::numeric)::text), '{}'::jsonb) from jsonb_object_keys(b.${c} || excluded.${c}) k)`;
const UPSERT_BUCKETS_SQL = `insert into ${S}.article59c_bucket as b (${BUCKET_COLUMNS.map(([c]) => c).join(', ')})
  select * from (${jsonRowsSelect('$1', BUCKET_COLUMNS)}) r
  on conflict (account_id, bucket_key) do update set event_count = b.event_count + excluded.event_count, net_minor = b.net_minor + excluded.net_minor,
    max_recorded_at = greatest(b.max_recorded_at, excluded.max_recorded_at), ${mergeConverted('converted_minor')}, ${mergeConverted('converted_count')}`;

/**
 * The projection's writes to the Article 59c running totals: fresh events and reclassifications, the
 * corrections waiting for their original, and the crossings and notifications they prove.
 */
export class Article59cRepository {
  private readonly status: Article59cStatusRepository;

  /** `vatEvidenceDays`: how many days before a tax point a VIES check still stands as evidence (VIES_REUSE_DAYS). */
  constructor(pool: pg.Pool, private readonly vatEvidenceDays: number) {
    this.status = new Article59cStatusRepository(pool);
  }

  /**
   * Adds fresh events to the running totals (in the caller's transaction, after the projection wrote
   * their facts), moves corrections whose original just arrived, and records crossings and notifications.
   */
  async applyEvents(db: Db, events: SupplyEvent[], release: ThresholdRelease, now: Date, profiles: ProfileDefaultsOf = async () => new Map()): Promise<void> {
    if (events.length === 0) return;
    const { deltas, add } = deltaSet();
    const targets = thresholdCurrencies(release.thresholds.values());
    const pending: { factId: string; accountId: string; originalEventId: string; key: string; linkedAt: bigint | null }[] = [];
    const byAccount = new Map<string, RawFacts[]>();
    for (const e of events) {
      const raw = rawOfEvent(e);
      const list = byAccount.get(raw.accountId) ?? [];
      list.push(raw);
      byAccount.set(raw.accountId, list);
    }
    for (const [accountId, raws] of byAccount) {
      await this.storeEvidence(db, raws);
      const vatEvidence = await registerB2bFacts(db, accountId, raws, this.vatEvidenceDays);
      for (const raw of raws) if (vatEvidence.has(raw.factId)) raw.vatNumberEvidence = vatEvidence.get(raw.factId);
      const originals = await this.originals(db, accountId, raws.filter((r) => r.eventType !== 'sale' && r.originalEventId !== null).map((r) => r.originalEventId!));
      for (const raw of raws) {
        const original = raw.originalEventId ? originals.get(raw.originalEventId) : undefined;
        const facts = candidateOf(raw, original);
        add(accountId, facts, raw.occurredAt, raw.recordedAt, 1n, raw.netMinor, convertEvent(raw.netMinor, raw.currency, raw.evidence ?? null, targets));
        // A correction that precedes its original in ledger order (arrived or not): the marks walk links it from the original's prefix.
        if (raw.originalEventId !== null && facts.eventClass === 'correction' && (!original || original.sequence > raw.sequence)) {
          pending.push({ factId: raw.factId, accountId, originalEventId: raw.originalEventId, key: bucketKeyOf(facts, raw.occurredAt.slice(0, 10)), linkedAt: original?.sequence ?? null });
        }
      }
      // Corrections that arrived before their original: out of the "missing" bucket, into the linked (or invalid) one.
      const moved = await db.query(
        `update ${S}.article59c_pending_correction p set linked_at_sequence = o.sequence from ${S}.supply_fact f, ${S}.supply_fact o
         where p.account_id = $1 and p.original_event_id = any($2::text[]) and p.linked_at_sequence is null and f.id = p.fact_id
           and o.account_id = p.account_id and o.event_id = p.original_event_id returning p.bucket_key, ${factColumns('f')}`,
        [accountId, raws.map((r) => r.eventId)],
      );
      const arrived = new Map(raws.map((r): [string, Original] => [r.eventId, { eventType: r.eventType, occurredAt: r.occurredAt, countryOfConsumption: r.countryOfConsumption, currency: r.currency, sequence: r.sequence }]));
      const movedRaws = moved.rows.map(rawOfRow);
      const evidence = await this.evidenceOf(db, accountId, movedRaws.map((r) => r.eventId));
      for (const raw of movedRaws) {
        const converted = convertEvent(raw.netMinor, raw.currency, evidence.get(raw.eventId) ?? null, targets);
        add(accountId, candidateOf(raw, undefined), raw.occurredAt, raw.recordedAt, -1n, -raw.netMinor, converted);
        add(accountId, candidateOf(raw, arrived.get(raw.originalEventId!)), raw.occurredAt, raw.recordedAt, 1n, raw.netMinor, converted);
      }
    }
    if (pending.length > 0) {
      await db.query(
        `insert into ${S}.article59c_pending_correction (fact_id, account_id, original_event_id, bucket_key, linked_at_sequence)
         select * from json_to_recordset($1::json) as r(fact_id uuid, account_id bigint, original_event_id text, bucket_key text, linked_at_sequence bigint) on conflict do nothing`,
        [JSON.stringify(pending.map((p) => ({ fact_id: p.factId, account_id: p.accountId, original_event_id: p.originalEventId, bucket_key: p.key, linked_at_sequence: p.linkedAt?.toString() ?? null })))],
      );
    }
    await this.upsertBuckets(db, sortedDeltas(deltas));
    const defaultsFor = profileLookup(profiles);
    for (const accountId of [...byAccount.keys()].sort()) await this.advanceMarks(db, accountId, release, now, (facts) => defaultsFor(accountId, facts), byAccount.get(accountId));
  }

  /**
   * Moves reclassified facts (`ClassificationDecided` applied to the projection in the caller's transaction)
   * from the running total of their old classification to that of the new one: the totals stay exactly
   * what a recomputation from the facts in effect would give. A decision that changes only the tax class
   * moves nothing. Then, like a new event, a year that gained a positive counted amount is checked for the
   * warning band and the crossing (recorded once, never changed; a reclassification that lowers the total
   * leaves a stored crossing and its notifications as they are).
   */
  async applyReclassifications(db: Db, changes: readonly Reclassified[], release: ThresholdRelease, now: Date, profiles: ProfileDefaultsOf = async () => new Map()): Promise<void> {
    const moved = changes.filter((c) => c.before.classification_status !== c.classificationStatus);
    if (moved.length === 0) return;
    const { deltas, add } = deltaSet();
    const byAccount = new Map<string, RawFacts[]>();
    const status = new Map<string, string>();
    for (const c of moved) {
      const raw = rawOfRow(c.before);
      status.set(raw.factId, c.classificationStatus);
      byAccount.set(raw.accountId, [...(byAccount.get(raw.accountId) ?? []), raw]);
    }
    const targets = thresholdCurrencies(release.thresholds.values());
    for (const [accountId, raws] of byAccount) {
      const originals = await this.originals(db, accountId, raws.filter((r) => r.eventType !== 'sale' && r.originalEventId !== null).map((r) => r.originalEventId!));
      const evidence = await this.evidenceOf(db, accountId, raws.map((r) => r.eventId));
      for (const raw of raws) {
        const before = candidateOf(raw, raw.originalEventId ? originals.get(raw.originalEventId) : undefined);
        const after = { ...before, classificationStatus: status.get(raw.factId)! };
        const converted = convertEvent(raw.netMinor, raw.currency, evidence.get(raw.eventId) ?? null, targets);
        add(accountId, before, raw.occurredAt, raw.recordedAt, -1n, -raw.netMinor, converted);
        add(accountId, after, raw.occurredAt, raw.recordedAt, 1n, raw.netMinor, converted);
        // A correction still waiting for its original keeps the key of the bucket it is counted in.
        await db.query(`update ${S}.article59c_pending_correction set bucket_key = $2 where fact_id = $1`, [raw.factId, bucketKeyOf(after, raw.occurredAt.slice(0, 10))]);
      }
    }
    await this.settle(db, deltas, release, now, profiles);
  }

  /**
   * Applies a batch of `VatNumberChecked` (in the caller's transaction, under the accounts' locks): the inbox, the
   * definitive checks, then each `b2b` fact whose evidence they change moves from the running total of its old
   * evidence to that of the new one, so the totals equal an evaluation over every fact and check applied,
   * whichever arrived first. A `b2b` candidate is excluded with or without evidence, so no counted total, warning
   * or crossing changes: only the coverage (and the review flag) does.
   */
  async applyVatNumberChecks(db: Db, durable: string, checks: readonly CheckedEvent[], release: ThresholdRelease): Promise<void> {
    const fresh = await storeChecks(db, durable, checks);
    const byAccount = new Map<string, CheckedEvent[]>();
    for (const c of fresh) byAccount.set(c.accountId.toString(), [...(byAccount.get(c.accountId.toString()) ?? []), c]);
    const { deltas, add } = deltaSet();
    const targets = thresholdCurrencies(release.thresholds.values());
    for (const accountId of [...byAccount.keys()].sort()) {
      const moved = await reevaluateB2bFacts(db, accountId, byAccount.get(accountId)!, this.vatEvidenceDays, eventColumns('f'));
      if (moved.length === 0) continue;
      const raws = moved.map((m) => rawOfRow(m.row));
      const originals = await this.originals(db, accountId, raws.filter((r) => r.eventType !== 'sale' && r.originalEventId !== null).map((r) => r.originalEventId!));
      const evidence = await this.evidenceOf(db, accountId, raws.map((r) => r.eventId));
      for (const [i, raw] of raws.entries()) {
        const before = candidateOf(raw, raw.originalEventId ? originals.get(raw.originalEventId) : undefined);
        const after = { ...before, vatNumberEvidence: moved[i]!.after };
        const converted = convertEvent(raw.netMinor, raw.currency, evidence.get(raw.eventId) ?? null, targets);
        add(accountId, before, raw.occurredAt, raw.recordedAt, -1n, -raw.netMinor, converted);
        add(accountId, after, raw.occurredAt, raw.recordedAt, 1n, raw.netMinor, converted);
        // A correction still waiting for its original keeps the key of the bucket it is counted in.
        await db.query(`update ${S}.article59c_pending_correction set bucket_key = $2 where fact_id = $1`, [raw.factId, bucketKeyOf(after, raw.occurredAt.slice(0, 10))]);
      }
    }
    await this.upsertBuckets(db, sortedDeltas(deltas));
  }

  /**
   * Writes the deltas of reclassifications to the running totals, then checks the marks of every year that
   * gained a positive counted amount, at the ledger prefix whose marks are evaluated.
   */
  private async settle(db: Db, deltas: Map<string, Delta>, release: ThresholdRelease, now: Date, profiles: ProfileDefaultsOf): Promise<void> {
    await this.upsertBuckets(db, sortedDeltas(deltas));
    const lookup = (c: string) => release.thresholds.get(c);
    const defaultsFor = profileLookup(profiles);
    const touched = new Map<string, Set<number>>();
    for (const d of deltas.values()) {
      if (d.net <= 0n) continue;
      const defaults = await defaultsFor(d.accountId, [d.facts]);
      if (withConversion(classifyCandidate(d.facts, defaults(d.facts.sourceId), lookup), d.net, d.count, d.converted, lookup).c.disposition !== 'counted') continue;
      touched.set(d.accountId, (touched.get(d.accountId) ?? new Set()).add(d.facts.year));
    }
    for (const [accountId, years] of touched) {
      for (const year of [...years].sort()) await this.recheckYear(db, accountId, year, release, now, (facts) => defaultsFor(accountId, facts));
    }
  }

  /**
   * After the defaults of the account's `sourceKeys` changed (the profile projection, in the caller's
   * transaction): like a new event, each year in which events of those sources lack a fact a profile
   * supplies and add a positive amount is checked for the warning band and the crossing. A profile
   * applied after the events relying on it so proves their crossing then; stored marks never change.
   */
  async recheckSources(db: Db, accountId: string, sourceKeys: readonly string[], release: ThresholdRelease, now: Date, profiles: ProfileDefaultsOf): Promise<void> {
    const res = await db.query(
      `select distinct year from ${S}.article59c_bucket
        where account_id = $1 and source_id = any($2::text[]) and net_minor > 0
          and (supplier_establishment_country is null or (supply_kind = 'goods' and dispatch_country is null))
        order by year`,
      [accountId, [...sourceKeys]],
    );
    const defaultsFor = profileLookup(profiles);
    for (const { year } of res.rows as { year: number }[]) await this.recheckYear(db, accountId, year, release, now, (facts) => defaultsFor(accountId, facts));
  }

  private async originals(db: Db, accountId: string, ids: string[]): Promise<Map<string, Original>> {
    if (ids.length === 0) return new Map();
    const res = await db.query(
      ORIGINALS_SQL,
      [accountId, [...new Set(ids)]],
    );
    return new Map(res.rows.map((r) => [r.event_id, { eventType: r.event_type, occurredAt: iso(r.occurred_at), countryOfConsumption: r.country_of_consumption, currency: r.currency, sequence: BigInt(r.sequence) }]));
  }

  /**
   * Keeps the ECB rate evidence documents of the events (as the ledger attached it; each fact names its document
   * in `rate_doc`, written with the fact): reclassifications and moves convert from it. Each distinct document is
   * stored once (a batch has about one per tax-point day); one already stored is left as it is.
   */
  private async storeEvidence(db: Db, raws: RawFacts[]): Promise<void> {
    const docs = new Map<string, RateDoc>();
    for (const r of raws) {
      const doc = rateDocOf(r.evidence);
      if (doc && !docs.has(doc.digest)) docs.set(doc.digest, doc);
    }
    if (docs.size === 0) return;
    // In digest order: two batches storing the same new documents wait for each other in one order, never crosswise.
    const rows = [...docs.values()].sort((a, b) => (a.digest < b.digest ? -1 : 1));
    await db.query(
      `insert into ${S}.article59c_rate_doc (digest, rate_date, rates)
       select d.digest, d.rate_date, d.rates::jsonb from unnest($1::text[], $2::text[], $3::text[]) as d(digest, rate_date, rates)
       on conflict do nothing`,
      [rows.map((d) => d.digest), rows.map((d) => d.rateDate), rows.map((d) => d.text)],
    );
  }

  private async evidenceOf(db: Db, accountId: string, eventIds: string[]): Promise<Map<string, RateEvidence>> {
    if (eventIds.length === 0) return new Map();
    const res = await db.query(
      `select f.event_id, d.rate_date, d.rates from ${S}.supply_fact f join ${S}.article59c_rate_doc d on d.digest = f.rate_doc
        where f.account_id = $1 and f.event_id = any($2::text[])`,
      [accountId, [...new Set(eventIds)]],
    );
    return new Map(res.rows.map((r) => [r.event_id as string, { rateDate: r.rate_date as string, ratesPerEur: r.rates as Record<string, string> }]));
  }

  private async upsertBuckets(db: Db, deltas: Delta[]): Promise<void> {
    if (deltas.length === 0) return;
    // Positional rows in BUCKET_COLUMNS' order (jsonRowsSelect).
    const rows = deltas.map((d) => [
      d.accountId,
      d.key,
      d.facts.year,
      d.occurredOn,
      d.facts.eventClass,
      d.facts.linkState,
      d.facts.supplyKind,
      d.facts.customerType,
      d.facts.classificationStatus,
      d.facts.countryOfConsumption,
      d.facts.dispatchCountry,
      d.facts.supplierEstablishmentCountry,
      d.facts.currency,
      d.facts.sourceId,
      d.facts.customerType === 'b2b' ? (d.facts.vatNumberEvidence ?? 'missing') : null,
      d.count.toString(),
      d.net.toString(),
      d.maxRecordedAt,
      Object.fromEntries([...d.converted].map(([c, v]) => [c, v.net.toString()])),
      Object.fromEntries([...d.converted].map(([c, v]) => [c, v.count.toString()])),
    ]);
    await db.query(UPSERT_BUCKETS_SQL, [JSON.stringify(rows)]);
    await this.afterMovesOut(db, deltas.filter((d) => d.lost));
  }

  /**
   * Running totals that events left (a correction moved out of `missing` once its original arrived, a
   * reclassified fact) become exactly what the events now in them give, whatever batch moved them: a row left
   * without events is deleted, and the others' latest recording time is recomputed from their facts (greatest()
   * cannot take a time back). Otherwise the rows, and the status's coverage, issues and `cutoff_at`, would keep
   * a trace of the order in which a replica happened to receive a correction and its original (issue 23: a
   * one-process run given both in one batch links the correction at once and never creates the `missing` row).
   */
  private async afterMovesOut(db: Db, shrunk: Delta[]): Promise<void> {
    if (shrunk.length === 0) return;
    const left = await db.query(
      `delete from ${S}.article59c_bucket b using json_to_recordset($1::json) as r(account_id bigint, bucket_key text)
        where b.account_id = r.account_id and b.bucket_key = r.bucket_key and b.event_count = 0 and b.net_minor = 0 returning b.account_id::text as account_id, b.bucket_key`,
      [JSON.stringify(shrunk.map((d) => ({ account_id: d.accountId, bucket_key: d.key })))],
    );
    const deleted = new Set(left.rows.map((r) => `${r.account_id}#${r.bucket_key}`));
    const byAccount = new Map<string, Delta[]>();
    for (const d of shrunk) if (!deleted.has(`${d.accountId}#${d.key}`)) byAccount.set(d.accountId, [...(byAccount.get(d.accountId) ?? []), d]);
    for (const [accountId, ds] of byAccount) {
      // The facts of the rows' days (a row holds one tax-point day), each keyed as the projection keys it now.
      const raws = (
        await db.query(
          `select ${factColumns('f')} from ${S}.supply_fact f join unnest($2::text[]) d(day)
             on f.occurred_at >= (d.day || 'T00:00:00Z')::timestamptz and f.occurred_at < (d.day || 'T00:00:00Z')::timestamptz + interval '1 day'
            where f.account_id = $1`,
          [accountId, [...new Set(ds.map((d) => d.occurredOn))]],
        )
      ).rows.map(rawOfRow);
      const originals = await this.originals(db, accountId, raws.filter((r) => r.eventType !== 'sale' && r.originalEventId !== null).map((r) => r.originalEventId!));
      const keys = new Set(ds.map((d) => d.key));
      const latest = new Map<string, string>();
      for (const raw of raws) {
        const key = bucketKeyOf(candidateOf(raw, raw.originalEventId ? originals.get(raw.originalEventId) : undefined), raw.occurredAt.slice(0, 10));
        if (keys.has(key) && raw.recordedAt > (latest.get(key) ?? '')) latest.set(key, raw.recordedAt);
      }
      if (latest.size === 0) continue;
      await db.query(
        `update ${S}.article59c_bucket b set max_recorded_at = r.at from json_to_recordset($2::json) as r(bucket_key text, at timestamptz)
          where b.account_id = $1 and b.bucket_key = r.bucket_key`,
        [accountId, JSON.stringify([...latest].map(([key, at]) => ({ bucket_key: key, at })))],
      );
    }
  }

  /**
   * Evaluates the warning band and the crossing in ledger order: the account's marks position moves to the
   * longest prefix of its ledger (events 1..k) now fully applied, and each prefix in between that raised a
   * year's timeline (a positive amount, or a correction that preceded its original leaving its own year) is
   * walked as that prefix. Events delivered ahead of a missing one wait (already in the running totals) until
   * it arrives: the marks are those of the ledger order, whatever the batches, replicas or redeliveries.
   */
  private async advanceMarks(db: Db, accountId: string, release: ThresholdRelease, now: Date, defaultsFor: DefaultsFor, fresh: readonly RawFacts[] = []): Promise<void> {
    const { from, to } = await this.contiguousPrefix(db, accountId);
    if (to === from) return;
    await db.query(
      `insert into ${S}.article59c_marks_position (account_id, sequence) values ($1, $2) on conflict (account_id) do update set sequence = excluded.sequence`,
      [accountId, to.toString()],
    );
    const range =
      rangeOf(fresh, from, to) ??
      (await db.query(`select ${factColumns('f')} from ${S}.supply_fact f where f.account_id = $1 and f.sequence > $2 and f.sequence <= $3`, [accountId, from.toString(), to.toString()])).rows.map(rawOfRow);
    // Corrections linked from a prefix up to `to`: no longer needed once passed; those linked inside the range raise their own year there.
    const links = (
      await db.query(
        `with d as (delete from ${S}.article59c_pending_correction where account_id = $1 and linked_at_sequence <= $2 returning fact_id, linked_at_sequence)
         select d.linked_at_sequence::text as linked_at, ${factColumns('f')} from d join ${S}.supply_fact f on f.id = d.fact_id`,
        [accountId, to.toString()],
      )
    ).rows.map((r) => ({ raw: rawOfRow(r), linkedAt: BigInt(r.linked_at) }));
    const originals = await this.originals(db, accountId, [...range, ...links.map((l) => l.raw)].flatMap((r) => (r.eventType !== 'sale' && r.originalEventId !== null ? [r.originalEventId] : [])));
    const raises = new Map<number, Raise[]>();
    // Appended in place: a range can hold every event applied since a gap in the ledger order (copying the list per event was quadratic).
    const raise = (year: number, r: Raise) => {
      const list = raises.get(year);
      if (list) list.push(r);
      else raises.set(year, [r]);
    };
    for (const raw of range) {
      if (raw.netMinor <= 0n) continue;
      const o = raw.originalEventId ? originals.get(raw.originalEventId) : undefined;
      raise(candidateOf(raw, o && o.sequence < raw.sequence ? o : undefined).year, { prefix: raw.sequence, at: raw });
    }
    for (const { raw, linkedAt } of links) {
      if (linkedAt <= from || linkedAt <= raw.sequence) continue;
      if (raw.netMinor < 0n) raise(candidateOf(raw, undefined).year, { prefix: linkedAt, at: raw });
      else if (raw.netMinor > 0n) raise(candidateOf(raw, originals.get(raw.originalEventId!)).year, { prefix: linkedAt, at: raw });
    }
    for (const year of [...raises.keys()].sort()) await this.walkPrefixes(db, BigInt(accountId), year, raises.get(year)!, to, release, now, defaultsFor);
  }

  /**
   * The account's evaluated prefix, and the longest prefix of its ledger now applied (sequences without a gap), in
   * one statement answering one row: the facts beyond the evaluated prefix, in ledger order, continue it while
   * the n-th of them is `from` + n (sequences are unique and increasing: after a gap, never again).
   */
  private async contiguousPrefix(db: Db, accountId: string): Promise<{ from: bigint; to: bigint }> {
    const res = await db.query(
      `with m as (select coalesce((select sequence from ${S}.article59c_marks_position where account_id = $1), 0) as from_seq)
       select m.from_seq::text as from_seq, (m.from_seq + (select count(*) from (
           select f.sequence, row_number() over (order by f.sequence) as n from ${S}.supply_fact f where f.account_id = $1 and f.sequence > m.from_seq) s
         where s.sequence = m.from_seq + s.n))::text as to_seq
       from m`,
      [accountId],
    );
    return { from: BigInt(res.rows[0].from_seq), to: BigInt(res.rows[0].to_seq) };
  }

  /** After a reclassification or a profile default made more of a year count: its marks at the evaluated prefix. */
  private async recheckYear(db: Db, accountId: string, year: number, release: ThresholdRelease, now: Date, defaultsFor: DefaultsFor): Promise<void> {
    const res = await db.query(`select sequence::text from ${S}.article59c_marks_position where account_id = $1`, [accountId]);
    if (res.rowCount === 0) return;
    const prefix = BigInt(res.rows[0].sequence);
    await this.walkPrefixes(db, BigInt(accountId), year, [{ prefix }], prefix, release, now, defaultsFor);
  }

  /**
   * With the profile defaults in force: walks the year's timeline (tax-point order, then ledger sequence;
   * corrections at their own place) as it stood at each ledger prefix that raised it, and stores the warning
   * notification and each crossing earlier than the stored ones. A crossing is stored once per event and never
   * changed: a later prefix (a backdated sale) that moves the first crossing to an earlier event stores that
   * crossing beside the one it supersedes, which stays as visible history; a crossing that moves later (a refund)
   * or disappears leaves the stored one as it is. Once the warning is stored, only raises before the earliest
   * stored crossing can change anything, and only the events before it are read.
   */
  private async walkPrefixes(db: Db, accountId: bigint, year: number, raises: Raise[], upTo: bigint, release: ThresholdRelease, now: Date, defaultsFor: DefaultsFor): Promise<void> {
    const stored = await db.query(
      `select kind, null as occurred_at, null as sequence from ${S}.threshold_notification where account_id = $1 and year = $2
       union all (select 'crossing', occurred_at, sequence::text from ${S}.article59c_crossing where account_id = $1 and year = $2 order by occurred_at, sequence limit 1)`,
      [accountId.toString(), year],
    );
    const have = new Set(stored.rows.map((r) => r.kind as string));
    const storedRow = stored.rows.find((r) => r.kind === 'crossing');
    const earliest = storedRow ? { occurredAt: iso(storedRow.occurred_at), sequence: BigInt(storedRow.sequence) } : undefined;
    const warningKnown = have.has(NOTIFICATION_KINDS.warning);
    const bounded = warningKnown && earliest !== undefined;
    const steps = [...new Set(raises.filter((r) => !bounded || !r.at || byTaxPointThenSequence(r.at, earliest) < 0).map((r) => r.prefix))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (steps.length === 0) return;
    const lookup = (c: string) => release.thresholds.get(c);
    if (!earliest && !(await this.mayReach(db, accountId, year, warningKnown, lookup, defaultsFor))) return;
    const contributions = await this.contributions(db, accountId, year, upTo, bounded ? earliest.occurredAt : undefined, release, defaultsFor);
    const marks = marksAlongPrefixes(contributions, steps, lookup, { warning: warningKnown, crossing: earliest });
    const notify = (kind: string, m: PrefixMark) =>
      recordNotification(db, {
        accountId, year, kind, eventId: m.mark.event.eventId, cumulativeMinor: m.mark.cumulativeMinor, thresholdMinor: m.threshold.amountMinor, currency: m.threshold.currency,
        occurredAt: m.mark.event.occurredAt, recordedAt: m.mark.event.recordedAt, createdAt: now,
      });
    if (marks.warning) await notify(NOTIFICATION_KINDS.warning, marks.warning);
    for (const [i, c] of marks.crossings.entries()) {
      const ins = await db.query(
        `insert into ${S}.article59c_crossing (account_id, year, event_id, sequence, occurred_at, recorded_at, event_amount_minor, cumulative_minor, threshold_minor,
           currency, establishment_country, release_version, policy_version, proven_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $9, $10, $11, $12, $13, $14) on conflict (account_id, year, sequence) do nothing returning year`,
        [accountId.toString(), year, c.mark.event.eventId, c.mark.event.sequence.toString(), c.mark.event.occurredAt, c.mark.event.recordedAt, c.mark.event.amountMinor.toString(),
          c.mark.cumulativeMinor.toString(), c.threshold.amountMinor.toString(), c.threshold.currency, c.establishment, release.version, POLICY_VERSION, now],
      );
      if (ins.rowCount && !earliest && i === 0) await notify(NOTIFICATION_KINDS.crossing, c);
    }
  }

  /**
   * Whether any prefix could reach the warning band (or, with the warning stored, the threshold): the year's
   * positive counted running totals, of every event applied so far, bound every cumulative of the timeline.
   */
  private async mayReach(db: Db, accountId: bigint, year: number, warningKnown: boolean, lookup: (c: string) => { amountMinor: bigint; currency: string } | undefined, defaultsFor: DefaultsFor): Promise<boolean> {
    const sales = (await this.status.buckets(accountId, [year], db)).filter((b: Bucket) => b.netMinor > 0n);
    const summary = summarizeYear(year, sales, await defaultsFor(sales.map((b) => b.facts)), lookup, '9999-12-31');
    for (const [establishment, total] of summary.countedByEstablishment) {
      const t = lookup(establishment);
      if (t && (warningKnown ? total > t.amountMinor : total * 100n >= t.amountMinor * 90n)) return true;
    }
    return false;
  }

  /**
   * The year's candidates among the ledger events 1..`upTo` (dated up to `until` when given), each in the
   * state it has at each prefix: a correction preceding its original is unresolved in its own year until the
   * original's prefix, then linked in the original's year. Counted amounts are converted per event; unresolved
   * negative amounts count too (pessimistic: an unresolved refund might reduce this year, so it never helps prove a crossing).
   */
  private async contributions(db: Db, accountId: bigint, year: number, upTo: bigint, until: string | undefined, release: ThresholdRelease, defaultsFor: DefaultsFor): Promise<PrefixContribution[]> {
    const res = await db.query(
      `select ${factColumns('f')}, ev.rate_date as ev_rate_date, ev.rates as ev_rates from ${S}.supply_fact f
         left join ${S}.article59c_rate_doc ev on ev.digest = f.rate_doc
        where f.account_id = $1 and f.occurred_at >= $2 and f.sequence <= $3 and ($4::timestamptz is null or f.occurred_at <= $4)`,
      [accountId.toString(), `${year}-01-01T00:00:00Z`, upTo.toString(), until ?? null],
    );
    const raws = res.rows.map((r): RawFacts => ({ ...rawOfRow(r), evidence: r.ev_rate_date === null ? null : { rateDate: r.ev_rate_date, ratesPerEur: r.ev_rates } }));
    const originals = await this.originals(db, accountId.toString(), raws.filter((r) => r.eventType !== 'sale' && r.originalEventId !== null).map((r) => r.originalEventId!));
    const states = raws.flatMap((raw) => {
      const o = raw.originalEventId && raw.eventType !== 'sale' ? originals.get(raw.originalEventId) : undefined;
      if (!o || o.sequence > upTo) return [{ raw, facts: candidateOf(raw, undefined), from: raw.sequence, to: undefined }];
      if (o.sequence < raw.sequence) return [{ raw, facts: candidateOf(raw, o), from: raw.sequence, to: undefined }];
      return [{ raw, facts: candidateOf(raw, undefined), from: raw.sequence, to: o.sequence }, { raw, facts: candidateOf(raw, o), from: o.sequence, to: undefined }];
    }).filter((s) => s.facts.year === year);
    const defaults = await defaultsFor(states.map((s) => s.facts));
    const targets = thresholdCurrencies(release.thresholds.values());
    const lookup = (country: string) => release.thresholds.get(country);
    return states.map(({ raw, facts, from, to }) => {
      const converted = new Map([...convertEvent(raw.netMinor, raw.currency, raw.evidence ?? null, targets)].map(([cur, net]) => [cur, { net, count: 1n }]));
      const { c, amount } = withConversion(classifyCandidate(facts, defaults(facts.sourceId), lookup), raw.netMinor, 1n, converted, lookup);
      return {
        event: { eventId: raw.eventId, sequence: raw.sequence, occurredAt: raw.occurredAt, recordedAt: raw.recordedAt, amountMinor: amount },
        from,
        to,
        counts: c.disposition === 'counted' || (c.disposition === 'unresolved' && raw.netMinor < 0n),
        positive: raw.netMinor > 0n,
        establishment: c.establishment,
      };
    });
  }
}
