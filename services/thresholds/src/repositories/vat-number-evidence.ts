import type pg from 'pg';
import { freshEvents } from '@vat/platform/inbox';
import type { VatNumberEvidence } from '../article59c/classify';
import type { RawFacts } from '../article59c/facts';

const S = '"thresholds"';
type Db = Pick<pg.PoolClient, 'query'>;

/** A check as `VatNumberChecked` reports it (the message id is the inbox key). */
export type CheckedEvent = { id: string; accountId: bigint; checkId: bigint; vatNumberDigest: string; result: string; checkedAt: string };

/**
 * The VIES evidence of a `b2b` fact at its tax point, as SQL over the fact's account, digest and tax point:
 * `valid` when the newest definitive check (`valid` or `invalid`; ties by check id) of its number made on the
 * tax point's UTC day or in the `days` days before it said valid, else `missing`. The rule compliance-reports
 * applies to the Union OSS return (`union-oss-facts.ts`, docs/vat-numbers.md#union-oss-scope), over the checks
 * thresholds has applied; a function of the set of checks and never of the order in which they arrived.
 */
export const evidenceSql = (account: string, digest: string, occurredAt: string, days: string) => `coalesce((
  select case when c.result = 'valid' then 'valid' end from ${S}.vat_number_evidence c
   where c.account_id = ${account} and c.vat_number_digest = ${digest}
     and c.checked_at >= date_trunc('day', ${occurredAt}, 'UTC') - make_interval(days => ${days})
     and c.checked_at < date_trunc('day', ${occurredAt}, 'UTC') + interval '1 day'
   order by c.checked_at desc, c.check_id desc limit 1), 'missing')`;

/** A projected fact's evidence as the running totals last counted it, as a column of `alias` (`b2b` facts only). */
export const evidenceColumn = (alias: string) =>
  `case when ${alias}.customer_type = 'b2b' then (select e.evidence from ${S}.article59c_b2b_fact e where e.fact_id = ${alias}.id) end as vat_number_evidence`;

/**
 * Records the fresh `b2b` facts of one account with their evidence evaluated from the checks applied so far
 * (in the caller's transaction, under the account's lock). Answers fact id → evidence.
 */
export async function registerB2bFacts(db: Db, accountId: string, raws: readonly RawFacts[], days: number): Promise<Map<string, VatNumberEvidence>> {
  const b2b = raws.filter((r) => r.customerType === 'b2b');
  if (b2b.length === 0) return new Map();
  const res = await db.query(
    `insert into ${S}.article59c_b2b_fact (fact_id, account_id, vat_number_digest, occurred_at, evidence)
     select r.fact_id, $1::bigint, r.digest, r.occurred_at, ${evidenceSql('$1::bigint', 'r.digest', 'r.occurred_at', '$3::int')}
       from json_to_recordset($2::json) as r(fact_id uuid, digest text, occurred_at timestamptz)
     on conflict (fact_id) do update set evidence = ${S}.article59c_b2b_fact.evidence
     returning fact_id::text as fact_id, evidence`,
    [accountId, JSON.stringify(b2b.map((r) => ({ fact_id: r.factId, digest: r.vatNumberDigest ?? null, occurred_at: r.occurredAt }))), days],
  );
  return new Map(res.rows.map((r: { fact_id: string; evidence: VatNumberEvidence }) => [r.fact_id, r.evidence]));
}

/**
 * The inbox step and the store of a batch of checks (in the caller's transaction): the definitive ones among the
 * ids never applied before are kept (an `unavailable` or `format_invalid` answer is evidence of nothing), and each
 * account's applied count moves on (the status snapshot's version). Answers the fresh definitive checks.
 */
export async function storeChecks(db: Db, durable: string, checks: readonly CheckedEvent[]): Promise<CheckedEvent[]> {
  if (checks.length === 0) return [];
  const inbox = await db.query(`with ${freshEvents('thresholds')} select event_id from fresh`, [checks.map((c) => c.id), durable]);
  const freshIds = new Set(inbox.rows.map((r: { event_id: string }) => r.event_id));
  const seen = new Set<string>();
  const fresh = checks.filter((c) => freshIds.has(c.id) && !seen.has(c.id) && seen.add(c.id));
  if (fresh.length === 0) return [];
  const definitive = fresh.filter((c) => c.result === 'valid' || c.result === 'invalid');
  if (definitive.length > 0) {
    await db.query(
      `insert into ${S}.vat_number_evidence (account_id, check_id, vat_number_digest, result, checked_at)
       select * from json_to_recordset($1::json) as r(account_id bigint, check_id bigint, vat_number_digest text, result text, checked_at timestamptz)
       on conflict do nothing`,
      [JSON.stringify(definitive.map((c) => ({ account_id: c.accountId.toString(), check_id: c.checkId.toString(), vat_number_digest: c.vatNumberDigest, result: c.result, checked_at: c.checkedAt })))],
    );
  }
  const counts = new Map<string, number>();
  for (const c of fresh) counts.set(c.accountId.toString(), (counts.get(c.accountId.toString()) ?? 0) + 1);
  await db.query(
    `insert into ${S}.vat_number_evidence_position (account_id, checks_applied)
     select * from json_to_recordset($1::json) as r(account_id bigint, n bigint)
     on conflict (account_id) do update set checks_applied = ${S}.vat_number_evidence_position.checks_applied + excluded.checks_applied`,
    [JSON.stringify([...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([account_id, n]) => ({ account_id, n })))],
  );
  return definitive;
}

/**
 * The account's `b2b` facts whose evidence the new checks change: those of the checks' numbers with a tax point
 * from the check's UTC day to `days` days after it (the facts whose evidence window holds the check), evaluated
 * again over every check applied. Their evidence is updated to the new value (in the caller's transaction);
 * each row has the fact's columns (`columns`, aliased `f`, without its evidence), the evidence it was counted
 * under (`vat_number_evidence`) and the new one.
 */
export async function reevaluateB2bFacts(db: Db, accountId: string, checks: readonly CheckedEvent[], days: number, columns: string): Promise<{ row: Record<string, any>; after: VatNumberEvidence }[]> {
  if (checks.length === 0) return [];
  const day = (t: string) => new Date(t).toISOString().slice(0, 10);
  const windows = [...new Map(checks.map((c) => [`${c.vatNumberDigest}|${day(c.checkedAt)}`, { digest: c.vatNumberDigest, day: day(c.checkedAt) }])).values()];
  const res = await db.query(
    `with changed as (
       select b.fact_id, ${evidenceSql('b.account_id', 'b.vat_number_digest', 'b.occurred_at', '$3::int')} as after, b.evidence as before
         from ${S}.article59c_b2b_fact b
        where b.account_id = $1 and exists (
          select 1 from json_to_recordset($2::json) as w(digest text, day date)
           where b.vat_number_digest = w.digest and b.occurred_at >= w.day::timestamp at time zone 'UTC'
             and b.occurred_at < (w.day + $3::int + 1)::timestamp at time zone 'UTC')),
     moved as (
       update ${S}.article59c_b2b_fact b set evidence = c.after from changed c
        where b.fact_id = c.fact_id and c.after <> c.before returning b.fact_id, c.after)
     select m.after, ${columns}, c.before as vat_number_evidence
       from moved m join changed c on c.fact_id = m.fact_id join ${S}.supply_fact f on f.id = m.fact_id order by f.sequence`,
    [accountId, JSON.stringify(windows), days],
  );
  return res.rows.map((r: Record<string, any>) => ({ row: r, after: r.after as VatNumberEvidence }));
}
