import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ecbRate, EUR, type RateOrEur } from '@vat/platform/fx';
import { freshDatabase, requireBackends } from '../../../test/support/env';
import { periodOfDate, UnionOssReturnBuilder, type FactGroup, type LinkStatus } from '../src/domain/union-oss-return';
import { UnionOssFactRepository, type FactScope, type StandardRateWindow } from '../src/repositories/union-oss-facts';
import type { LockedPeriodRecord } from '../src/repositories/union-oss-locks';
import { lateWindowsFor } from '../src/union-oss-report';
import { buildUnionOssReturn } from './union-oss-return-of';

const backends = await requireBackends(['postgres']);

/** FR's standard rate changes inside the quarter, so a group must never span that day. */
const STANDARD: StandardRateWindow[] = [
  { country: 'FR', validFrom: '2019-01-01', validTo: '2026-02-15', rateBps: 2000 },
  { country: 'FR', validFrom: '2026-02-15', validTo: null, rateBps: 2100 },
  { country: 'AT', validFrom: '2019-01-01', validTo: null, rateBps: 2000 },
  { country: 'DE', validFrom: '2019-01-01', validTo: null, rateBps: 1900 },
];
const RATES: Record<string, string> = { 'USD|2026-Q1': '1.1498', 'USD|2025-Q4': '1.175', 'PLN|2026-Q1': '4.289', 'PLN|2025-Q4': '4.221' };
const rate = (currency: string, period: string): RateOrEur | undefined =>
  currency === EUR ? EUR : RATES[`${currency}|${period}`] ? ecbRate(currency, '2026-03-31', RATES[`${currency}|${period}`]!) : undefined;

type Fact = {
  sequence: number;
  eventId: string;
  eventType: string;
  originalEventId: string | null;
  occurredAt: string;
  supplyKind: string;
  country: string;
  dispatch: string | null;
  establishment: string | null;
  currency: string;
  net: bigint;
  vat: bigint;
  bps: number;
  status: string;
};

const day = fc.integer({ min: 0, max: 180 }).map((d) => new Date(Date.UTC(2025, 9, 1) + d * 86_400_000).toISOString().slice(0, 10));
const factArb = fc.record({
  type: fc.constantFrom('sale', 'sale', 'refund', 'credit_note', 'adjustment'),
  original: fc.nat({ max: 60 }),
  day,
  kind: fc.constantFrom('services', 'goods'),
  country: fc.constantFrom('FR', 'AT', 'FR', 'DE'),
  origin: fc.constantFrom('DE', 'PL', 'DE', null),
  currency: fc.constantFrom('EUR', 'EUR', 'USD', 'PLN'),
  net: fc.constantFrom(1n, 99n, 1001n, 12345n, 999_999_999_999n),
  bps: fc.constantFrom(2000, 2100, 1000, 550),
  status: fc.constantFrom('classified', 'classified', 'classified', 'classified', 'needs_review'),
  /** Most corrections follow their original's country, currency and kind (a valid link). */
  follows: fc.constantFrom(true, true, true, false),
});

/**
 * The reference: every event its own group, its link resolved in JS; with 2025-Q4 locked at
 * `lockQ4`, that quarter's events recorded after the lock are 2026-Q1's late events.
 */
function perEvent(facts: Fact[], upTo: number | null, lockQ4: number | null): FactGroup[] {
  const visible = facts.filter((f) => upTo === null || f.sequence <= upTo);
  const byId = new Map(visible.map((f) => [f.eventId, f]));
  const inQ4 = (f: Fact) => f.occurredAt >= '2025-10-01' && f.occurredAt < '2026-01-01';
  // Late: recorded after the lock, or a correction the lock left out whose original arrived after it.
  const isLate = (f: Fact) => {
    if (lockQ4 === null || !inQ4(f)) return false;
    if (f.sequence > lockQ4) return true;
    const o = f.eventType === 'sale' || f.originalEventId === null ? undefined : byId.get(f.originalEventId);
    return o !== undefined && o.sequence > lockQ4;
  };
  return visible
    .filter((f) => (f.occurredAt >= '2026-01-01' && f.occurredAt < '2026-04-01') || isLate(f))
    .map((f) => {
      const o = f.originalEventId === null ? undefined : byId.get(f.originalEventId);
      const link: LinkStatus = f.eventType === 'sale' ? 'none' : !o ? 'missing' : o.eventType !== 'sale' || o.country !== f.country || o.currency !== f.currency ? 'invalid' : 'ok';
      const std = STANDARD.find((w) => w.country === f.country && w.validFrom <= f.occurredAt && (w.validTo === null || f.occurredAt < w.validTo));
      return {
        late: isLate(f),
        ownPeriod: periodOfDate(f.occurredAt),
        eventType: f.eventType,
        classificationStatus: f.status,
        rateCategory: 'standard',
        supplyKind: f.supplyKind,
        customerType: 'b2c',
        countryOfConsumption: f.country,
        dispatchCountry: f.dispatch,
        supplierEstablishmentCountry: f.establishment,
        sourceId: null,
        vatRateBps: f.bps,
        rateIsStandard: std ? std.rateBps === f.bps : null,
        currency: f.currency,
        link,
        originalPeriod: o ? periodOfDate(o.occurredAt) : null,
        count: 1,
        netSum: f.net,
        vatSum: f.vat,
        unitNet: f.currency === 'EUR' ? null : f.net,
        unitVat: f.currency === 'EUR' ? null : f.vat,
      };
    });
}

describe.skipIf(!backends.ok)('Union OSS facts: the grouped SQL read equals the return built event by event', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  let repo: UnionOssFactRepository;
  let account = 1000;
  beforeAll(async () => {
    db = await freshDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    repo = new UnionOssFactRepository(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  async function insertFacts(accountId: number, facts: Fact[]): Promise<void> {
    for (const f of facts) {
        await pool.query(
          `insert into compliance_reports.supply_fact (id, account_id, sequence, event_id, recorded_at, event_type, original_event_id, occurred_at, supply_kind, customer_type,
             country_of_consumption, dispatch_country, supplier_establishment_country, currency, net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status)
           values ($1, $2, $3, $4, now(), $5, $6, $7, $8, 'b2c', $9, $10, $11, $12, $13, $14, $15, 'standard', $16)`,
          [randomUUID(), accountId, f.sequence, f.eventId, f.eventType, f.originalEventId, `${f.occurredAt}T10:00:00Z`, f.supplyKind, f.country, f.dispatch, f.establishment, f.currency, f.net.toString(), f.vat.toString(), f.bps, f.status],
        );
    }
  }

  /** The 2026-Q1 return read through the grouped SQL and built event by event, with 2025-Q4 locked at `lockQ4`. */
  async function bothWays(accountId: number, facts: Fact[], upTo: number | null, lockQ4: number | null) {
    const locks = new Map(lockQ4 === null ? [] : [['2025-Q4', { periodKey: '2025-Q4', ledgerPosition: BigInt(lockQ4) } as LockedPeriodRecord]]);
    const late = lateWindowsFor('2026-Q1', locks, upTo === null ? null : BigInt(upTo));
    const scope: FactScope = { accountId: BigInt(accountId), start: '2026-01-01', endExclusive: '2026-04-01', upToSequence: upTo === null ? null : BigInt(upTo), late, returnCurrency: 'EUR', standardRates: STANDARD, vatEvidenceDays: 30 };
    const settings = { periodKey: '2026-Q1', memberStateIdentification: 'DE', returnCurrency: 'EUR', sourceDefaults: new Map() };
    const b = new UnionOssReturnBuilder(settings);
    await repo.forEachGroup(scope, (groups) => groups.forEach((g) => b.add(g)));
    return { viaSql: b.finish(rate), reference: buildUnionOssReturn({ ...settings, groups: perEvent(facts, upTo, lockQ4), exchangeRate: rate }) };
  }

  it('a correction the 2025-Q4 lock left out (its original arrived after the lock) is reported by 2026-Q1', async () => {
    const accountId = ++account;
    const base = { supplyKind: 'services', country: 'FR', dispatch: null, establishment: 'DE', currency: 'EUR', bps: 2000, status: 'classified' };
    const facts: Fact[] = [
      // recorded before the lock: a refund naming a sale that is not in the ledger yet
      { ...base, sequence: 1, eventId: 'r1', eventType: 'refund', originalEventId: 's3', occurredAt: '2025-11-20', net: -2000n, vat: -400n },
      { ...base, sequence: 2, eventId: 's2', eventType: 'sale', originalEventId: null, occurredAt: '2025-11-05', net: 5000n, vat: 1000n },
      // the lock of 2025-Q4 is at sequence 2; the original arrives after it
      { ...base, sequence: 3, eventId: 's3', eventType: 'sale', originalEventId: null, occurredAt: '2025-11-01', net: 10000n, vat: 2000n },
    ];
    await insertFacts(accountId, facts);
    const { viaSql, reference } = await bothWays(accountId, facts, null, 2);
    expect(viaSql).toEqual(reference);
    // 2026-Q1 reports both late events of 2025-Q4 as a correction of that period, VAT only:
    // s3 +20.00 and r1 -4.00 = +16.00 (s2 was in the locked snapshot and is not repeated).
    expect(viaSql.corrections).toEqual([expect.objectContaining({ memberStateOfConsumption: 'FR', originalPeriod: '2025-Q4', vatAmountMinor: 1600n })]);
  });

  it('for random quarters of sales and corrections in three currencies, up to any ledger position, with or without a lock of the quarter before', async () => {
    const seen = { rows: 0, corrections: 0, foreign: 0, warnings: 0, late: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(factArb, { minLength: 5, maxLength: 60 }), fc.option(fc.nat({ max: 60 }), { nil: null }), fc.option(fc.nat({ max: 60 }), { nil: null }), async (raw, cut, lockAt) => {
        const accountId = ++account;
        const facts: Fact[] = [];
        raw.forEach((r, i) => {
          // Some corrections name an event that arrives later in the ledger (their original is not there yet).
          const forward = r.type !== 'sale' && r.original % 4 === 0;
          const original = !forward && i > 0 && r.type !== 'sale' ? facts[r.original % i]! : undefined;
          const like = original && r.follows ? original : undefined;
          const sale = r.type === 'sale';
          const sign = sale || (r.type === 'adjustment' && r.net % 2n === 1n) ? 1n : -1n;
          const net = sign * r.net;
          const kind = like?.supplyKind ?? r.kind;
          facts.push({
            sequence: i + 1,
            eventId: `e${i + 1}`,
            eventType: r.type,
            originalEventId: sale ? null : forward ? `e${i + 2 + (r.original % 7)}` : original ? original.eventId : `missing-${i}`,
            occurredAt: r.day,
            supplyKind: kind,
            country: like?.country ?? r.country,
            dispatch: like ? like.dispatch : kind === 'goods' ? r.origin : null,
            establishment: like ? like.establishment : kind === 'services' ? r.origin : null,
            currency: like?.currency ?? r.currency,
            net,
            vat: (net * BigInt(r.bps)) / 10000n,
            bps: r.bps,
            status: r.status,
          });
        });
        await insertFacts(accountId, facts);
        const upTo = cut === null ? null : Math.min(cut, facts.length);
        const lockQ4 = lockAt === null ? null : Math.min(lockAt, upTo ?? facts.length);
        const { viaSql, reference } = await bothWays(accountId, facts, upTo, lockQ4);
        expect(viaSql).toEqual(reference);
        seen.rows += viaSql.rows.length;
        seen.corrections += viaSql.corrections.length;
        seen.foreign += viaSql.rows.filter((r) => r.memberStateOfConsumption === 'FR').length;
        seen.warnings += viaSql.warnings.length;
        seen.late += perEvent(facts, upTo, lockQ4).filter((g) => g.late).length;
      }),
      { numRuns: 60 },
    );
    // not vacuous: the runs produced rows, corrections and warnings
    expect(seen.rows > 0 && seen.corrections > 0 && seen.foreign > 0 && seen.warnings > 0 && seen.late > 0, JSON.stringify(seen)).toBe(true);
  }, 120_000);
});
