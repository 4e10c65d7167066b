import pg from 'pg';
import { EcbRateTable } from '@vat/platform/fx';
import { ecbRateSelectSql } from '@vat/seeds/ecb';
import { ECB_SCHEMA } from './ecb-import';

/** The ECB table in memory, reloaded when a newer import is recorded (checked at most every `recheckMs`). */
export class FxStore {
  private table: EcbRateTable | undefined;
  private marker = '';
  private checkedAt = 0;
  private loading: Promise<EcbRateTable> | undefined;

  constructor(private readonly databaseUrl: string, private readonly recheckMs = 10_000) {}

  async current(): Promise<EcbRateTable> {
    if (this.table && Date.now() - this.checkedAt < this.recheckMs) return this.table;
    this.loading ??= this.reload().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async reload(): Promise<EcbRateTable> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      const m = await client.query(`select coalesce(max(id), 0)::text as id, count(*)::text as n from ${ECB_SCHEMA}.reference_release where kind = 'ecb'`);
      const marker = `${m.rows[0].id}:${m.rows[0].n}`;
      if (!this.table || marker !== this.marker) {
        const res = await client.query(ecbRateSelectSql(ECB_SCHEMA));
        this.table = EcbRateTable.fromDbRows(res.rows);
        this.marker = marker;
      }
      this.checkedAt = Date.now();
      return this.table;
    } finally {
      await client.end();
    }
  }
}
