import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { IossFactRepository, IossVolumeExceeded } from '../src/repositories/ioss-facts';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('IOSS facts: the quarter read', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  let seq = 0;
  async function insert(accountId: number, eventId: string, occurredAt: string, over: { kind?: string; type?: string; original?: string; intrinsic?: bigint; origin?: string; excise?: boolean; currency?: string } = {}) {
    await pool.query(
      `insert into compliance_reports.supply_fact (id, account_id, sequence, event_id, recorded_at, event_type, original_event_id, occurred_at, supply_kind, customer_type,
         country_of_consumption, currency, net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status, intrinsic_value_eur_minor, third_country_origin, excise_goods)
       values ($1, $2, $3, $4, now(), $5, $6, $7, $8, 'b2c', 'FR', $9, 10000, 2000, 2000, 'standard', 'classified', $10, $11, $12)`,
      [randomUUID(), accountId, ++seq, eventId, over.type ?? 'sale', over.original ?? null, occurredAt, over.kind ?? 'imported_goods', over.currency ?? 'EUR', over.intrinsic?.toString() ?? null, over.origin ?? null, over.excise ?? null],
    );
  }
  beforeAll(async () => {
    db = await freshDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // account 1: a December original, three Q1 imported goods (one refund of December), a Q1 service, a Q2 import
    await insert(1, 'dec', '2025-12-31T23:59:59.999Z', { intrinsic: 9000n, origin: 'CN' });
    await insert(1, 'jan', '2026-01-01T00:00:00Z', { intrinsic: 15000n, origin: 'US', excise: false, currency: 'USD' });
    await insert(1, 'mar', '2026-03-31T23:59:59.999Z', { excise: true });
    await insert(1, 'ref', '2026-02-10T10:00:00Z', { type: 'refund', original: 'dec' });
    await insert(1, 'svc', '2026-02-11T10:00:00Z', { kind: 'services' });
    await insert(1, 'apr', '2026-04-01T00:00:00Z');
    // account 2: same event id as account 1's original, and a Q1 import
    await insert(2, 'dec', '2025-12-15T10:00:00Z', { intrinsic: 1n });
    await insert(2, 'b-jan', '2026-01-05T10:00:00Z');
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it("reads only the account's imported goods of the quarter (UTC bounds) and the originals their corrections name", async () => {
    const { facts, originals } = await new IossFactRepository(pool).quarter(1n, '2026-01-01', '2026-04-01');
    expect(facts.map((f) => f.eventId)).toEqual(['jan', 'mar', 'ref']);
    const jan = facts[0]!;
    expect(jan).toMatchObject({ currency: 'USD', intrinsicValueEurMinor: 15000n, thirdCountryOrigin: 'US', exciseGoods: false, netAmountMinor: 10000n, vatAmountMinor: 2000n, supplyKind: 'imported_goods' });
    expect(jan.occurredAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(facts[1]!.occurredAt.toISOString()).toBe('2026-03-31T23:59:59.999Z');
    expect(facts[1]!.exciseGoods).toBe(true);
    expect(facts[2]).toMatchObject({ eventType: 'refund', originalEventId: 'dec', intrinsicValueEurMinor: null, thirdCountryOrigin: null });
    // the original is account 1's (intrinsic 9000), never account 2's event of the same id
    expect([...originals.keys()]).toEqual(['dec']);
    expect(originals.get('dec')).toMatchObject({ intrinsicValueEurMinor: 9000n, thirdCountryOrigin: 'CN' });
    expect(originals.get('dec')!.occurredAt.toISOString()).toBe('2025-12-31T23:59:59.999Z');
    const other = await new IossFactRepository(pool).quarter(2n, '2026-01-01', '2026-04-01');
    expect(other.facts.map((f) => f.eventId)).toEqual(['b-jan']);
    expect(other.originals.size).toBe(0);
  });

  it('fails closed above the bound instead of reading part of a quarter', async () => {
    await expect(new IossFactRepository(pool, 2).quarter(1n, '2026-01-01', '2026-04-01')).rejects.toBeInstanceOf(IossVolumeExceeded);
    expect((await new IossFactRepository(pool, 3).quarter(1n, '2026-01-01', '2026-04-01')).facts).toHaveLength(3);
  });
});
