import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import type { FactGroup } from '../src/domain/union-oss-return';
import { parseUnits, UnionOssFactRepository, type FactScope, type StandardRateWindow } from '../src/repositories/union-oss-facts';

const backends = await requireBackends(['postgres']);

const STANDARD: StandardRateWindow[] = [
  { country: 'FR', validFrom: '2019-01-01', validTo: '2026-02-15', rateBps: 2000 },
  { country: 'FR', validFrom: '2026-02-15', validTo: null, rateBps: 2100 },
  { country: 'AT', validFrom: '2019-01-01', validTo: null, rateBps: 2000 },
];

const eventArb = fc.record({
  type: fc.constantFrom('sale', 'sale', 'refund', 'credit_note'),
  /** A correction names an earlier event, a later one (its original arrives after it) or none at all. */
  target: fc.integer({ min: -8, max: 40 }),
  day: fc.integer({ min: 0, max: 200 }).map((d) => new Date(Date.UTC(2025, 11, 1) + d * 86_400_000).toISOString().slice(0, 10)),
  kind: fc.constantFrom('services', 'goods', 'imported_goods'),
  country: fc.constantFrom('FR', 'AT', 'FR'),
  origin: fc.constantFrom('DE', 'PL', null),
  source: fc.constantFrom(null, 'shop-1'),
  currency: fc.constantFrom('EUR', 'EUR', 'USD'),
  net: fc.integer({ min: 1, max: 99_999 }),
  bps: fc.constantFrom(2000, 2100, 1000),
  status: fc.constantFrom('classified', 'classified', 'needs_review', 'unclassified'),
});

/** A decision (or any other change) applied to the n-th fact after some batch: its classification, rate class or amounts. */
const changeArb = fc.record({
  after: fc.nat({ max: 10 }),
  fact: fc.nat(),
  status: fc.constantFrom('classified', 'needs_review', 'unclassified'),
  category: fc.constantFrom('standard', 'reduced', 'zero'),
});

const key = (g: FactGroup) => JSON.stringify(g, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

describe('the per-event amounts of a totals row (parseUnits)', () => {
  it('reads back every list of "net vat count" triples it is given, and refuses a list that is not triples', () => {
    const unitArb = fc.record({ net: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), vat: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), count: fc.integer({ min: 0, max: 2 ** 31 }) });
    fc.assert(
      fc.property(fc.array(unitArb, { minLength: 1, maxLength: 40 }), (units) => {
        const text = units.map((u) => `${u.net} ${u.vat} ${u.count}`).join(' ');
        expect(parseUnits(text)).toEqual(units);
        expect(() => parseUnits(`${text} 1`)).toThrow(/malformed/);
      }),
    );
  });
});

describe.skipIf(!backends.ok)('Union OSS running totals', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  let repo: UnionOssFactRepository;
  let account = 5000;
  /** One classified b2c services sale from DE at 20 % (VAT = net / 5). */
  const sale = (accountId: number, f: { sequence: number; net: number; day?: string; currency?: string; country?: string }) =>
    pool.query(
      `insert into compliance_reports.supply_fact (id, account_id, sequence, event_id, recorded_at, event_type, occurred_at, supply_kind, customer_type, country_of_consumption,
         supplier_establishment_country, currency, net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status)
       values ($1, $2, $3, $4, now(), 'sale', $5, 'services', 'b2c', $6, 'DE', $7, $8, $9, 2000, 'standard', 'classified')`,
      [randomUUID(), accountId, f.sequence, `s${f.sequence}`, `${f.day ?? '2026-01-10'}T10:00:00Z`, f.country ?? 'FR', f.currency ?? 'EUR', f.net, f.net / 5],
    );
  /** Totals rows that carried several per-event amounts. */
  const multiUnit = { rows: 0 };
  beforeAll(async () => {
    db = await freshDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    repo = new UnionOssFactRepository(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  async function groups(scope: FactScope, totals: boolean): Promise<string[]> {
    const out: FactGroup[] = [];
    await repo.forEachGroup(scope, (gs) => out.push(...gs), { totals });
    // A totals row lists a disposition's per-event amounts in another currency (`units`): each amount is
    // compared as the group of its own that the scan returns, and together they make up the row's totals.
    const expanded = out.flatMap((g) => {
      if (!g.units) return [g];
      expect(g.unitNet === null && g.unitVat === null && g.units.length > 0).toBe(true);
      expect([g.units.reduce((s, u) => s + u.count, 0), g.units.reduce((s, u) => s + u.net * BigInt(u.count), 0n), g.units.reduce((s, u) => s + u.vat * BigInt(u.count), 0n)]).toEqual([g.count, g.netSum, g.vatSum]);
      return g.units.map(({ net, vat, count }): FactGroup => {
        const { units: _units, ...rest } = g;
        return { ...rest, unitNet: net, unitVat: vat, count, netSum: net * BigInt(count), vatSum: vat * BigInt(count) };
      });
    });
    if (totals) multiUnit.rows += out.filter((g) => g.units && g.units.length > 1).length;
    // The same groups may arrive split differently; compare them merged per key.
    const merged = new Map<string, FactGroup>();
    for (const g of expanded) {
      const k = key({ ...g, count: 0, netSum: 0n, vatSum: 0n });
      const m = merged.get(k);
      if (m) Object.assign(m, { count: m.count + g.count, netSum: m.netSum + g.netSum, vatSum: m.vatSum + g.vatSum });
      else merged.set(k, { ...g });
    }
    return [...merged.values()].map(key).sort();
  }

  it('equal the scan of the facts for random event streams in batches, with corrections before and after their originals and reclassifications', async () => {
    const seen = { corrections: 0, relinked: 0, changed: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 50 }), fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }), fc.array(changeArb, { maxLength: 8 }), async (events, sizes, changes) => {
        const accountId = ++account;
        const rows = events.map((e, i) => ({
          id: randomUUID(),
          account_id: accountId,
          sequence: i + 1,
          event_id: `e${i + 1}`,
          event_type: e.type,
          original_event_id: e.type === 'sale' ? null : e.target < 0 ? `none-${i}` : `e${e.target + 1}`,
          occurred_at: `${e.day}T${String(i % 24).padStart(2, '0')}:30:00Z`,
          supply_kind: e.kind,
          customer_type: 'b2c',
          country_of_consumption: e.country,
          dispatch_country: e.kind === 'goods' ? e.origin : null,
          supplier_establishment_country: e.kind === 'services' ? e.origin : null,
          source_id: e.source,
          currency: e.currency,
          net_amount_minor: e.type === 'sale' ? e.net : -e.net,
          vat_amount_minor: Math.trunc(((e.type === 'sale' ? e.net : -e.net) * e.bps) / 10000),
          vat_rate_bps: e.bps,
          rate_category: 'standard',
          classification_status: e.status,
        }));
        seen.corrections += rows.filter((r) => r.event_type !== 'sale').length;
        seen.relinked += rows.filter((r, i) => r.event_type !== 'sale' && events[i]!.target > i).length;
        // Projected in batches of random sizes (one statement each), reclassified between batches.
        let at = 0;
        for (let b = 0; at < rows.length; b++) {
          const batch = rows.slice(at, (at += sizes[b % sizes.length]!));
          await pool.query(
            `insert into compliance_reports.supply_fact (id, account_id, sequence, event_id, recorded_at, event_type, original_event_id, occurred_at, supply_kind, customer_type,
               country_of_consumption, dispatch_country, supplier_establishment_country, source_id, currency, net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status)
             select id, account_id, sequence, event_id, now(), event_type, original_event_id, occurred_at, supply_kind, customer_type, country_of_consumption, dispatch_country,
               supplier_establishment_country, source_id, currency, net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status
             from jsonb_to_recordset($1::jsonb) as r(id uuid, account_id bigint, sequence bigint, event_id text, event_type text, original_event_id text, occurred_at timestamptz,
               supply_kind text, customer_type text, country_of_consumption text, dispatch_country text, supplier_establishment_country text, source_id text, currency text,
               net_amount_minor bigint, vat_amount_minor bigint, vat_rate_bps int, rate_category text, classification_status text)`,
            [JSON.stringify(batch)],
          );
          for (const c of changes.filter((c) => c.after === b)) {
            const target = rows[c.fact % Math.min(at, rows.length)]!;
            const res = await pool.query(`update compliance_reports.supply_fact set classification_status = $2, rate_category = $3, decision_generation = decision_generation + 1 where id = $1`, [target.id, c.status, c.category]);
            seen.changed += res.rowCount ?? 0;
          }
        }
        for (const quarter of [
          { start: '2025-10-01', endExclusive: '2026-01-01' },
          { start: '2026-01-01', endExclusive: '2026-04-01' },
          { start: '2026-04-01', endExclusive: '2026-07-01' },
        ]) {
          const scope: FactScope = { accountId: BigInt(accountId), ...quarter, upToSequence: null, late: [], returnCurrency: 'EUR', standardRates: STANDARD, vatEvidenceDays: 30 };
          expect(await groups(scope, true)).toEqual(await groups(scope, false));
        }
        // The applied decision generations a lock checks, per quarter: the totals' sum is the facts'.
        const gens = await pool.query(
          `select coalesce((select sum(decision_generation_sum) from compliance_reports.union_oss_day_total where account_id = $1), 0)::text as totals,
                  coalesce((select sum(decision_generation) from compliance_reports.supply_fact where account_id = $1), 0)::text as facts`,
          [accountId],
        );
        expect(gens.rows[0].totals).toBe(gens.rows[0].facts);
      }),
      { numRuns: 60 },
    );
    // The runs exercised what the totals must follow (not a vacuous pass).
    expect(seen.corrections).toBeGreaterThan(50);
    expect(seen.relinked).toBeGreaterThan(5);
    expect(seen.changed).toBeGreaterThan(20);
  }, 300_000);

  it('a disposition in another currency is one totals row listing its per-event amounts, equal to the groups of the scan', async () => {
    const accountId = ++account;
    // Three USD sales of one disposition (two of 10.00 on 5 January, one of 10.01 on 1 February) and a EUR one.
    await sale(accountId, { sequence: 1, day: '2026-01-05', currency: 'USD', net: 1000, country: 'AT' });
    await sale(accountId, { sequence: 2, day: '2026-01-05', currency: 'USD', net: 1000, country: 'AT' });
    await sale(accountId, { sequence: 3, day: '2026-02-01', currency: 'USD', net: 1005, country: 'AT' });
    await sale(accountId, { sequence: 4, day: '2026-02-01', currency: 'EUR', net: 5000, country: 'AT' });
    const scope: FactScope = { accountId: BigInt(accountId), start: '2026-01-01', endExclusive: '2026-04-01', upToSequence: null, late: [], returnCurrency: 'EUR', standardRates: STANDARD, vatEvidenceDays: 30 };
    const out: FactGroup[] = [];
    await repo.forEachGroup(scope, (gs) => out.push(...gs));
    const usd = out.filter((g) => g.currency === 'USD');
    expect(usd).toHaveLength(1);
    expect(usd[0]).toMatchObject({ count: 3, netSum: 3005n, vatSum: 601n, unitNet: null, unitVat: null });
    expect([...usd[0]!.units!].sort((a, b) => Number(a.net - b.net))).toEqual([{ net: 1000n, vat: 200n, count: 2 }, { net: 1005n, vat: 201n, count: 1 }]);
    expect(out.filter((g) => g.currency === 'EUR').map((g) => [g.count, g.netSum, g.units])).toEqual([[1, 5000n, undefined]]);
    expect(await groups(scope, true)).toEqual(await groups(scope, false));
    expect(multiUnit.rows).toBeGreaterThan(0);
  });

  it('a locked read up to a position the projection has passed is answered by the scan, not the totals', async () => {
    const accountId = ++account;
    await sale(accountId, { sequence: 1, net: 1000 });
    await sale(accountId, { sequence: 2, net: 3000 });
    await pool.query('insert into compliance_reports.supply_projection_position (account_id, applied) values ($1, 2)', [accountId]);
    const scope = (upTo: bigint): FactScope => ({ accountId: BigInt(accountId), start: '2026-01-01', endExclusive: '2026-04-01', upToSequence: upTo, late: [], returnCurrency: 'EUR', standardRates: STANDARD, vatEvidenceDays: 30 });
    const sums = async (upTo: bigint) => {
      const out: FactGroup[] = [];
      await repo.forEachGroup(scope(upTo), (gs) => out.push(...gs));
      return out.map((g) => [g.count, g.netSum]);
    };
    // at the projection's position: the totals (1,000 + 3,000); before it: only the first sale
    expect(await sums(2n)).toEqual([[2, 4000n]]);
    expect(await sums(1n)).toEqual([[1, 1000n]]);
  });
});
