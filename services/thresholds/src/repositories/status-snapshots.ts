import type pg from 'pg';
import type { Article59cStatusRepository } from './article59c-status';

type Snapshot = Awaited<ReturnType<Article59cStatusRepository['snapshot']>>;

/**
 * The status snapshot (position, running totals summed over days, crossings) of an account, year pair
 * and cutoff day, kept in memory while the account's projection position row does not change.
 *
 * Sound because the thresholds projection changes running totals, pending corrections and crossings
 * only in a transaction that also changes the account's `supply_projection_position` row (or, for VIES
 * checks, its `vat_number_evidence_position` row): applying fresh
 * events advances `applied`, and every other counter a projection keeps there (for example the
 * classification decisions it applied) advances with its own changes. The whole row is the version
 * (`to_jsonb`, so a counter added later is covered without a change here), with the count of VIES checks
 * applied. The version is read before
 * the snapshot: a snapshot newer than its version only causes a miss, never a stale answer, because the
 * row only moves forward. A repeated status then costs one primary-key read instead of the aggregation
 * of the bucket rows (docs/thresholds.md, "Status snapshot reuse"). Each replica keeps its own entries, validated
 * against the shared database on every use; the least recently used are dropped beyond `max`.
 */
export class StatusSnapshots {
  readonly #entries = new Map<string, { version: string; snapshot: Snapshot }>();

  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly repo: Pick<Article59cStatusRepository, 'snapshot'>,
    private readonly max = 2000,
  ) {}

  async get(accountId: bigint, years: number[], cutoffDay: string): Promise<Snapshot> {
    const key = `${accountId}|${years.join(',')}|${cutoffDay}`;
    const res = await this.pool.query<{ v: string }>(
      `select coalesce((select to_jsonb(p)::text from "thresholds".supply_projection_position p where p.account_id = $1), '')
         || '|' || coalesce((select e.checks_applied::text from "thresholds".vat_number_evidence_position e where e.account_id = $1), '') as v`,
      [accountId.toString()],
    );
    const version = res.rows[0]!.v;
    const hit = this.#entries.get(key);
    this.#entries.delete(key);
    if (hit !== undefined && hit.version === version) {
      this.#entries.set(key, hit);
      return hit.snapshot;
    }
    const snapshot = await this.repo.snapshot(accountId, years, cutoffDay);
    this.#entries.set(key, { version, snapshot });
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
    return snapshot;
  }
}
