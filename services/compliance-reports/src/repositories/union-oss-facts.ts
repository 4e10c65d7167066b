import type pg from 'pg';
import { inTransaction } from '@vat/platform/transaction';
import { periodOfDate, type FactGroup, type LinkStatus, type UnitAmounts } from '../domain/union-oss-return';

/** A consumption State's standard rate over [validFrom, validTo) (YYYY-MM-DD; validTo null = open). */
export type StandardRateWindow = { country: string; validFrom: string; validTo: string | null; rateBps: number };

/** A rate in force over [validFrom, validTo) in a State (region set: only there), whatever the class. */
export type RateInForceWindow = { country: string; region: string | null; rateBps: number; rateType: string; validFrom: string; validTo: string | null };

/** Events of an earlier locked quarter, recorded after its lock, that this quarter reports. */
export type LateWindow = { start: string; endExclusive: string; afterSequence: bigint; upToSequence: bigint | null };

export type FactScope = {
  accountId: bigint;
  /** First day and the day after the last, YYYY-MM-DD (UTC). */
  start: string;
  endExclusive: string;
  /** Only events at or before this ledger position (a locked quarter); null = everything projected. */
  upToSequence: bigint | null;
  late: readonly LateWindow[];
  /** Groups in another currency carry their per-event amounts (conversion is per event). */
  returnCurrency: string;
  /** Decides STANDARD/REDUCED per event in SQL, so groups need not be per day. */
  standardRates: readonly StandardRateWindow[];
  /** Every rate in force (the calculation service's): groups whose rate is not are marked; absent = not checked. */
  ratesInForce?: readonly RateInForceWindow[];
  /** The days no group spans (YYYY-MM-DD, sorted); absent = derived from the quarters and the rate windows. A lock seals them. */
  boundaries?: readonly string[];
  /** Days before a tax point in which a VIES check counts as evidence of the customer's status (VIES_REUSE_DAYS). */
  vatEvidenceDays: number;
};

/**
 * The scope a lock sealed: enough to read exactly the events it froze again (the ledger position, the
 * late windows and the group boundaries of that day), whatever rates or settings change afterwards.
 */
export type SealedScope = { start: string; endExclusive: string; upToSequence: string; late: { start: string; endExclusive: string; afterSequence: string; upToSequence: string | null }[]; returnCurrency: string; boundaries: string[]; vatEvidenceDays?: number };

export function sealScope(scope: FactScope): SealedScope {
  return {
    start: scope.start,
    endExclusive: scope.endExclusive,
    upToSequence: scope.upToSequence!.toString(),
    late: scope.late.map((w) => ({ start: w.start, endExclusive: w.endExclusive, afterSequence: w.afterSequence.toString(), upToSequence: w.upToSequence?.toString() ?? null })),
    returnCurrency: scope.returnCurrency,
    boundaries: boundariesOf(scope),
    vatEvidenceDays: scope.vatEvidenceDays,
  };
}

export function unsealScope(accountId: bigint, s: SealedScope): FactScope {
  return {
    accountId,
    start: s.start,
    endExclusive: s.endExclusive,
    upToSequence: BigInt(s.upToSequence),
    late: s.late.map((w) => ({ start: w.start, endExclusive: w.endExclusive, afterSequence: BigInt(w.afterSequence), upToSequence: w.upToSequence === null ? null : BigInt(w.upToSequence) })),
    returnCurrency: s.returnCurrency,
    standardRates: [],
    boundaries: s.boundaries,
    // Locks sealed before VAT-number evidence existed had none to find (no check can date from before them).
    vatEvidenceDays: s.vatEvidenceDays ?? 0,
  };
}

/** Every day on which the quarter or a standard rate can change: no group spans one. */
function boundariesOf(scope: FactScope): string[] {
  if (scope.boundaries) return [...scope.boundaries];
  const days = new Set([scope.start, scope.endExclusive, ...scope.late.flatMap((w) => [w.start, w.endExclusive])]);
  for (const r of [...scope.standardRates, ...(scope.ratesInForce ?? [])]) {
    days.add(r.validFrom);
    if (r.validTo !== null) days.add(r.validTo);
  }
  return [...days].sort();
}

/**
 * What decides an event's disposition, as one string (the SQL grouping columns, amounts aside): a lock
 * seals the disposition per key, and its drill-down finds each event's by the same key.
 */
function dispositionKeyOf(r: GroupRow): string {
  return [r.late, r.seg, r.is_sale, r.classification_status, r.rate_category, r.supply_kind, r.customer_type, r.country_of_consumption, r.dispatch_country, r.supplier_establishment_country, r.source_id, r.vat_rate_bps, r.currency, r.link, r.original_period, r.b2b_evidence_id]
    .map((v) => (v === null ? '' : String(v)))
    .join('|');
}

const SCHEMA = 'compliance_reports';

/** The projection columns a return reads (not the whole, wide row). */
const COLUMNS = `f.event_id, f.sequence, f.event_type, f.original_event_id, f.classification_status, f.rate_category, f.supply_kind, f.customer_type, f.country_of_consumption,
  f.dispatch_country, f.supplier_establishment_country, f.source_id, f.vat_rate_bps, f.currency, f.net_amount_minor, f.vat_amount_minor, f.occurred_at, f.customer_vat_number_digest`;

/*
 * The fact reads are composed from the parts below: which facts (`scoped`: the quarter's own, all or b2b only,
 * and the late ones of earlier locked quarters) and what of them (groups, or one row per event). Parameters,
 * the same in every composition: $1 account, $2 and $3 the quarter's first day and the day after its last,
 * $4 the ledger position read up to (null = everything projected), $5 the return currency, $6 the late windows
 * (json), $7 the group boundaries (the quarters' and the standard-rate windows' first days), $8 the VIES evidence
 * days; the per-event read adds $9 (keyset: after this sequence) and $10 (one Member State of consumption or null).
 */

/** The late windows ($6): events of an earlier locked quarter recorded after its lock, reported by this quarter. */
const LATE_WINDOWS = `w as (
  select * from json_to_recordset($6::json) as w(start timestamptz, stop timestamptz, after_seq bigint, up_to bigint)
)`;

/** What of the quarter's own facts a read takes. */
type OwnFacts = 'all' | 'b2b' | 'none';

/**
 * The quarter's own facts up to the position ($4): all, only b2b supplies (their partial index keeps it small),
 * or none (the branch stays, empty, because it is where $2 and $3 get their types: every composition binds the
 * same parameters).
 */
const ownFacts = (own: OwnFacts) => `
  select ${COLUMNS}, false as late from "${SCHEMA}".supply_fact f
   where ${own === 'b2b' ? `f.customer_type = 'b2b' and ` : own === 'none' ? 'false and ' : ''}f.account_id = $1 and f.occurred_at >= $2::timestamptz and f.occurred_at < $3::timestamptz and ($4::bigint is null or f.sequence <= $4::bigint)`;

/** Events of each late window recorded after its lock. */
const LATE_FACTS = `
  select ${COLUMNS}, true as late from w join "${SCHEMA}".supply_fact f
    on f.account_id = $1 and f.occurred_at >= w.start and f.occurred_at < w.stop and f.sequence > w.after_seq and (w.up_to is null or f.sequence <= w.up_to)`;

/**
 * A correction the lock left out because its original had not arrived: it is reported, like a late event, by
 * the first open quarter after the original arrives (never lost, the snapshot unchanged).
 */
const LATE_CORRECTIONS = `
  select ${COLUMNS}, true as late from w join "${SCHEMA}".supply_fact f
    on f.account_id = $1 and f.occurred_at >= w.start and f.occurred_at < w.stop and f.sequence <= w.after_seq and f.event_type <> 'sale'
   where exists (select 1 from "${SCHEMA}".supply_fact o
                  where o.account_id = $1 and o.event_id = f.original_event_id and o.sequence > w.after_seq and (w.up_to is null or o.sequence <= w.up_to))`;

/** Which facts a read takes: the quarter's own, and whether the late windows'. */
type FactBranches = { own: OwnFacts; late: boolean };

function scopedFacts(b: FactBranches): string {
  const branches = [ownFacts(b.own), ...(b.late ? [LATE_FACTS, LATE_CORRECTIONS] : [])];
  return `scoped as (${branches.join('\n  union all')}
)`;
}

/**
 * What decides an event's disposition, in the order `dispositionKeyOf` reads it: `seg` is the event's slice of
 * time between the boundaries ($7), so a group never spans a quarter or a standard-rate change; `link` is a
 * correction's check against its original (`o`); amounts in another currency than the return's stay per event.
 */
const DISPOSITION = [
  's.late',
  'width_bucket(s.occurred_at, $7::timestamptz[]) as seg',
  `s.event_type = 'sale' as is_sale`,
  's.classification_status',
  's.rate_category',
  's.supply_kind',
  's.customer_type',
  's.country_of_consumption',
  's.dispatch_country',
  's.supplier_establishment_country',
  `case when (s.supply_kind = 'goods' and s.dispatch_country is null) or (s.supply_kind = 'services' and s.supplier_establishment_country is null) then s.source_id end as source_id`,
  's.vat_rate_bps',
  's.currency',
  `case when s.event_type = 'sale' then 'none'
       when o.o_type is null then 'missing'
       when o.o_type <> 'sale' or o.o_country <> s.country_of_consumption or o.o_currency <> s.currency then 'invalid'
       else 'ok' end as link`,
  `to_char(o.o_at at time zone 'UTC', 'YYYY-"Q"Q') as original_period`,
  'case when s.currency <> $5 then s.net_amount_minor::text end as unit_net',
  'case when s.currency <> $5 then s.vat_amount_minor::text end as unit_vat',
  // A b2b supply's VIES evidence (Art. 18 of Reg. 282/2011): the newest definitive check of its number made
  // on the tax point's day or in the $8 days before; its id when that check said valid (evaluated for b2b only).
  `case when s.customer_type = 'b2b' and s.customer_vat_number_digest is not null then (
    select case when c.result = 'valid' then c.id end from "${SCHEMA}".vat_number_check c
     where c.account_id = $1 and c.vat_number_digest = s.customer_vat_number_digest and c.result in ('valid', 'invalid')
       and c.checked_at >= date_trunc('day', s.occurred_at, 'UTC') - make_interval(days => $8::int)
       and c.checked_at < date_trunc('day', s.occurred_at, 'UTC') + interval '1 day'
     order by c.checked_at desc, c.id desc limit 1) end as b2b_evidence_id`,
];

/** Only a correction looks up its original (by the account's event id), up to the position read. */
const ORIGINAL = `left join lateral (
  select o.event_type as o_type, o.country_of_consumption as o_country, o.currency as o_currency, o.occurred_at as o_at from "${SCHEMA}".supply_fact o
   where s.event_type <> 'sale' and o.account_id = $1 and o.event_id = s.original_event_id and ($4::bigint is null or o.sequence <= $4::bigint) limit 1
) o on true`;

/** One read of the scoped facts: the disposition columns, then `more` columns, then the `tail` clause. */
function factRead(b: FactBranches, more: string, tail: string): string {
  return `with ${LATE_WINDOWS},
${scopedFacts(b)}
select ${DISPOSITION.join(',\n  ')},
  ${more}
from scoped s
${ORIGINAL}
${tail}`;
}

/**
 * The facts aggregated in SQL by every disposition column: memory follows the number of distinct groups, not
 * of events or days.
 */
const groupsSql = (b: FactBranches) =>
  factRead(b, 'count(*)::int as n, sum(s.net_amount_minor)::text as net_sum, sum(s.vat_amount_minor)::text as vat_sum', `group by ${DISPOSITION.map((_, i) => i + 1).join(', ')}`);

/**
 * The same facts one row per event (each its own group), in ledger order after a keyset position ($9),
 * optionally of one Member State of consumption ($10): the drill-down, live or of a lock's sealed scope.
 * Without late windows it is one walk of the (account, sequence) index, so a page reads only as far as it needs.
 */
const eventsSql = (b: FactBranches) =>
  factRead(
    b,
    `s.event_id, s.sequence, s.event_type, s.occurred_at, s.net_amount_minor::text as event_net, s.vat_amount_minor::text as event_vat,
  1 as n, s.net_amount_minor::text as net_sum, s.vat_amount_minor::text as vat_sum`,
    'where s.sequence > $9::bigint and ($10::text is null or s.country_of_consumption = $10::text) order by s.sequence',
  );

/**
 * The quarter's facts and the late windows' in one scan; when no earlier quarter is locked, its own alone (the
 * planner cannot drop a late branch that finds nothing).
 */
const GROUPS_SQL = groupsSql({ own: 'all', late: true });
const CURRENT_ONLY_SQL = groupsSql({ own: 'all', late: false });
const EVENTS_SQL = eventsSql({ own: 'all', late: true });
const CURRENT_EVENTS_SQL = eventsSql({ own: 'all', late: false });
/** The late windows' facts alone, for a return whose own quarter comes from the running totals. */
const LATE_ONLY_SQL = groupsSql({ own: 'none', late: true });
/**
 * The quarter's own b2b facts, from the scan: each needs its VIES evidence at its tax point (per event), which
 * day totals cannot carry; the partial index on b2b facts keeps this read small when totals serve the rest.
 */
const B2B_ONLY_SQL = groupsSql({ own: 'b2b', late: false });

/**
 * The quarter's own groups from the running totals (`union_oss_day_total`, kept by triggers as facts are
 * projected and reclassified): the same dispositions as the scan's current-quarter branch, from thousands of day
 * totals instead of every fact. Totals keep per-event amounts of non-EUR events only, so they serve EUR returns.
 * A disposition in another currency is one row whose `units` lists its day totals' per-event amounts and counts
 * ("net vat count" triples, space-separated): tens of thousands of distinct amounts cost one text column, not a
 * row each (fetched, parsed and keyed one by one, they were most of a return's time).
 */
const TOTALS_SQL = `
select false as late, width_bucket(t.day::timestamp at time zone 'UTC', $5::timestamptz[]) as seg, t.is_sale, t.classification_status, t.rate_category, t.supply_kind,
  t.customer_type, t.country_of_consumption, t.dispatch_country, t.supplier_establishment_country, t.source_id, t.vat_rate_bps, t.currency, t.link, t.original_period,
  null::text as unit_net, null::text as unit_vat, null::text as b2b_evidence_id,
  sum(t.event_count)::int as n, sum(t.net_sum)::text as net_sum, sum(t.vat_sum)::text as vat_sum,
  string_agg(t.unit_net::text || ' ' || t.unit_vat::text || ' ' || t.event_count::text, ' ') filter (where t.unit_net is not null and t.event_count <> 0) as units
from "${SCHEMA}".union_oss_day_total t
where t.account_id = $1 and t.day >= $2::date and t.day < $3::date and $4::text = 'EUR' and t.customer_type <> 'b2b'
group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
having sum(t.event_count) <> 0`;

/** The `units` column of a totals row: its "net vat count" triples. */
export function parseUnits(text: string): UnitAmounts[] {
  const parts = text.split(' ');
  if (parts.length % 3 !== 0) throw new Error('malformed per-event amounts in the running totals');
  const units: UnitAmounts[] = new Array(parts.length / 3);
  for (let i = 0, j = 0; i < parts.length; i += 3, j++) units[j] = { net: BigInt(parts[i]!), vat: BigInt(parts[i + 1]!), count: Number(parts[i + 2]) };
  return units;
}

/** One event of a scope with the group it forms alone. */
export type ScopedEvent = { key: string; eventId: string; sequence: bigint; eventType: string; occurredAt: Date; netAmountMinor: bigint; vatAmountMinor: bigint; group: FactGroup };

type EventRow = GroupRow & { event_id: string; sequence: string; event_type: string; occurred_at: Date | string; event_net: string; event_vat: string };

type GroupRow = {
  late: boolean;
  seg: number;
  is_sale: boolean;
  classification_status: string;
  rate_category: string;
  supply_kind: string;
  customer_type: string;
  country_of_consumption: string;
  dispatch_country: string | null;
  supplier_establishment_country: string | null;
  source_id: string | null;
  vat_rate_bps: number;
  currency: string;
  link: LinkStatus;
  original_period: string | null;
  unit_net: string | null;
  unit_vat: string | null;
  b2b_evidence_id: string | null;
  n: number;
  net_sum: string;
  vat_sum: string;
  /** Totals rows only: the per-event amounts of a disposition in another currency (`parseUnits`). */
  units?: string | null;
};

/** Rows per fetch: groups in large batches (few round trips; a group row is small), events by the page. */
const FETCH_GROUPS = 5000;
const FETCH_EVENTS = 500;

const ts = (date: string) => `${date}T00:00:00Z`;

/** The account's projection position as this transaction sees it; undefined before its first event. */
async function projectionPositionIn(client: pg.PoolClient, accountId: bigint): Promise<bigint | undefined> {
  const res = await client.query(`select applied::text as applied from "${SCHEMA}".supply_projection_position where account_id = $1`, [accountId.toString()]);
  return res.rows[0] ? BigInt(res.rows[0].applied as string) : undefined;
}

/** Reads of the service's own supply projection for Union OSS returns. */
export class UnionOssFactRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Every group of the scope, handed over in batches (the caller folds them; none is kept here). */
  async forEachGroup(scope: FactScope, onBatch: (groups: FactGroup[], keys: string[]) => void, opts: { totals?: boolean } = {}): Promise<void> {
    const { values, toGroup, boundaries } = this.#mapper(scope);
    const totalsValues = [scope.accountId.toString(), scope.start, scope.endExclusive, scope.returnCurrency, `{${boundaries.map(ts).join(',')}}`];
    const useTotals = opts.totals !== false && scope.returnCurrency === 'EUR';
    await this.#read(
      async (client) => {
        // The totals hold every projected fact: they answer a read up to a position only when the projection is exactly there (same snapshot).
        const exact = useTotals && (scope.upToSequence === null || (await projectionPositionIn(client, scope.accountId)) === scope.upToSequence);
        if (!exact) return [{ sql: scope.late.length > 0 ? GROUPS_SQL : CURRENT_ONLY_SQL, values }];
        return [{ sql: TOTALS_SQL, values: totalsValues }, { sql: B2B_ONLY_SQL, values }, ...(scope.late.length > 0 ? [{ sql: LATE_ONLY_SQL, values }] : [])];
      },
      (rows) => onBatch(rows.map(toGroup), rows.map(dispositionKeyOf)),
    );
  }

  /**
   * The scope's events one by one in ledger order after `afterSequence` (optionally of one consumption
   * State), each with the group it forms alone; `onBatch` answers false to stop reading.
   */
  async forEachEvent(scope: FactScope, afterSequence: bigint, memberState: string | null, onBatch: (events: ScopedEvent[]) => boolean): Promise<void> {
    const { values, toGroup } = this.#mapper(scope);
    let more = true;
    await this.#read<EventRow>(async () => [{ sql: scope.late.length > 0 ? EVENTS_SQL : CURRENT_EVENTS_SQL, values: [...values, afterSequence.toString(), memberState] }], (rows) => {
      if (!more) return false;
      more = onBatch(rows.map((r) => ({ key: dispositionKeyOf(r), eventId: r.event_id, sequence: BigInt(r.sequence), eventType: r.event_type, occurredAt: new Date(r.occurred_at), netAmountMinor: BigInt(r.event_net), vatAmountMinor: BigInt(r.event_vat), group: toGroup(r) })));
      return more;
    }, FETCH_EVENTS);
  }

  #mapper(scope: FactScope) {
    const windows = scope.late.map((w) => ({ start: ts(w.start), stop: ts(w.endExclusive), after_seq: w.afterSequence.toString(), up_to: w.upToSequence?.toString() ?? null }));
    const boundaries = boundariesOf(scope);
    const values = [scope.accountId.toString(), ts(scope.start), ts(scope.endExclusive), scope.upToSequence?.toString() ?? null, scope.returnCurrency, JSON.stringify(windows), `{${boundaries.map(ts).join(',')}}`, scope.vatEvidenceDays];
    // The windows by country, once per read (a return maps thousands of groups; the EU has hundreds of windows).
    const byCountry = <W extends { country: string }>(ws: readonly W[]) => ws.reduce((m, w) => m.set(w.country, [...(m.get(w.country) ?? []), w]), new Map<string, W[]>());
    const standardByCountry = byCountry(scope.standardRates);
    const inForceByCountry = scope.ratesInForce && byCountry(scope.ratesInForce);
    const standardOn = (country: string, day: string) => standardByCountry.get(country)?.find((r) => r.validFrom <= day && (r.validTo === null || day < r.validTo))?.rateBps;
    // A sale's rate is in force on its day; a correction carries its original's, in force on some day up to its own.
    const inForce = (r: GroupRow, day: string, type: string) =>
      inForceByCountry && (inForceByCountry.get(r.country_of_consumption) ?? []).some((w) => w.rateBps === r.vat_rate_bps && w.rateType === type && w.validFrom <= day && (!r.is_sale || w.validTo === null || day < w.validTo));
    const toGroup = (r: GroupRow): FactGroup => {
      // width_bucket: seg k covers [boundaries[k-1], boundaries[k]); every event lies within a quarter, so k >= 1.
      const day = boundaries[r.seg - 1]!;
      const standard = standardOn(r.country_of_consumption, day);
      const rateInForce = scope.ratesInForce === undefined ? undefined : inForce(r, day, r.rate_category) === true;
      return {
        late: r.late,
        ownPeriod: periodOfDate(day),
        eventType: r.is_sale ? 'sale' : 'correction',
        classificationStatus: r.classification_status,
        rateCategory: r.rate_category,
        supplyKind: r.supply_kind,
        customerType: r.customer_type,
        countryOfConsumption: r.country_of_consumption,
        dispatchCountry: r.dispatch_country,
        supplierEstablishmentCountry: r.supplier_establishment_country,
        sourceId: r.source_id,
        vatRateBps: r.vat_rate_bps,
        // A regional standard rate (Madeira 22 %) is a standard-rate row too.
        rateIsStandard: standard === undefined ? null : standard === r.vat_rate_bps || (r.rate_category === 'standard' && inForce(r, day, 'standard') === true),
        rateInForce,
        currency: r.currency,
        link: r.link,
        originalPeriod: r.original_period,
        count: r.n,
        netSum: BigInt(r.net_sum),
        vatSum: BigInt(r.vat_sum),
        unitNet: r.unit_net === null ? null : BigInt(r.unit_net),
        unitVat: r.unit_vat === null ? null : BigInt(r.unit_vat),
        ...(r.units != null && { units: parseUnits(r.units) }),
        b2bEvidenceId: r.b2b_evidence_id === null ? null : BigInt(r.b2b_evidence_id),
      };
    };
    return { values, toGroup, boundaries };
  }

  /**
   * One short read transaction (hash aggregation, no JIT compile: it costs more than it saves here); the grouped result is fetched through a cursor in batches that the caller folds
   * synchronously, so the transaction lasts the statement plus that pure computation.
   */
  async #read<R extends GroupRow = GroupRow>(statements: (client: pg.PoolClient) => Promise<{ sql: string; values: unknown[] }[]>, onRows: (rows: R[]) => boolean | void, fetchRows = FETCH_GROUPS): Promise<void> {
    await inTransaction(
      this.pool,
      async (client) => {
        // One snapshot for every statement (the totals and the position they reflect, the late events).
        await client.query('set transaction isolation level repeatable read');
        await client.query(`set local work_mem = '64MB'`);
        await client.query('set local jit = off');
        // The planner overestimates the groups (every dimension looks independent) and would sort the
        // whole quarter on disk; the real groups fit in memory, and a hash aggregate spills if not.
        await client.query('set local enable_sort = off');
        for (const [i, { sql, values }] of (await statements(client)).entries()) {
          await client.query(`declare union_oss_groups_${i} no scroll cursor for ${sql}`, values);
          for (;;) {
            const res = await client.query<R>(`fetch ${fetchRows} from union_oss_groups_${i}`);
            if (res.rows.length > 0 && onRows(res.rows) === false) return;
            if (res.rows.length < fetchRows) break;
          }
        }
      },
      { readOnly: true },
    );
  }
}
