import type pg from 'pg';
import type { SupplyEvent } from '@vat/gen/vat/ledger/v1/resources_pb';
import type { Reclassified } from '@vat/platform/supply-projection';
import { classifyCandidate, type CandidateFacts, type ProfileDefaults } from '../article59c/classify';
import { convertEvent, thresholdCurrencies, withConversion, type Converted, type RateEvidence } from '../article59c/conversion';
import { byTaxPointThenSequence, firstMarks, type Mark, type TimelineEvent } from '../article59c/crossing';
import { bucketKeyOf, candidateOf, iso, lacksProfileFact, rawOfEvent, type Original, type RawFacts } from '../article59c/facts';
import { POLICY_VERSION } from '../article59c/policy';
import type { ThresholdRelease } from '../article59c/release';
import { summarizeYear } from '../article59c/summarize';
import { Article59cStatusRepository, eventFactsOfRow } from './article59c-status';
import { NOTIFICATION_KINDS, recordNotification } from './threshold-notifications';

const S = '"thresholds"';
type Db = Pick<pg.PoolClient, 'query'>;

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

/** The projected fact columns a bucket needs, qualified by `alias`. */
export const factColumns = (alias: string) =>
  [
    'id::text as fact_id', 'account_id::text as account_id', 'event_id', 'sequence::text as sequence', 'event_type', 'original_event_id', 'occurred_at', 'recorded_at',
    'supply_kind', 'customer_type', 'classification_status', 'country_of_consumption', 'dispatch_country', 'supplier_establishment_country', 'currency', 'source_id',
    'net_amount_minor::text as net_amount_minor',
  ].map((c) => `${alias}.${c}`).join(', ');

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
  };
}

type Delta = { accountId: string; key: string; facts: CandidateFacts; occurredOn: string; count: bigint; net: bigint; maxRecordedAt: string; converted: Converted };

/** Running-total changes keyed by account and bucket, and how to add one event's contribution. */
function deltaSet() {
  const deltas = new Map<string, Delta>();
  const add = (accountId: string, facts: CandidateFacts, occurredAt: string, recordedAt: string, count: bigint, net: bigint, converted: ReadonlyMap<string, bigint> = new Map()) => {
    const occurredOn = occurredAt.slice(0, 10);
    const key = bucketKeyOf(facts, occurredOn);
    const id = `${accountId}#${key}`;
    const d = deltas.get(id) ?? { accountId, key, facts, occurredOn, count: 0n, net: 0n, maxRecordedAt: recordedAt, converted: new Map() };
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

/**
 * The projection's writes to the Article 59c running totals: fresh events and reclassifications, the
 * corrections waiting for their original, and the crossings and notifications they prove.
 */
export class Article59cRepository {
  private readonly status: Article59cStatusRepository;

  constructor(pool: pg.Pool) {
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
    const pending: { factId: string; accountId: string; originalEventId: string; key: string }[] = [];
    const byAccount = new Map<string, RawFacts[]>();
    for (const e of events) {
      const raw = rawOfEvent(e);
      const list = byAccount.get(raw.accountId) ?? [];
      list.push(raw);
      byAccount.set(raw.accountId, list);
    }
    for (const [accountId, raws] of byAccount) {
      await this.storeEvidence(db, accountId, raws);
      const originals = await this.originals(db, accountId, raws.filter((r) => r.eventType !== 'sale' && r.originalEventId !== null).map((r) => r.originalEventId!));
      for (const raw of raws) {
        const facts = candidateOf(raw, raw.originalEventId ? originals.get(raw.originalEventId) : undefined);
        add(accountId, facts, raw.occurredAt, raw.recordedAt, 1n, raw.netMinor, convertEvent(raw.netMinor, raw.currency, raw.evidence ?? null, targets));
        if (facts.linkState === 'missing' && raw.originalEventId !== null) pending.push({ factId: raw.factId, accountId, originalEventId: raw.originalEventId, key: bucketKeyOf(facts, raw.occurredAt.slice(0, 10)) });
      }
      // Corrections that arrived before their original: out of the "missing" bucket, into the linked (or invalid) one.
      const moved = await db.query(
        `delete from ${S}.article59c_pending_correction p using ${S}.supply_fact f
         where p.account_id = $1 and p.original_event_id = any($2::text[]) and f.id = p.fact_id returning p.bucket_key, ${factColumns('f')}`,
        [accountId, raws.map((r) => r.eventId)],
      );
      const arrived = new Map(raws.map((r) => [r.eventId, { eventType: r.eventType, occurredAt: r.occurredAt, countryOfConsumption: r.countryOfConsumption, currency: r.currency }]));
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
        `insert into ${S}.article59c_pending_correction (fact_id, account_id, original_event_id, bucket_key)
         select * from jsonb_to_recordset($1::jsonb) as r(fact_id uuid, account_id bigint, original_event_id text, bucket_key text) on conflict do nothing`,
        [JSON.stringify(pending.map((p) => ({ fact_id: p.factId, account_id: p.accountId, original_event_id: p.originalEventId, bucket_key: p.key })))],
      );
    }
    await this.settle(db, deltas, release, now, profiles);
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

  /** Writes the deltas to the running totals, then records the marks of every year that gained a positive counted amount. */
  private async settle(db: Db, deltas: Map<string, Delta>, release: ThresholdRelease, now: Date, profiles: ProfileDefaultsOf): Promise<void> {
    // One lock order for every batch (replicas applying batches side by side never deadlock on bucket rows).
    await this.upsertBuckets(db, [...deltas.values()].sort((a, b) => (a.accountId === b.accountId ? (a.key < b.key ? -1 : 1) : a.accountId < b.accountId ? -1 : 1)));
    // Only a year that gained a positive counted amount can newly reach a mark.
    const lookup = (c: string) => release.thresholds.get(c);
    const defaultsFor = profileLookup(profiles);
    // Per account and year, the earliest day that gained a positive counted amount: only a gain dated on or
    // before a stored crossing's day can move that crossing earlier.
    const touched = new Map<string, Map<number, string>>();
    for (const d of deltas.values()) {
      if (d.net <= 0n) continue;
      const defaults = await defaultsFor(d.accountId, [d.facts]);
      if (withConversion(classifyCandidate(d.facts, defaults(d.facts.sourceId), lookup), d.net, d.count, d.converted, lookup).c.disposition !== 'counted') continue;
      const years = touched.get(d.accountId) ?? touched.set(d.accountId, new Map()).get(d.accountId)!;
      const known = years.get(d.facts.year);
      if (known === undefined || d.occurredOn < known) years.set(d.facts.year, d.occurredOn);
    }
    for (const [accountId, years] of touched) {
      for (const [year, earliestDay] of years) await this.recordMarks(db, BigInt(accountId), year, release, now, (facts) => defaultsFor(accountId, facts), earliestDay);
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
    for (const { year } of res.rows as { year: number }[]) await this.recordMarks(db, BigInt(accountId), year, release, now, (facts) => defaultsFor(accountId, facts));
  }

  private async originals(db: Db, accountId: string, ids: string[]): Promise<Map<string, Original>> {
    if (ids.length === 0) return new Map();
    const res = await db.query(
      `select event_id, event_type, occurred_at, country_of_consumption, currency from ${S}.supply_fact where account_id = $1 and event_id = any($2::text[])`,
      [accountId, [...new Set(ids)]],
    );
    return new Map(res.rows.map((r) => [r.event_id, { eventType: r.event_type, occurredAt: iso(r.occurred_at), countryOfConsumption: r.country_of_consumption, currency: r.currency }]));
  }

  /** Keeps each event's ECB rate evidence (as the ledger attached it): reclassifications and moves convert from it. */
  private async storeEvidence(db: Db, accountId: string, raws: RawFacts[]): Promise<void> {
    const rows = raws.flatMap((r) => (r.evidence ? [{ event_id: r.eventId, rate_date: r.evidence.rateDate, rates: r.evidence.ratesPerEur }] : []));
    if (rows.length === 0) return;
    await db.query(
      `insert into ${S}.article59c_rate_evidence (account_id, event_id, rate_date, rates)
       select $1::bigint, r.event_id, r.rate_date, r.rates from jsonb_to_recordset($2::jsonb) as r(event_id text, rate_date text, rates jsonb) on conflict do nothing`,
      [accountId, JSON.stringify(rows)],
    );
  }

  private async evidenceOf(db: Db, accountId: string, eventIds: string[]): Promise<Map<string, RateEvidence>> {
    if (eventIds.length === 0) return new Map();
    const res = await db.query(`select event_id, rate_date, rates from ${S}.article59c_rate_evidence where account_id = $1 and event_id = any($2::text[])`, [accountId, [...new Set(eventIds)]]);
    return new Map(res.rows.map((r) => [r.event_id as string, { rateDate: r.rate_date as string, ratesPerEur: r.rates as Record<string, string> }]));
  }

  private async upsertBuckets(db: Db, deltas: Delta[]): Promise<void> {
    if (deltas.length === 0) return;
    const rows = deltas.map((d) => ({
      account_id: d.accountId,
      bucket_key: d.key,
      year: d.facts.year,
      occurred_on: d.occurredOn,
      event_class: d.facts.eventClass,
      link_state: d.facts.linkState,
      supply_kind: d.facts.supplyKind,
      customer_type: d.facts.customerType,
      classification_status: d.facts.classificationStatus,
      country_of_consumption: d.facts.countryOfConsumption,
      dispatch_country: d.facts.dispatchCountry,
      supplier_establishment_country: d.facts.supplierEstablishmentCountry,
      currency: d.facts.currency,
      source_id: d.facts.sourceId,
      event_count: d.count.toString(),
      net_minor: d.net.toString(),
      max_recorded_at: d.maxRecordedAt,
      converted_minor: Object.fromEntries([...d.converted].map(([c, v]) => [c, v.net.toString()])),
      converted_count: Object.fromEntries([...d.converted].map(([c, v]) => [c, v.count.toString()])),
    }));
    const cols = Object.keys(rows[0]!);
    const types: Record<string, string> = { account_id: 'bigint', year: 'int', event_count: 'bigint', net_minor: 'numeric', max_recorded_at: 'timestamptz', converted_minor: 'jsonb', converted_count: 'jsonb' };
    // Per-currency sums kept as exact decimal text in jsonb, added key by key.
    const merge = (c: string) =>
      `${c} = (select coalesce(jsonb_object_agg(k, ((coalesce(b.${c}->>k, '0'))::numeric + (coalesce(excluded.${c}->>k, '0'))::numeric)::text), '{}'::jsonb) from jsonb_object_keys(b.${c} || excluded.${c}) k)`;
    await db.query(
      `insert into ${S}.article59c_bucket as b (${cols.join(', ')})
       select ${cols.join(', ')} from jsonb_to_recordset($1::jsonb) as r(${cols.map((c) => `${c} ${types[c] ?? 'text'}`).join(', ')})
       on conflict (account_id, bucket_key) do update set event_count = b.event_count + excluded.event_count, net_minor = b.net_minor + excluded.net_minor,
         max_recorded_at = greatest(b.max_recorded_at, excluded.max_recorded_at), ${merge('converted_minor')}, ${merge('converted_count')}`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * With the profile defaults in force: when the year's counted sales reach the warning band, walks the
   * year's events in tax-point order (ties by ledger sequence) to find the event that first reached each
   * mark (corrections included at their own place), and stores the notification(s) and the crossing. A
   * crossing is stored once per event and never changed: when events that arrive later (a backdated sale,
   * `earliestDay` the earliest day they add to) move the first crossing to an earlier event, that crossing
   * is stored beside the one it supersedes, which stays as visible history; a crossing that moves later
   * (a refund) or disappears leaves the stored one as it is.
   */
  private async recordMarks(
    db: Db,
    accountId: bigint,
    year: number,
    release: ThresholdRelease,
    now: Date,
    defaultsFor: (facts: CandidateFacts[]) => Promise<(sourceId: string | null) => ProfileDefaults | undefined>,
    earliestDay?: string,
  ): Promise<void> {
    const stored = await db.query(
      `select kind, null as occurred_at, null as sequence from ${S}.threshold_notification where account_id = $1 and year = $2
       union all (select 'crossing', occurred_at, sequence::text from ${S}.article59c_crossing where account_id = $1 and year = $2 order by occurred_at, sequence limit 1)`,
      [accountId.toString(), year],
    );
    const have = new Set(stored.rows.map((r) => r.kind as string));
    const storedRow = stored.rows.find((r) => r.kind === 'crossing');
    const storedCrossing = storedRow ? { occurredAt: iso(storedRow.occurred_at), sequence: BigInt(storedRow.sequence) } : undefined;
    const mayMoveEarlier = storedCrossing !== undefined && (earliestDay === undefined || earliestDay <= storedCrossing.occurredAt.slice(0, 10));
    if (have.has(NOTIFICATION_KINDS.warning) && storedCrossing && !mayMoveEarlier) return;
    const lookup = (c: string) => release.thresholds.get(c);
    // Positive groups only: a crossing reached mid-year and undone by later refunds must still be found.
    const sales = (await this.status.buckets(accountId, [year], db)).filter((b) => b.netMinor > 0n);
    const summary = summarizeYear(year, sales, await defaultsFor(sales.map((b) => b.facts)), lookup, '9999-12-31');
    if (summary.establishments.size !== 1) return;
    const establishment = [...summary.establishments][0]!;
    const t = lookup(establishment);
    const total = summary.countedByEstablishment.get(establishment) ?? 0n;
    if (!t || total * 100n < t.amountMinor * 90n) return;
    const needWarning = !have.has(NOTIFICATION_KINDS.warning);
    const needCrossing = storedCrossing ? mayMoveEarlier : total > t.amountMinor;
    if (!needWarning && !needCrossing) return;
    const marks = firstMarks(await this.timeline(db, accountId, year, release, defaultsFor), t.amountMinor);
    const notify = (kind: string, m: Mark) =>
      recordNotification(db, { accountId, year, kind, eventId: m.event.eventId, cumulativeMinor: m.cumulativeMinor, thresholdMinor: t.amountMinor, currency: t.currency, occurredAt: m.event.occurredAt, recordedAt: m.event.recordedAt, createdAt: now });
    if (needWarning && marks.warning) await notify(NOTIFICATION_KINDS.warning, marks.warning);
    const c = marks.crossing;
    if (needCrossing && c && (!storedCrossing || byTaxPointThenSequence(c.event, storedCrossing) < 0)) {
      const ins = await db.query(
        `insert into ${S}.article59c_crossing (account_id, year, event_id, sequence, occurred_at, recorded_at, event_amount_minor, cumulative_minor, threshold_minor,
           currency, establishment_country, release_version, policy_version, proven_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $9, $10, $11, $12, $13, $14) on conflict (account_id, year, sequence) do nothing returning year`,
        [accountId.toString(), year, c.event.eventId, c.event.sequence.toString(), c.event.occurredAt, c.event.recordedAt, c.event.amountMinor.toString(), c.cumulativeMinor.toString(),
          t.amountMinor.toString(), t.currency, establishment, release.version, POLICY_VERSION, now],
      );
      if (ins.rowCount && !storedCrossing) await notify(NOTIFICATION_KINDS.crossing, c);
    }
  }

  /**
   * The year's contributions (event facts, then profile defaults): counted events, plus unresolved negative amounts
   * dated in the year (pessimistic: an unresolved refund might reduce this year, so it never helps prove a crossing).
   */
  private async timeline(
    db: Db,
    accountId: bigint,
    year: number,
    release: ThresholdRelease,
    defaultsFor: (facts: CandidateFacts[]) => Promise<(sourceId: string | null) => ProfileDefaults | undefined>,
  ): Promise<TimelineEvent[]> {
    const res = await db.query(
      `select ${factColumns('f')}, ev.rate_date as ev_rate_date, ev.rates as ev_rates from ${S}.supply_fact f
         left join ${S}.article59c_rate_evidence ev on ev.account_id = f.account_id and ev.event_id = f.event_id
        where f.account_id = $1 and f.occurred_at >= $2`,
      [accountId.toString(), `${year}-01-01T00:00:00Z`],
    );
    const raws = res.rows.map((r): RawFacts => ({ ...rawOfRow(r), evidence: r.ev_rate_date === null ? null : { rateDate: r.ev_rate_date, ratesPerEur: r.ev_rates } }));
    const originals = await this.originals(db, accountId.toString(), raws.filter((r) => r.eventType !== 'sale' && r.originalEventId !== null).map((r) => r.originalEventId!));
    const candidates = raws.map((raw) => ({ raw, facts: candidateOf(raw, raw.originalEventId ? originals.get(raw.originalEventId) : undefined) })).filter((c) => c.facts.year === year);
    const defaults = await defaultsFor(candidates.map((c) => c.facts));
    const targets = thresholdCurrencies(release.thresholds.values());
    const lookup = (country: string) => release.thresholds.get(country);
    const out: TimelineEvent[] = [];
    for (const { raw, facts } of candidates) {
      const converted = new Map([...convertEvent(raw.netMinor, raw.currency, raw.evidence ?? null, targets)].map(([cur, net]) => [cur, { net, count: 1n }]));
      const { c, amount } = withConversion(classifyCandidate(facts, defaults(facts.sourceId), lookup), raw.netMinor, 1n, converted, lookup);
      if (c.disposition === 'counted' || (c.disposition === 'unresolved' && raw.netMinor < 0n)) {
        out.push({ eventId: raw.eventId, sequence: raw.sequence, occurredAt: raw.occurredAt, recordedAt: raw.recordedAt, amountMinor: amount });
      }
    }
    return out;
  }
}
