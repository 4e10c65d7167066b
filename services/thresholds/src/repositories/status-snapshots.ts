import type { Bucket } from '../article59c/summarize';
import type { StoredCrossing } from '../article59c/status';
import type { Article59cRepository } from './article59c';

export type Snapshot = { position: bigint; buckets: Bucket[]; crossings: StoredCrossing[] };

/**
 * The status snapshot (position, running totals summed over days, crossings) of an account, year pair
 * and cutoff day, kept in memory while the account's projection position does not move.
 *
 * Sound because the thresholds projection changes running totals, pending corrections and crossings
 * only in the transaction that applies fresh events, and that transaction always advances the
 * position (by the number of facts it inserted): an unchanged position means an unchanged snapshot.
 * So a repeated status costs one primary-key read of the position instead of the aggregation of the
 * bucket rows (README "Article 59c threshold status"). Each replica keeps its own entries, each
 * validated against the shared database on every use; the least recently used are dropped beyond `max`.
 */
export class StatusSnapshots {
  readonly #entries = new Map<string, Snapshot>();

  constructor(
    private readonly repo: Pick<Article59cRepository, 'position' | 'snapshot'>,
    private readonly max = 2000,
  ) {}

  async get(accountId: bigint, years: number[], cutoffDay: string): Promise<Snapshot> {
    const key = `${accountId}|${years.join(',')}|${cutoffDay}`;
    const hit = this.#entries.get(key);
    if (hit !== undefined && (await this.repo.position(accountId)) === hit.position) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const fresh = await this.repo.snapshot(accountId, years, cutoffDay);
    this.#entries.delete(key);
    this.#entries.set(key, fresh);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
    return fresh;
  }
}
