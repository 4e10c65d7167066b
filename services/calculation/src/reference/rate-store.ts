import type pg from 'pg';
import { latestRateRelease, rateWindowsOf, regionalRateWindowsOf, storedTaxClasses, type RateRelease, type RateWindow, type RegionalRateWindow, type TaxClassRecord } from '../repositories/rate-releases';

/** v1 serves a window as a plain number only when it is unconditional and backed by a cited source. */
export function servableByV1(w: RateWindow): boolean {
  return !w.conditional && w.reviewStatus === 'source_cited';
}

/** One immutable view of the current reference release, indexed for lookups. */
export class RateSnapshot {
  private readonly byKey = new Map<string, RateWindow[]>();
  readonly classById: Map<string, TaxClassRecord>;

  constructor(readonly release: RateRelease, readonly classes: TaxClassRecord[], readonly windows: RateWindow[], readonly regional: RegionalRateWindow[] = []) {
    this.classById = new Map(classes.map((c) => [c.id, c]));
    for (const w of windows) {
      const key = `${w.country}:${w.taxClassId}`;
      const list = this.byKey.get(key) ?? [];
      list.push(w);
      this.byKey.set(key, list);
    }
    for (const list of this.byKey.values()) list.sort((a, b) => a.validFrom.localeCompare(b.validFrom));
  }

  /** The window in force for (country, class) on a UTC date; undefined means fail closed. */
  windowAt(country: string, taxClassId: string, date: string): RateWindow | undefined {
    return this.byKey.get(`${country}:${taxClassId}`)?.find((w) => w.validFrom <= date && (w.validTo === null || date < w.validTo));
  }

  history(country: string, taxClassId: string): RateWindow[] {
    return this.byKey.get(`${country}:${taxClassId}`) ?? [];
  }

  tags(): Set<string> {
    return new Set(this.classes.flatMap((c) => c.tags));
  }

  groups(): Set<string> {
    return new Set(this.classes.map((c) => c.groupSlug));
  }
}

/**
 * Serves the latest loaded rate release from memory. It re-checks which release is current at most
 * every `recheckMs`, so a newly seeded or approved release is picked up without a restart.
 */
export class RateStore {
  private snapshot: RateSnapshot | undefined;
  private checkedAt = 0;
  private refreshing: Promise<RateSnapshot> | undefined;

  constructor(private readonly pool: pg.Pool, private readonly recheckMs = 5000) {}

  async current(): Promise<RateSnapshot> {
    if (this.snapshot && Date.now() - this.checkedAt < this.recheckMs) return this.snapshot;
    this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    if (this.snapshot) {
      void this.refreshing.catch(() => undefined);
      return this.snapshot;
    }
    return this.refreshing;
  }

  /** Forces a reload (used after seeding or approval in the same process). */
  async refresh(): Promise<RateSnapshot> {
    const latest = await latestRateRelease(this.pool);
    if (!latest) throw new Error('no VAT rate release loaded');
    const same = this.snapshot?.release.id === latest.id && this.snapshot.release.approvedAt?.getTime() === latest.approvedAt?.getTime();
    if (!same) this.snapshot = new RateSnapshot(latest, await storedTaxClasses(this.pool), await rateWindowsOf(this.pool, latest.id), await regionalRateWindowsOf(this.pool, latest.id));
    this.checkedAt = Date.now();
    return this.snapshot!;
  }
}
