import type pg from 'pg';
import { digestOf } from '@vat/platform/canonical-json';
import { currentSmeDigest, insertSmeRelease, smeDocument } from './repositories/sme-releases';
import { loadSmeThresholds, parseSmeDocument, type SmeThresholdRow } from './sme/data';

/**
 * Stores the shipped SME data once per content digest (one statement, safe when replicas start together)
 * and returns its digest and rows.
 */
export async function seedSmeThresholds(pool: pg.Pool, now: Date): Promise<{ digest: string; rows: SmeThresholdRow[] }> {
  const doc = loadSmeThresholds();
  const digest = digestOf(doc);
  await insertSmeRelease(pool, { digest, document: doc, rowCount: doc.rows.length, loadedAt: now });
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

  /** A re-check under way: requests that find the cache stale together share it. */
  private checking: Promise<SmeThresholdRow[]> | undefined;

  rows(): Promise<SmeThresholdRow[]> {
    if (this.cached && Date.now() - this.checkedAt < this.recheckMs) return Promise.resolve(this.cached.rows);
    this.checking ??= this.recheck().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async recheck(): Promise<SmeThresholdRow[]> {
    const digest = await currentSmeDigest(this.pool);
    if (digest === undefined) throw new Error('no SME threshold release loaded');
    if (this.cached?.digest !== digest) {
      const parsed = parseSmeDocument(await smeDocument(this.pool, digest));
      if (!parsed.ok) throw new Error('stored SME threshold release does not validate');
      this.cached = { digest, rows: parsed.document.rows };
    }
    this.checkedAt = Date.now();
    return this.cached.rows;
  }
}
