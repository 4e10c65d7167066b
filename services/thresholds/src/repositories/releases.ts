import type pg from 'pg';
import { digestOf } from '@vat/platform/canonical-json';
import { readFileSync } from 'node:fs';
import { parseRelease, RELEASE_URL, ReleaseRejected, type ThresholdRelease } from '../article59c/release';

const RELEASES = '"thresholds".article59c_release';

/**
 * Stores a release only after it validates as a complete EU-27 snapshot, so a partial one never becomes
 * selectable. A version is immutable: the same version with other content is refused.
 */
export async function importRelease(pool: pg.Pool, raw: unknown, now: Date): Promise<ThresholdRelease> {
  const release = parseRelease(raw);
  const digest = digestOf(release.document);
  await pool.query(`insert into ${RELEASES} (version, digest, document, loaded_at) values ($1, $2, $3::jsonb, $4) on conflict (version) do nothing`, [
    release.version,
    digest,
    JSON.stringify(release.document),
    now,
  ]);
  const stored = await pool.query<{ digest: string }>(`select digest from ${RELEASES} where version = $1`, [release.version]);
  if (stored.rows[0]?.digest !== digest) throw new ReleaseRejected(`Article 59c release ${release.version} is already stored with other content; publish a new version`);
  return release;
}

export const seedArticle59cRelease = (pool: pg.Pool, now: Date) => importRelease(pool, JSON.parse(readFileSync(RELEASE_URL, 'utf8')), now);

/** The release in force (the newest stored), re-read at most every `recheckMs`. */
export class ReleaseStore {
  private cached: ThresholdRelease | undefined;
  private checkedAt = 0;

  constructor(private readonly pool: pg.Pool, private readonly recheckMs = 5000) {}

  /** A re-check under way: requests that find the cache stale together share it. */
  private checking: Promise<ThresholdRelease> | undefined;

  current(): Promise<ThresholdRelease> {
    if (this.cached && Date.now() - this.checkedAt < this.recheckMs) return Promise.resolve(this.cached);
    this.checking ??= this.recheck().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async recheck(): Promise<ThresholdRelease> {
    const latest = await this.pool.query<{ version: string }>(`select version from ${RELEASES} order by loaded_at desc, version desc limit 1`);
    const version = latest.rows[0]?.version;
    if (version === undefined) throw new Error('no Article 59c threshold release loaded');
    if (this.cached?.version !== version) {
      const full = await this.pool.query<{ document: unknown }>(`select document from ${RELEASES} where version = $1`, [version]);
      this.cached = parseRelease(full.rows[0]?.document);
    }
    this.checkedAt = Date.now();
    return this.cached;
  }
}
