import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iossMonth, type IossFact } from '../test/ioss-month-model';
import type { ReturnContext } from './domain/union-oss-documents';
import { balancesOf, type CorrectionRow, type ReturnRow, type Section } from './domain/union-oss-return';
import { jurisdictionsOf } from './ioss-report';

const row = (section: Section, ms: string, net: bigint, vat: bigint, n = 1): ReturnRow => ({
  section,
  memberStateOfConsumption: ms,
  originMemberState: section === '2c' || section === '2d' ? 'FR' : null,
  supplyKind: section === '2a' || section === '2c' ? 'services' : 'goods',
  vatRateBps: 2000,
  rateType: 'STANDARD',
  taxableAmountMinor: net,
  vatAmountMinor: vat,
  sourceEventCount: n,
});

function context(rows: ReturnRow[], corrections: CorrectionRow[]): ReturnContext {
  const balances = balancesOf(rows, corrections);
  return {
    ret: {
      periodKey: '2026-Q1',
      memberStateIdentification: 'DE',
      returnCurrency: 'EUR',
      rows,
      corrections,
      balances,
      totals: {
        taxableAmountMinor: rows.reduce((s, r) => s + r.taxableAmountMinor, 0n),
        currentVatMinor: balances.reduce((s, b) => s + b.currentVatMinor, 0n),
        correctionVatMinor: balances.reduce((s, b) => s + b.correctionVatMinor, 0n),
        payableVatMinor: balances.reduce((s, b) => s + b.payableVatMinor, 0n),
      },
      warnings: [],
      totalSourceEventCount: 0,
      includedSourceEventCount: 0,
      excludedSourceEventCount: 0,
      reviewSourceEventCount: 0,
    },
    registrationId: 1n,
    periodStart: '2026-01-01',
    periodEnd: '2026-03-31',
    ledgerPosition: 0n,
    generatedAt: '2026-04-01T00:00:00.000Z',
    periodStatus: 'open',
    ratesUsed: [],
  };
}

let seq = 0n;
const sale = (id: string, day: string, ms: string, net: bigint, vat: bigint, over: Partial<IossFact> = {}): IossFact => ({
  eventId: id,
  sequence: ++seq,
  eventType: 'sale',
  occurredAt: new Date(`${day}T12:00:00Z`),
  supplyKind: 'imported_goods',
  customerType: 'b2c',
  countryOfConsumption: ms,
  currency: 'EUR',
  netAmountMinor: net,
  vatAmountMinor: vat,
  vatRateBps: 2000,
  rateCategory: 'standard',
  classificationStatus: 'classified',
  intrinsicValueEurMinor: 10000n,
  thirdCountryOrigin: 'CN',
  exciseGoods: false,
  ...over,
});
const regs = [{ id: 7n, status: 'active', effectiveFrom: '2025-01-01', effectiveTo: null }];
const noRate = () => undefined;

describe('jurisdictionsOf', () => {
  it('keeps sections 2a-2d per State and sums each IOSS month without offsetting months', () => {
    const c = context([row('2a', 'AT', 1000n, 200n), row('2d', 'AT', 3000n, 600n, 2), row('2b', 'IT', 500n, 110n)], [{ memberStateOfConsumption: 'IT', originalPeriod: '2025-Q4', vatAmountMinor: -300n, sourceEventCount: 1 }]);
    const jan = sale('j', '2026-01-10', 'IT', 4000n, 880n);
    const refund = sale('r', '2026-02-10', 'IT', -4000n, -880n, { eventType: 'refund', originalEventId: 'j' });
    const originals = new Map([['j', jan]]);
    const months = ['2026-01', '2026-02', '2026-03'].map((m) => iossMonth(m, [jan, refund], originals, regs, noRate));
    const [at, it_] = jurisdictionsOf(c, months);
    expect(at!.union_oss.sections).toEqual({
      '2a': { taxable_amount_minor: 1000n, vat_amount_minor: 200n, source_event_count: 1 },
      '2b': { taxable_amount_minor: 0n, vat_amount_minor: 0n, source_event_count: 0 },
      '2c': { taxable_amount_minor: 0n, vat_amount_minor: 0n, source_event_count: 0 },
      '2d': { taxable_amount_minor: 3000n, vat_amount_minor: 600n, source_event_count: 2 },
    });
    expect(at!.event_counts).toEqual({ union_oss: 3, ioss: 0, total: 3 });
    // IT Union OSS: 1.10 current - 3.00 correction = -1.90, payable 0
    expect(it_!.union_oss).toMatchObject({ correction_vat_minor: -300n, balance_minor: -190n, payable_vat_minor: 0n, source_event_count: 2 });
    // IT IOSS: January 8.80 payable; February -8.80 correction of January: its own return, payable 0
    expect(it_!.ioss).toEqual({ return_currency: 'EUR', taxable_amount_minor: 4000n, current_vat_minor: 880n, correction_vat_minor: -880n, payable_vat_minor: 880n, months: ['2026-01', '2026-02'], source_event_count: 1 });
  });

  it('property: per-State figures add up to the Union OSS totals and the IOSS months', () => {
    const ms = fc.constantFrom('AT', 'FR', 'IT', 'PL');
    const amount = fc.bigInt({ min: -100000n, max: 100000n });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom<Section>('2a', '2b', '2c', '2d'), ms, amount, amount), { maxLength: 12 }),
        fc.array(fc.tuple(ms, amount), { maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom('2026-01-05', '2026-02-14', '2026-03-31'), ms, fc.bigInt({ min: 1n, max: 15000n }), fc.bigInt({ min: 0n, max: 5000n })), { maxLength: 12 }),
        (rs, cs, is) => {
          const c = context(
            rs.map(([s, m, n, v]) => row(s, m, n, v)),
            cs.map(([m, v]) => ({ memberStateOfConsumption: m, originalPeriod: '2025-Q4', vatAmountMinor: v, sourceEventCount: 1 })),
          );
          const facts = is.map(([d, m, n, v], i) => sale(`e${i}`, d, m, n, v, { intrinsicValueEurMinor: n }));
          const months = ['2026-01', '2026-02', '2026-03'].map((m) => iossMonth(m, facts, new Map(), regs, noRate));
          const js = jurisdictionsOf(c, months);
          const sum = <T>(xs: readonly T[], f: (x: T) => bigint) => xs.reduce((s, x) => s + f(x), 0n);
          expect(sum(js, (j) => sum(Object.values(j.union_oss.sections), (s) => s.taxable_amount_minor))).toBe(c.ret.totals.taxableAmountMinor);
          expect(sum(js, (j) => j.union_oss.payable_vat_minor)).toBe(c.ret.totals.payableVatMinor);
          expect(sum(js, (j) => j.ioss.payable_vat_minor)).toBe(sum(months, (m) => m.totals.payable_vat_minor));
          expect(sum(js, (j) => j.ioss.taxable_amount_minor)).toBe(sum(months, (m) => m.totals.taxable_amount_minor));
          expect(js.reduce((s, j) => s + j.event_counts.ioss, 0)).toBe(facts.length);
          expect(js.map((j) => j.member_state_of_consumption)).toEqual([...new Set(js.map((j) => j.member_state_of_consumption))].sort());
        },
      ),
    );
  });
});
