import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOrm, migrate, ormPool, pendingMigrations } from '@vat/platform/db';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { endPool } from '../../../test/support/pools';
import { rateDocOf } from '../src/article59c/rate-docs';
import { thresholdsModule } from '../src/module';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('upgrading a thresholds database that kept a row of ECB evidence per event', () => {
  it('each distinct document is stored once and every fact names its own; the per-event table is gone', async () => {
    const db = await freshDatabase({ empty: true });
    const mod = thresholdsModule;
    const orm = await createOrm({ clientUrl: db.url, schema: mod.schema, entities: mod.entities, migrations: mod.migrations });
    try {
      const sql = (text: string, params: unknown[] = []) => orm.em.getConnection().execute(text, params);
      await sql(`create schema "${mod.schema}"`);
      await orm.migrator.up({ to: 'Migration20261128210000' });
      const fact = (seq: number, eventId: string) =>
        sql(
          `insert into thresholds.supply_fact (id, account_id, sequence, event_id, recorded_at, event_type, occurred_at, supply_kind, customer_type, country_of_consumption, currency,
             net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status)
           values (?, 77, ?, ?, now(), 'sale', '2026-03-02T00:00:00Z', 'goods', 'b2c', 'FR', 'PLN', 10000, 2000, 2000, 'standard', 'classified')`,
          [randomUUID(), seq, eventId],
        );
      for (const [i, id] of ['e-1', 'e-2', 'e-3', 'e-4'].entries()) await fact(i + 1, id);
      const feb = { PLN: '4.2173', SEK: '10.5935' };
      const mar = { PLN: '4.2865' };
      await sql(
        `insert into thresholds.article59c_rate_evidence (account_id, event_id, rate_date, rates) values
           (77, 'e-1', '2026-02-27', ?::jsonb), (77, 'e-2', '2026-02-27', ?::jsonb), (77, 'e-3', '2026-03-01', ?::jsonb)`,
        [JSON.stringify(feb), JSON.stringify(feb), JSON.stringify(mar)],
      );
      expect((await pendingMigrations(orm)).length).toBeGreaterThan(0);
      await migrate(orm, db.url, mod.schema);
      const pool = await ormPool(orm);
      const facts = (await pool.query(`select f.event_id, f.rate_doc, d.rate_date, d.rates from thresholds.supply_fact f left join thresholds.article59c_rate_doc d on d.digest = f.rate_doc order by f.event_id`)).rows;
      expect(facts.map(({ rate_doc: _digest, ...r }) => r)).toEqual([
        { event_id: 'e-1', rate_date: '2026-02-27', rates: feb },
        { event_id: 'e-2', rate_date: '2026-02-27', rates: feb },
        { event_id: 'e-3', rate_date: '2026-03-01', rates: mar },
        { event_id: 'e-4', rate_date: null, rates: null },
      ]);
      // The two events sharing February's rates name one document; the migration's names are SHA-256 of date and jsonb text.
      const jsonbText = (r: object) => Object.entries(r).map(([k, v]) => `"${k}": "${v}"`).join(', ');
      expect(facts[0]!.rate_doc).toBe(createHash('sha256').update(`2026-02-27\n{${jsonbText(feb)}}`).digest('hex'));
      expect(facts[1]!.rate_doc).toBe(facts[0]!.rate_doc);
      expect((await pool.query(`select count(*)::int as n from thresholds.article59c_rate_doc`)).rows).toEqual([{ n: 2 }]);
      expect((await pool.query(`select to_regclass('thresholds.article59c_rate_evidence') as t`)).rows).toEqual([{ t: null }]);
      // A document the projection stores later for the same rates is another name for equal content: both stand.
      expect(rateDocOf({ rateDate: '2026-02-27', ratesPerEur: feb })!.digest).not.toBe(facts[0]!.rate_doc);
    } finally {
      await endPool(await ormPool(orm), () => orm.close());
      await db.drop();
    }
  });
});
