import type pg from 'pg';
import { EcbRateTable, type EcbPublicationDay } from '@vat/platform/fx';
import { ecbState, loadEcbTable, type EcbMarker } from '../repositories/ecb-rates';

/** The ECB table in memory, reloaded when a newer import is recorded (checked at most every `recheckMs`). */
export class FxStore {
  private table: EcbRateTable | undefined;
  private marker: EcbMarker = '';
  private checkedAt = 0;
  private loading: Promise<EcbRateTable> | undefined;

  constructor(private readonly pool: pg.Pool, private readonly recheckMs = 10_000) {}

  /**
   * Holds the days of the first import into an empty store, sparing a read back of the same rows; reads
   * everything instead if another import was recorded meanwhile.
   */
  async holdFirstImport(days: readonly EcbPublicationDay[]): Promise<EcbRateTable> {
    const { marker, imports } = await ecbState(this.pool);
    if (imports !== 1) return this.current();
    this.table = EcbRateTable.fromDays(days);
    this.marker = marker;
    this.checkedAt = Date.now();
    return this.table;
  }

  async current(): Promise<EcbRateTable> {
    if (this.table && Date.now() - this.checkedAt < this.recheckMs) return this.table;
    this.loading ??= this.reload().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async reload(): Promise<EcbRateTable> {
    if (!this.table || (await ecbState(this.pool)).marker !== this.marker) {
      const loaded = await loadEcbTable(this.pool);
      this.table = loaded.table;
      this.marker = loaded.marker;
    }
    this.checkedAt = Date.now();
    return this.table;
  }
}
