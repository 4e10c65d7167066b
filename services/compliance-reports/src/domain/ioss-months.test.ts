import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ecbRate, currencyToEurMinor } from '@vat/platform/fx';
import { iossMonth, type IossFact } from '../../test/ioss-month-model';
import { iossDueDate, monthsOfQuarter, type IossRegistration, type MonthEndConversion } from './ioss-months';

let seq = 0n;
function fact(eventId: string, day: string, over: Partial<IossFact> = {}): IossFact {
  return {
    eventId,
    sequence: ++seq,
    eventType: 'sale',
    occurredAt: new Date(`${day}T12:00:00Z`),
    supplyKind: 'imported_goods',
    customerType: 'b2c',
    countryOfConsumption: 'DE',
    currency: 'EUR',
    netAmountMinor: 10000n,
    vatAmountMinor: 1900n,
    vatRateBps: 1900,
    rateCategory: 'standard',
    classificationStatus: 'classified',
    intrinsicValueEurMinor: 10000n,
    thirdCountryOrigin: 'CN',
    exciseGoods: false,
    ...over,
  };
}

// Month-end rates of the test: USD 1.0800 per EUR for January (31 Jan 2026 is a Saturday: the caller
// passes the next publication day's rate, Monday 2 February); no PLN rate in March.
const RATES: Record<string, Record<string, string>> = { '2026-01': { USD: '1.0800' }, '2026-03': { USD: '1.1000' } };
const convert: MonthEndConversion = (amount, currency, month) => {
  const r = RATES[month]?.[currency];
  return r === undefined ? undefined : currencyToEurMinor(amount, ecbRate(currency, `${month}-28`, r), 2);
};

const reg = (id: number, from: string, to?: string, status = 'active'): IossRegistration => ({ id: BigInt(id), status, effectiveFrom: from, effectiveTo: to ?? null });

describe('IOSS months (hand-computed)', () => {
  const regs = [reg(1, '2026-01-15')];
  const s2 = fact('s2', '2026-01-20');
  const s3 = fact('s3', '2026-01-21', { countryOfConsumption: 'FR', vatRateBps: 2000, netAmountMinor: 15001n, vatAmountMinor: 3000n, intrinsicValueEurMinor: null });
  const s4 = fact('s4', '2026-01-22', { countryOfConsumption: 'FR', vatRateBps: 2000, netAmountMinor: 15000n, vatAmountMinor: 3000n, intrinsicValueEurMinor: 15000n });
  const s8 = fact('s8', '2026-01-26', { currency: 'USD', netAmountMinor: 10801n, vatAmountMinor: 2053n, intrinsicValueEurMinor: 10000n });
  const january = [
    fact('s1', '2026-01-10'), // before the registration window
    s2,
    s3, // no intrinsic value, EUR: tested on its net 150.01 > 150.00
    s4, // exactly 150.00: inside the ceiling
    fact('s5', '2026-01-23', { exciseGoods: true }),
    fact('s6', '2026-01-24', { thirdCountryOrigin: null }),
    fact('s7', '2026-01-25', { currency: 'USD', netAmountMinor: 10800n, vatAmountMinor: 2052n, intrinsicValueEurMinor: null }),
    s8,
    fact('r1', '2026-01-28', { eventType: 'refund', originalEventId: 's2', netAmountMinor: -5000n, vatAmountMinor: -950n }),
    fact('s9', '2026-01-29', { customerType: 'b2b' }),
    fact('s10', '2026-01-30', { classificationStatus: 'needs_review' }),
    fact('s11', '2026-01-30', { supplyKind: 'goods' }), // not an IOSS supply at all: not counted
  ];
  const originals = new Map([...january].map((f) => [f.eventId, f]));

  it('January: the ceiling at 150.00 vs 150.01, every exclusion counted, USD at the month-end rate, same-month refund netted', () => {
    const m = iossMonth('2026-01', january, originals, regs, convert);
    // DE 19 %: s2 100.00/19.00 + r1 -50.00/-9.50 + s8 USD 108.01/1.08 = 100.0093 → 100.01, 20.53/1.08 = 19.0093 → 19.01
    //   taxable 10000 - 5000 + 10001 = 15001; VAT 1900 - 950 + 1901 = 2851; 3 events
    // FR 20 %: s4 150.00 / 30.00
    expect(m.rows).toEqual([
      { member_state_of_consumption: 'DE', vat_rate_bps: 1900, taxable_amount_minor: 15001n, vat_amount_minor: 2851n, source_event_count: 3 },
      { member_state_of_consumption: 'FR', vat_rate_bps: 2000, taxable_amount_minor: 15000n, vat_amount_minor: 3000n, source_event_count: 1 },
    ]);
    expect(m.corrections).toEqual([]);
    // 2851 + 3000 = 5851 payable; taxable 15001 + 15000 = 30001
    expect(m.totals).toEqual({ taxable_amount_minor: 30001n, current_vat_minor: 5851n, correction_vat_minor: 0n, payable_vat_minor: 5851n });
    expect(m.warnings).toEqual([
      { code: 'consignment_above_150_eur_excluded', count: 1 },
      { code: 'excise_goods_excluded', count: 1 },
      { code: 'needs_review_excluded', count: 1 },
      { code: 'outside_registration_window_excluded', count: 1 },
      { code: 'third_country_origin_missing_excluded', count: 1 },
      { code: 'unsupported_supply_kind_excluded', count: 1 },
      { code: 'unverified_eur_value_excluded', count: 1 },
    ]);
    // 11 imported-goods events (s11 is not one): 4 included (s2, s4, s8, r1), 7 excluded
    expect(m.source_event_counts).toEqual({ total: 11, included: 4, excluded: 7 });
    expect(m.status).toBe('ready');
    expect(m.due_date).toBe('2026-02-28');
    expect(m.registration_ids).toEqual([1n]);
  });

  it('February: covered with no imported-goods event is a nil_return_candidate, due at the end of March', () => {
    const m = iossMonth('2026-02', january, originals, regs, convert);
    expect(m.status).toBe('nil_return_candidate');
    expect(m.due_date).toBe('2026-03-31');
    expect(m.rows).toEqual([]);
    expect(m.source_event_counts).toEqual({ total: 0, included: 0, excluded: 0 });
  });

  it('March: prior-month corrections keyed by original month at the original rate; a negative balance never offsets another State', () => {
    const march = [
      fact('r2', '2026-03-05', { eventType: 'credit_note', originalEventId: 's4', countryOfConsumption: 'FR', vatRateBps: 2000, netAmountMinor: -15000n, vatAmountMinor: -3000n }),
      fact('r3', '2026-03-06', { eventType: 'refund', originalEventId: 's8', currency: 'USD', netAmountMinor: -5400n, vatAmountMinor: -1026n }),
      fact('r4', '2026-03-07', { eventType: 'refund', originalEventId: 'nope', vatAmountMinor: -100n, netAmountMinor: -500n }),
      fact('r5', '2026-03-08', { eventType: 'refund', originalEventId: 's3', countryOfConsumption: 'FR', netAmountMinor: -100n, vatAmountMinor: -20n }),
      fact('r6', '2026-03-09', { eventType: 'refund', originalEventId: 's2', countryOfConsumption: 'FR', netAmountMinor: -100n, vatAmountMinor: -20n }),
      fact('s12', '2026-03-10', { vatRateBps: 700, rateCategory: 'reduced', netAmountMinor: 2000n, vatAmountMinor: 140n, intrinsicValueEurMinor: 2000n }),
      fact('s13', '2026-03-11', { currency: 'PLN', intrinsicValueEurMinor: 5000n }),
      fact('s14', '2026-03-12', { countryOfConsumption: 'IT', vatRateBps: 2200, netAmountMinor: 1000n, vatAmountMinor: 220n, intrinsicValueEurMinor: 1000n }),
    ];
    const all = new Map([...originals, ...march.map((f) => [f.eventId, f] as const)]);
    const m = iossMonth('2026-03', march, all, regs, convert);
    expect(m.rows).toEqual([
      { member_state_of_consumption: 'DE', vat_rate_bps: 700, taxable_amount_minor: 2000n, vat_amount_minor: 140n, source_event_count: 1 },
      { member_state_of_consumption: 'IT', vat_rate_bps: 2200, taxable_amount_minor: 1000n, vat_amount_minor: 220n, source_event_count: 1 },
    ]);
    // r3: USD -10.26 at January's 1.0800 (not March's 1.1000) = -9.50 → DE 2026-01 -950; r2: FR 2026-01 -3000
    expect(m.corrections).toEqual([
      { member_state_of_consumption: 'DE', original_period: '2026-01', vat_amount_minor: -950n },
      { member_state_of_consumption: 'FR', original_period: '2026-01', vat_amount_minor: -3000n },
    ]);
    // DE 140 - 950 = -810 (payable 0); FR -3000 (payable 0); IT 220 (payable 220): grand total 220, not 220 - 810 - 3000
    expect(m.balances).toEqual([
      { member_state_of_consumption: 'DE', current_vat_minor: 140n, correction_vat_minor: -950n, balance_minor: -810n, payable_vat_minor: 0n, included_in_grand_total: false },
      { member_state_of_consumption: 'FR', current_vat_minor: 0n, correction_vat_minor: -3000n, balance_minor: -3000n, payable_vat_minor: 0n, included_in_grand_total: false },
      { member_state_of_consumption: 'IT', current_vat_minor: 220n, correction_vat_minor: 0n, balance_minor: 220n, payable_vat_minor: 220n, included_in_grand_total: true },
    ]);
    expect(m.totals).toEqual({ taxable_amount_minor: 3000n, current_vat_minor: 360n, correction_vat_minor: -3950n, payable_vat_minor: 220n });
    expect(m.warnings).toEqual([
      { code: 'consignment_above_150_eur_excluded', count: 1 }, // r5 follows its excluded sale s3
      { code: 'correction_reference_invalid_excluded', count: 1 }, // r6: FR refund of a DE sale
      { code: 'correction_reference_missing_excluded', count: 1 }, // r4
      { code: 'missing_exchange_rate_excluded', count: 1 }, // s13: no PLN rate for March
    ]);
    expect(m.source_event_counts).toEqual({ total: 8, included: 4, excluded: 4 });
  });

  it('a month no counting registration touches is not_covered: sales and corrections stay out of IOSS', () => {
    const later = [fact('s20', '2026-05-04'), fact('r20', '2026-05-05', { eventType: 'refund', originalEventId: 's2', netAmountMinor: -100n, vatAmountMinor: -19n })];
    const all = new Map([...originals, ...later.map((f) => [f.eventId, f] as const)]);
    const ended = [reg(1, '2026-01-15', '2026-04-30', 'ended'), reg(2, '2026-05-01', undefined, 'pending')];
    const m = iossMonth('2026-05', later, all, ended, convert);
    expect(m.status).toBe('not_covered');
    expect(m.registration_ids).toEqual([]);
    expect(m.warnings).toEqual([{ code: 'ioss_registration_missing_excluded', count: 2 }]);
    expect(m.totals.payable_vat_minor).toBe(0n);
  });

  it('overlapping registrations make the month a registration_conflict and exclude the doubly covered days', () => {
    const overlap = [reg(1, '2026-01-15', '2026-04-20', 'ended'), reg(3, '2026-04-10')];
    const april = [fact('a1', '2026-04-05'), fact('a2', '2026-04-15'), fact('a3', '2026-04-25')];
    const m = iossMonth('2026-04', april, new Map(april.map((f) => [f.eventId, f])), overlap, convert);
    expect(m.status).toBe('registration_conflict');
    expect(m.warnings).toEqual([{ code: 'ioss_registration_overlap_excluded', count: 1 }]);
    // a1 (only reg 1) and a3 (only reg 3) are covered once: 2 × 19.00
    expect(m.totals.current_vat_minor).toBe(3800n);
  });

  it('review_required when events exist but none is included', () => {
    const m = iossMonth('2026-06', [fact('x', '2026-06-02', { exciseGoods: true })], new Map(), regs, convert);
    expect(m.status).toBe('review_required');
  });

  it('quarters, months and due dates', () => {
    expect(monthsOfQuarter('2026-Q4')).toEqual(['2026-10', '2026-11', '2026-12']);
    expect(iossDueDate('2026-12')).toBe('2027-01-31');
    expect(iossDueDate('2028-01')).toBe('2028-02-29');
  });
});

describe('IOSS months (properties)', () => {
  const arbFact = fc.record({
    day: fc.integer({ min: 1, max: 28 }),
    country: fc.constantFrom('DE', 'FR', 'IT'),
    type: fc.constantFrom('sale', 'sale', 'refund', 'adjustment'),
    original: fc.integer({ min: 0, max: 30 }),
    net: fc.bigInt({ min: -20000n, max: 20000n }),
    bps: fc.constantFrom(700, 1900, 2000, 2200),
    currency: fc.constantFrom('EUR', 'EUR', 'USD', 'PLN'),
    intrinsic: fc.option(fc.bigInt({ min: 0n, max: 30000n })),
    excise: fc.boolean(),
  });
  it('counts add up, rows sum to the current VAT, and the payable total is the sum of positive balances', () => {
    fc.assert(
      fc.property(fc.array(arbFact, { maxLength: 40 }), (raw) => {
        const facts = raw.map((r, i) =>
          fact(`e${i}`, `2026-03-${String(r.day).padStart(2, '0')}`, {
            eventType: r.type,
            originalEventId: r.type === 'sale' ? null : `e${r.original}`,
            countryOfConsumption: r.country,
            netAmountMinor: r.net,
            vatAmountMinor: (r.net * BigInt(r.bps)) / 10000n,
            vatRateBps: r.bps,
            currency: r.currency,
            intrinsicValueEurMinor: r.intrinsic,
            exciseGoods: r.excise,
          }),
        );
        const m = iossMonth('2026-03', facts, new Map(facts.map((f) => [f.eventId, f])), [reg(1, '2026-01-01')], convert);
        expect(m.source_event_counts.included + m.source_event_counts.excluded).toBe(m.source_event_counts.total);
        expect(m.warnings.reduce((s, w) => s + w.count, 0)).toBe(m.source_event_counts.excluded);
        expect(m.rows.reduce((s, r) => s + r.vat_amount_minor, 0n)).toBe(m.totals.current_vat_minor);
        expect(m.totals.payable_vat_minor).toBe(m.balances.reduce((s, b) => s + (b.balance_minor > 0n ? b.balance_minor : 0n), 0n));
        for (const b of m.balances) expect(b.payable_vat_minor >= 0n).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
