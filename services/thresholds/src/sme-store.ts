import type pg from 'pg';
import { digestOf } from '@vat/platform/canonical-json';
import { loadSmeThresholds, parseSmeDocument, type SmeThresholdRow } from './sme/data';

const RELEASES = '"thresholds".sme_threshold_release';

/**
 * Stores the shipped SME data once per content digest (one statement, safe when replicas start together)
 * and returns its digest and rows.
 */
export async function seedSmeThresholds(pool: pg.Pool, now: Date): Promise<{ digest: string; rows: SmeThresholdRow[] }> {
  const doc = loadSmeThresholds();
  const digest = digestOf(doc);
  await pool.query(
    `insert into ${RELEASES} (digest, document, row_count, loaded_at) values ($1, $2::jsonb, $3, $4) on conflict (digest) do nothing`,
    [digest, JSON.stringify(doc), doc.rows.length, now],
  );
  return { digest, rows: doc.rows };
}

/**
 * Serves the most recently loaded release from memory, parsed once per digest. It re-checks which release is
 * current at most every `recheckMs` (one indexed query), so a newly loaded release is picked up without a restart.
 */
export class SmeThresholdStore {
  private cached: { digest: string; rows: SmeThresholdRow[] } | undefined;
  private checkedAt = 0;

  constructor(private readonly pool: pg.Pool, private readonly recheckMs = 5000) {}

  /** Holds rows the caller just stored under `digest` (the seed), sparing a read of the document. */
  remember(digest: string, rows: SmeThresholdRow[]): void {
    this.cached = { digest, rows };
  }

  async rows(): Promise<SmeThresholdRow[]> {
    if (this.cached && Date.now() - this.checkedAt < this.recheckMs) return this.cached.rows;
    const latest = await this.pool.query<{ digest: string }>(`select digest from ${RELEASES} order by loaded_at desc limit 1`);
    const digest = latest.rows[0]?.digest;
    if (digest === undefined) throw new Error('no SME threshold release loaded');
    if (this.cached?.digest !== digest) {
      const full = await this.pool.query<{ document: unknown }>(`select document from ${RELEASES} where digest = $1`, [digest]);
      const parsed = parseSmeDocument(full.rows[0]?.document);
      if (!parsed.ok) throw new Error('stored SME threshold release does not validate');
      this.cached = { digest, rows: parsed.document.rows };
    }
    this.checkedAt = Date.now();
    return this.cached.rows;
  }
}
