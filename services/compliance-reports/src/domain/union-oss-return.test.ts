import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ecbRate, EUR, type RateOrEur } from '@vat/platform/fx';
import { buildUnionOssReturn } from '../../test/union-oss-return-of';
import { countryBreakdownOf, filingDueDate, periodOfDate, returnCurrencyOf, StandardRateUnavailable, type FactGroup, type ReturnInputs, type SourceDefaults } from './union-oss-return';

/** One classified B2C EUR sale group of 2026-Q1, services from the MSI (DE) to FR at 20 %. */
function g(over: Partial<FactGroup> = {}): FactGroup {
  return {
    late: false,
    ownPeriod: '2026-Q1',
    eventType: 'sale',
    classificationStatus: 'classified',
    rateCategory: 'standard',
    supplyKind: 'services',
    customerType: 'b2c',
    countryOfConsumption: 'FR',
    dispatchCountry: null,
    supplierEstablishmentCountry: 'DE',
    sourceId: null,
    vatRateBps: 2000,
    rateIsStandard: true,
    currency: 'EUR',
    link: 'none',
    originalPeriod: null,
    count: 1,
    netSum: 10000n,
    vatSum: 2000n,
    unitNet: null,
    unitVat: null,
    ...over,
  };
}

/** USD per EUR at the end of each quarter (test figures). */
const USD: Record<string, string> = { '2026-Q1': '1.1498', '2025-Q4': '1.175', '2024-Q1': '1.0749' };
const DKK: Record<string, string> = { '2026-Q1': '7.4688' };

function inputs(groups: FactGroup[], over: Partial<ReturnInputs> = {}): ReturnInputs {
  return {
    periodKey: '2026-Q1',
    memberStateIdentification: 'DE',
    returnCurrency: 'EUR',
    groups,
    sourceDefaults: new Map(),
    exchangeRate: (currency, period): RateOrEur | undefined => {
      if (currency === EUR) return EUR;
      const table = currency === 'USD' ? USD : currency === 'DKK' ? DKK : {};
      const d = table[period];
      return d ? ecbRate(currency, '2026-03-31', d) : undefined;
    },
    ...over,
  };
}

const build = (groups: FactGroup[], over: Partial<ReturnInputs> = {}) => buildUnionOssReturn(inputs(groups, over));

describe('Union OSS return: sections, rows and totals (hand-computed, EUR)', () => {
  it('a plain EUR quarter over all four sections, one row per section × State × origin × kind × rate', () => {
    const r = build([
      // 2a: services from DE (the MSI) to FR at 20 %: 2 events, 100.00 + 150.00 net, 20.00 + 30.00 VAT
      g({ count: 2, netSum: 25000n, vatSum: 5000n }),
      // 2b: goods dispatched from DE to AT at 20 %: 50.00 net, 10.00 VAT
      g({ supplyKind: 'goods', dispatchCountry: 'DE', supplierEstablishmentCountry: null, countryOfConsumption: 'AT', netSum: 5000n, vatSum: 1000n }),
      // 2c: services from a fixed establishment in ES to IT at 22 %: 100.00 net, 22.00 VAT
      g({ supplierEstablishmentCountry: 'ES', countryOfConsumption: 'IT', vatRateBps: 2200, netSum: 10000n, vatSum: 2200n }),
      // 2d: goods dispatched from PL to FR at 5.5 % and at 10 % (two reduced rates, two rows)
      g({ supplyKind: 'goods', dispatchCountry: 'PL', countryOfConsumption: 'FR', vatRateBps: 550, rateIsStandard: false, rateCategory: 'reduced', netSum: 20000n, vatSum: 1100n }),
      g({ supplyKind: 'goods', dispatchCountry: 'PL', countryOfConsumption: 'FR', vatRateBps: 1000, rateIsStandard: false, rateCategory: 'reduced', netSum: 3000n, vatSum: 300n }),
      // 2d again, same row as the 5.5 % one (another group, e.g. another source): 40.00 net, 2.20 VAT
      g({ supplyKind: 'goods', dispatchCountry: 'PL', countryOfConsumption: 'FR', vatRateBps: 550, rateIsStandard: false, rateCategory: 'reduced', netSum: 4000n, vatSum: 220n }),
    ]);
    expect(r.rows).toEqual([
      { section: '2a', memberStateOfConsumption: 'FR', originMemberState: null, supplyKind: 'services', vatRateBps: 2000, rateType: 'STANDARD', taxableAmountMinor: 25000n, vatAmountMinor: 5000n, sourceEventCount: 2 },
      { section: '2b', memberStateOfConsumption: 'AT', originMemberState: null, supplyKind: 'goods', vatRateBps: 2000, rateType: 'STANDARD', taxableAmountMinor: 5000n, vatAmountMinor: 1000n, sourceEventCount: 1 },
      { section: '2c', memberStateOfConsumption: 'IT', originMemberState: 'ES', supplyKind: 'services', vatRateBps: 2200, rateType: 'STANDARD', taxableAmountMinor: 10000n, vatAmountMinor: 2200n, sourceEventCount: 1 },
      { section: '2d', memberStateOfConsumption: 'FR', originMemberState: 'PL', supplyKind: 'goods', vatRateBps: 1000, rateType: 'REDUCED', taxableAmountMinor: 3000n, vatAmountMinor: 300n, sourceEventCount: 1 },
      // 200.00 + 40.00 = 240.00 net; 11.00 + 2.20 = 13.20 VAT
      { section: '2d', memberStateOfConsumption: 'FR', originMemberState: 'PL', supplyKind: 'goods', vatRateBps: 550, rateType: 'REDUCED', taxableAmountMinor: 24000n, vatAmountMinor: 1320n, sourceEventCount: 2 },
    ]);
    // AT 10.00; FR 50.00 + 3.00 + 13.20 = 66.20; IT 22.00
    expect(r.balances).toEqual([
      { memberStateOfConsumption: 'AT', currentVatMinor: 1000n, correctionVatMinor: 0n, balanceMinor: 1000n, payableVatMinor: 1000n, includedInGrandTotal: true },
      { memberStateOfConsumption: 'FR', currentVatMinor: 6620n, correctionVatMinor: 0n, balanceMinor: 6620n, payableVatMinor: 6620n, includedInGrandTotal: true },
      { memberStateOfConsumption: 'IT', currentVatMinor: 2200n, correctionVatMinor: 0n, balanceMinor: 2200n, payableVatMinor: 2200n, includedInGrandTotal: true },
    ]);
    // taxable 250.00 + 50.00 + 100.00 + 30.00 + 240.00 = 670.00; VAT 10.00 + 66.20 + 22.00 = 98.20
    expect(r.totals).toEqual({ taxableAmountMinor: 67000n, currentVatMinor: 9820n, correctionVatMinor: 0n, payableVatMinor: 9820n });
    expect(r.warnings).toEqual([]);
    expect([r.totalSourceEventCount, r.includedSourceEventCount, r.excludedSourceEventCount]).toEqual([7, 7, 0]);
  });

  it('a rate that is the standard rate on one day and not on another gives two rows', () => {
    const r = build([g({ vatRateBps: 2000 }), g({ vatRateBps: 2000, rateIsStandard: false })]);
    expect(r.rows.map((x) => [x.rateType, x.vatAmountMinor])).toEqual([
      ['REDUCED', 2000n],
      ['STANDARD', 2000n],
    ]);
  });

  it('fails closed when the standard rate of a consumption State is unknown', () => {
    expect(() => build([g({ countryOfConsumption: 'SE', rateIsStandard: null })])).toThrow(StandardRateUnavailable);
    // an excluded event never needs it
    expect(build([g({ countryOfConsumption: 'SE', rateIsStandard: null, customerType: 'b2b', b2bEvidenceId: 7n })]).warnings).toEqual([{ code: 'unsupported_supply_kind_excluded', reason: 'b2b_supply', review: 'informational', count: 1 }]);
  });
});

describe('conversion (Art. 366(2)), per event, half-up', () => {
  it('USD sales at the quarter-end rate, each event converted on its own', () => {
    // 3 events of 10.00 USD net, 1.90 USD VAT at 1.1498 USD/EUR:
    //   1000 / 1.1498 = 869.716… → 870 cents; 190 / 1.1498 = 165.246… → 165 cents
    //   (the group's sum 3000 / 1.1498 = 2609.15 → 2609 would differ by one cent from 3 × 870 = 2610)
    const r = build([g({ currency: 'USD', count: 3, netSum: 3000n, vatSum: 570n, unitNet: 1000n, unitVat: 190n, vatRateBps: 1900, countryOfConsumption: 'DE', supplierEstablishmentCountry: 'FR' })]);
    expect(r.rows).toEqual([{ section: '2c', memberStateOfConsumption: 'DE', originMemberState: 'FR', supplyKind: 'services', vatRateBps: 1900, rateType: 'STANDARD', taxableAmountMinor: 2610n, vatAmountMinor: 495n, sourceEventCount: 3 }]);
  });

  it('a half cent rounds away from zero, for sales and refunds alike', () => {
    // rate 2: 1001 / 2 = 500.5 → 501; -1001 / 2 = -500.5 → -501; 3 / 2 = 1.5 → 2
    const two = (): RateOrEur => ecbRate('USD', '2026-03-31', '2');
    const r = build(
      [
        g({ currency: 'USD', netSum: 1001n, vatSum: 3n, unitNet: 1001n, unitVat: 3n }),
        g({ currency: 'USD', eventType: 'refund', link: 'ok', originalPeriod: '2026-Q1', netSum: -1001n, vatSum: -3n, unitNet: -1001n, unitVat: -3n }),
      ],
      { exchangeRate: (c) => (c === EUR ? EUR : two()) },
    );
    expect(r.rows[0]).toMatchObject({ taxableAmountMinor: 0n, vatAmountMinor: 0n, sourceEventCount: 2 });
  });

  it('a group that lists several per-event amounts (units) converts each amount once per event', () => {
    // at 1.1498 USD/EUR: 2 events of 10.00 USD → 2 × 870 = 1,740 cents (1000 / 1.1498 = 869.716… → 870)
    //                    1 event of 10.01 USD → 871 cents (1001 / 1.1498 = 870.586… → 871); taxable 2,611
    //   VAT 1.90 USD each: 3 × 165 = 495 cents (190 / 1.1498 = 165.246… → 165)
    const units = [{ net: 1000n, vat: 190n, count: 2 }, { net: 1001n, vat: 190n, count: 1 }];
    const r = build([g({ currency: 'USD', count: 3, netSum: 3001n, vatSum: 570n, units })]);
    expect(r.rows).toEqual([{ section: '2a', memberStateOfConsumption: 'FR', originMemberState: null, supplyKind: 'services', vatRateBps: 2000, rateType: 'STANDARD', taxableAmountMinor: 2611n, vatAmountMinor: 495n, sourceEventCount: 3 }]);
  });

  it('a missing rate excludes the event with missing_exchange_rate_excluded', () => {
    const r = build([g(), g({ currency: 'GBP', netSum: 500n, vatSum: 100n, unitNet: 500n, unitVat: 100n, count: 1 })]);
    expect(r.warnings).toEqual([{ code: 'missing_exchange_rate_excluded', reason: 'missing_exchange_rate_excluded', review: 'needs_review', count: 1 }]);
    expect(r.totals.currentVatMinor).toBe(2000n);
  });

  it('into DKK for a Danish MSI: EUR events converted too, the return currency itself is not', () => {
    expect(returnCurrencyOf('DK', '2026-Q1')).toBe('DKK');
    expect(returnCurrencyOf('HR', '2022-Q4')).toBe('HRK');
    expect(returnCurrencyOf('HR', '2023-Q1')).toBe('EUR');
    expect(returnCurrencyOf('PL', '2026-Q1')).toBe('EUR');
    // 100.00 EUR × 7.4688 = 746.88 DKK; 20.00 EUR × 7.4688 = 149.376 → 149.38 DKK; plus 50.00 DKK / 10.00 DKK as sent
    const r = build([g({ unitNet: 10000n, unitVat: 2000n }), g({ currency: 'DKK', netSum: 5000n, vatSum: 1000n })], { memberStateIdentification: 'DK', returnCurrency: 'DKK' });
    expect(r.rows[0]).toMatchObject({ section: '2c', originMemberState: 'DE', taxableAmountMinor: 74688n + 5000n, vatAmountMinor: 14938n + 1000n });
  });
});

describe('refunds, cancellations, credit notes, adjustments', () => {
  it('same-quarter corrections are netted into the current row', () => {
    // sale 2 × 100.00/20.00; refund -30.00/-6.00; cancellation -100.00/-20.00; credit note -5.00/-1.00; adjustment +1.00/+0.20
    const r = build([
      g({ count: 2, netSum: 20000n, vatSum: 4000n }),
      g({ eventType: 'refund', link: 'ok', originalPeriod: '2026-Q1', netSum: -3000n, vatSum: -600n }),
      g({ eventType: 'cancellation', link: 'ok', originalPeriod: '2026-Q1', netSum: -10000n, vatSum: -2000n }),
      g({ eventType: 'credit_note', link: 'ok', originalPeriod: '2026-Q1', netSum: -500n, vatSum: -100n }),
      g({ eventType: 'adjustment', link: 'ok', originalPeriod: '2026-Q1', netSum: 100n, vatSum: 20n }),
    ]);
    // net 200.00 - 30.00 - 100.00 - 5.00 + 1.00 = 66.00; VAT 40.00 - 6.00 - 20.00 - 1.00 + 0.20 = 13.20
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ taxableAmountMinor: 6600n, vatAmountMinor: 1320n, sourceEventCount: 6 });
    expect(r.corrections).toEqual([]);
  });

  it('earlier-quarter corrections are rows keyed by State and original period, VAT only, at the original period rate', () => {
    const r = build([
      g({ netSum: 10000n, vatSum: 2000n }),
      g({ eventType: 'refund', link: 'ok', originalPeriod: '2025-Q4', netSum: -3000n, vatSum: -600n }),
      g({ eventType: 'credit_note', link: 'ok', originalPeriod: '2025-Q4', netSum: -1000n, vatSum: -200n }),
      g({ eventType: 'refund', link: 'ok', originalPeriod: '2025-Q3', netSum: -500n, vatSum: -100n }),
      // USD refund of a 2025-Q4 sale: -11.75 USD VAT at 2025-Q4's 1.175 = -10.00 EUR (not 2026-Q1's 1.1498 → -10.22)
      g({ eventType: 'refund', link: 'ok', originalPeriod: '2025-Q4', currency: 'USD', netSum: -5875n, vatSum: -1175n, unitNet: -5875n, unitVat: -1175n }),
    ]);
    expect(r.rows[0]).toMatchObject({ taxableAmountMinor: 10000n, vatAmountMinor: 2000n, sourceEventCount: 1 });
    expect(r.corrections).toEqual([
      { memberStateOfConsumption: 'FR', originalPeriod: '2025-Q3', vatAmountMinor: -100n, sourceEventCount: 1 },
      // -6.00 - 2.00 - 10.00 = -18.00
      { memberStateOfConsumption: 'FR', originalPeriod: '2025-Q4', vatAmountMinor: -1800n, sourceEventCount: 3 },
    ]);
    // FR: 20.00 - 1.00 - 18.00 = 1.00
    expect(r.balances[0]).toMatchObject({ currentVatMinor: 2000n, correctionVatMinor: -1900n, balanceMinor: 100n, payableVatMinor: 100n });
    expect(r.totals).toEqual({ taxableAmountMinor: 10000n, currentVatMinor: 2000n, correctionVatMinor: -1900n, payableVatMinor: 100n });
  });

  it('a negative balance is shown and does not offset another State', () => {
    const r = build([
      g({ countryOfConsumption: 'AT', netSum: 5000n, vatSum: 1000n }),
      g({ eventType: 'refund', link: 'ok', originalPeriod: '2025-Q4', netSum: -3000n, vatSum: -600n }),
    ]);
    expect(r.balances).toEqual([
      { memberStateOfConsumption: 'AT', currentVatMinor: 1000n, correctionVatMinor: 0n, balanceMinor: 1000n, payableVatMinor: 1000n, includedInGrandTotal: true },
      { memberStateOfConsumption: 'FR', currentVatMinor: 0n, correctionVatMinor: -600n, balanceMinor: -600n, payableVatMinor: 0n, includedInGrandTotal: false },
    ]);
    // grand total: AT 10.00 only (not 10.00 - 6.00 = 4.00)
    expect(r.totals).toEqual({ taxableAmountMinor: 5000n, currentVatMinor: 1000n, correctionVatMinor: -600n, payableVatMinor: 1000n });
  });

  it('a late event (recorded after its quarter was locked) is a correction of that quarter', () => {
    const r = build([
      g({ late: true, ownPeriod: '2025-Q4', netSum: 4000n, vatSum: 800n }),
      g({ late: true, ownPeriod: '2025-Q4', eventType: 'refund', link: 'ok', originalPeriod: '2025-Q3', netSum: -1000n, vatSum: -200n }),
    ]);
    expect(r.rows).toEqual([]);
    expect(r.corrections).toEqual([
      { memberStateOfConsumption: 'FR', originalPeriod: '2025-Q3', vatAmountMinor: -200n, sourceEventCount: 1 },
      { memberStateOfConsumption: 'FR', originalPeriod: '2025-Q4', vatAmountMinor: 800n, sourceEventCount: 1 },
    ]);
    expect(r.totals.payableVatMinor).toBe(600n);
  });
});

describe('exclusions, each with its warning and count', () => {
  it('counts every excluded event under exactly one code', () => {
    const r = build([
      g({ count: 4 }),
      g({ classificationStatus: 'excluded', count: 2 }),
      g({ classificationStatus: 'needs_review', count: 3 }),
      g({ rateCategory: 'zero', vatRateBps: 0, vatSum: 0n }),
      g({ rateCategory: 'exempt', vatRateBps: 0, vatSum: 0n }),
      g({ supplyKind: 'new_means_of_transport' }),
      g({ supplyKind: 'installed_goods' }),
      g({ supplyKind: 'imported_goods' }),
      // b2b with a valid VIES check at the tax point: out of scope; without one: reviewed (Art. 18 of Reg. 282/2011)
      g({ customerType: 'b2b', b2bEvidenceId: 41n }),
      g({ customerType: 'b2b', count: 2 }),
      g({ customerType: 'b2b', b2bEvidenceId: null }),
      // domestic: services supplied from FR to FR; goods dispatched from FR to FR
      g({ supplierEstablishmentCountry: 'FR' }),
      g({ supplyKind: 'goods', dispatchCountry: 'FR' }),
      // goods without a dispatch State; goods from outside the EU; consumption outside the EU
      g({ supplyKind: 'goods', dispatchCountry: null }),
      g({ supplyKind: 'goods', dispatchCountry: 'CN' }),
      g({ countryOfConsumption: 'CH' }),
      g({ eventType: 'refund', link: 'missing', netSum: -1n, vatSum: 0n }),
      g({ eventType: 'refund', link: 'none', netSum: -1n, vatSum: 0n }),
      g({ eventType: 'refund', link: 'invalid', netSum: -1n, vatSum: 0n }),
      // an original in a later quarter, or before the scheme
      g({ eventType: 'refund', link: 'ok', originalPeriod: '2026-Q2', netSum: -1n, vatSum: 0n }),
      g({ eventType: 'refund', link: 'ok', originalPeriod: '2021-Q2', netSum: -1n, vatSum: 0n }),
      g({ currency: 'PLN', unitNet: 100n, unitVat: 20n, count: 5 }),
    ]);
    const review = (code: string, count: number, reason = code) => ({ code, reason, review: 'needs_review', count });
    const law = (code: string, count: number, reason: string) => ({ code, reason, review: 'informational', count });
    expect(r.warnings).toEqual([
      review('classification_excluded', 2),
      review('needs_review_excluded', 3),
      review('missing_exchange_rate_excluded', 5),
      review('correction_reference_missing_excluded', 2),
      review('correction_reference_invalid_excluded', 3),
      review('unsupported_rate_category_excluded', 1, 'exempt_rate'),
      review('unsupported_rate_category_excluded', 1, 'zero_rate'),
      law('unsupported_supply_kind_excluded', 1, 'b2b_supply'),
      review('unsupported_supply_kind_excluded', 3, 'b2b_without_vat_number_evidence'),
      law('unsupported_supply_kind_excluded', 1, 'consumption_outside_eu'),
      review('unsupported_supply_kind_excluded', 1, 'dispatch_country_missing'),
      law('unsupported_supply_kind_excluded', 2, 'domestic_supply'),
      law('unsupported_supply_kind_excluded', 1, 'imported_goods'),
      law('unsupported_supply_kind_excluded', 1, 'installed_goods'),
      law('unsupported_supply_kind_excluded', 1, 'new_means_of_transport'),
      review('unsupported_supply_kind_excluded', 1, 'origin_outside_eu'),
    ]);
    // 9 excluded by law or needing review under the one spec code; filing status counts only those needing review
    // (3 b2b events without VIES evidence among them: 30 + 3 events, 26 + 3 excluded, 7 informational).
    expect(r.reviewSourceEventCount).toBe(29 - 7);
    expect([r.totalSourceEventCount, r.includedSourceEventCount, r.excludedSourceEventCount]).toEqual([33, 4, 29]);
    expect(r.rows).toHaveLength(1);
  });

  it('source-profile defaults fill a missing origin, never override a stated one', () => {
    const defaults = new Map<string, SourceDefaults>([['shop', { dispatchCountry: 'PL', supplierEstablishmentCountry: 'ES' }]]);
    const r = build(
      [
        g({ supplyKind: 'goods', dispatchCountry: null, supplierEstablishmentCountry: null, sourceId: 'shop' }),
        g({ supplierEstablishmentCountry: null, sourceId: 'shop' }),
        g({ supplierEstablishmentCountry: null, sourceId: null }),
      ],
      { sourceDefaults: defaults },
    );
    expect(r.rows.map((x) => [x.section, x.originMemberState])).toEqual([
      ['2a', null],
      ['2c', 'ES'],
      ['2d', 'PL'],
    ]);
  });

  it('a nil quarter: nothing, all zero', () => {
    const r = build([]);
    expect(r).toMatchObject({ rows: [], corrections: [], balances: [], warnings: [], totalSourceEventCount: 0, includedSourceEventCount: 0, excludedSourceEventCount: 0 });
    expect(r.totals).toEqual({ taxableAmountMinor: 0n, currentVatMinor: 0n, correctionVatMinor: 0n, payableVatMinor: 0n });
  });
});

describe('calendar helpers', () => {
  it('periods and the filing due date (end of the month after the quarter)', () => {
    expect(periodOfDate('2026-03-31')).toBe('2026-Q1');
    expect(periodOfDate('2026-04-01')).toBe('2026-Q2');
    expect(filingDueDate('2026-Q1')).toBe('2026-04-30');
    expect(filingDueDate('2025-Q4')).toBe('2026-01-31');
    expect(filingDueDate('2024-Q3')).toBe('2024-10-31');
    // the last quarter served: due within year 9999
    expect(filingDueDate('9999-Q3')).toBe('9999-10-31');
  });
});

const groupArb: fc.Arbitrary<FactGroup> = fc
  .record({
    country: fc.constantFrom('FR', 'AT', 'IT', 'NL'),
    kind: fc.constantFrom('services', 'goods'),
    origin: fc.constantFrom('DE', 'ES', 'PL', 'FR'),
    type: fc.constantFrom('sale', 'refund', 'credit_note', 'adjustment'),
    orig: fc.constantFrom('2025-Q3', '2025-Q4', '2026-Q1'),
    status: fc.constantFrom('classified', 'classified', 'classified', 'needs_review'),
    bps: fc.constantFrom(2000, 2100, 2200, 550, 1000),
    usd: fc.boolean(),
    count: fc.integer({ min: 1, max: 50 }),
    net: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    late: fc.boolean(),
  })
  .map((x) => {
    const sign = x.type === 'sale' ? 1n : x.type === 'adjustment' ? (x.net % 2n === 0n ? 1n : -1n) : -1n;
    const unitNet = sign * x.net;
    const unitVat = (unitNet * BigInt(x.bps)) / 10000n;
    return g({
      countryOfConsumption: x.country,
      supplyKind: x.kind,
      dispatchCountry: x.kind === 'goods' ? x.origin : null,
      supplierEstablishmentCountry: x.kind === 'services' ? x.origin : null,
      eventType: x.type,
      link: x.type === 'sale' ? 'none' : 'ok',
      originalPeriod: x.type === 'sale' ? null : x.late ? '2025-Q3' : x.orig,
      late: x.late,
      ownPeriod: x.late ? '2025-Q4' : '2026-Q1',
      classificationStatus: x.status,
      vatRateBps: x.bps,
      rateIsStandard: x.bps >= 2000,
      currency: x.usd ? 'USD' : 'EUR',
      count: x.count,
      netSum: unitNet * BigInt(x.count),
      vatSum: unitVat * BigInt(x.count),
      unitNet: x.usd ? unitNet : null,
      unitVat: x.usd ? unitVat : null,
    });
  });

describe('properties', () => {
  it('totals are the sums of rows, corrections and positive balances; counts add up', () => {
    fc.assert(
      fc.property(fc.array(groupArb, { maxLength: 30 }), (groups) => {
        const r = build(groups);
        expect(r.totals.taxableAmountMinor).toBe(r.rows.reduce((s, x) => s + x.taxableAmountMinor, 0n));
        expect(r.totals.currentVatMinor).toBe(r.rows.reduce((s, x) => s + x.vatAmountMinor, 0n));
        expect(r.totals.correctionVatMinor).toBe(r.corrections.reduce((s, x) => s + x.vatAmountMinor, 0n));
        expect(r.totals.payableVatMinor).toBe(r.balances.reduce((s, b) => s + (b.balanceMinor > 0n ? b.balanceMinor : 0n), 0n));
        expect(r.totals.payableVatMinor >= 0n).toBe(true);
        for (const b of r.balances) expect(b.payableVatMinor >= 0n && b.balanceMinor === b.currentVatMinor + b.correctionVatMinor).toBe(true);
        expect(r.includedSourceEventCount + r.excludedSourceEventCount).toBe(r.totalSourceEventCount);
        expect(r.warnings.reduce((s, w) => s + w.count, 0)).toBe(r.excludedSourceEventCount);
        expect(r.rows.reduce((s, x) => s + x.sourceEventCount, 0) + r.corrections.reduce((s, x) => s + x.sourceEventCount, 0)).toBe(r.includedSourceEventCount);
        const breakdown = countryBreakdownOf(r);
        expect(breakdown.reduce((s, c) => s + c.payableVatMinor, 0n)).toBe(r.totals.payableVatMinor);
      }),
    );
  });

  it('groups in another currency handed over as one group per disposition listing its amounts (units) give the same return', () => {
    fc.assert(
      fc.property(fc.array(groupArb, { maxLength: 30 }), (groups) => {
        const bundled = new Map<string, FactGroup>();
        const rest: FactGroup[] = [];
        for (const x of groups) {
          if (x.unitNet === null || x.unitVat === null) {
            rest.push(x);
            continue;
          }
          const { count, netSum, vatSum, unitNet, unitVat, ...disposition } = x;
          const k = JSON.stringify(disposition);
          const b = bundled.get(k) ?? bundled.set(k, { ...disposition, count: 0, netSum: 0n, vatSum: 0n, unitNet: null, unitVat: null, units: [] }).get(k)!;
          bundled.set(k, { ...b, count: b.count + count, netSum: b.netSum + netSum, vatSum: b.vatSum + vatSum, units: [...b.units!, { net: unitNet, vat: unitVat, count }] });
        }
        expect(build([...rest, ...bundled.values()])).toEqual(build(groups));
      }),
    );
  });

  it("a negative balance never reduces another State's payable; order of groups does not matter", () => {
    fc.assert(
      fc.property(fc.array(groupArb, { maxLength: 20 }), fc.array(groupArb, { maxLength: 20 }), (a, b) => {
        const onlyFR = (xs: FactGroup[]) => xs.filter((x) => x.countryOfConsumption === 'FR');
        const others = (xs: FactGroup[]) => xs.filter((x) => x.countryOfConsumption !== 'FR');
        const alone = build(onlyFR(a));
        const mixed = build([...onlyFR(a), ...others(b)]);
        const fr = (r: ReturnType<typeof build>) => r.balances.find((x) => x.memberStateOfConsumption === 'FR')?.payableVatMinor ?? 0n;
        expect(fr(mixed)).toBe(fr(alone));
        expect(mixed.totals.payableVatMinor >= fr(alone)).toBe(true);
        expect(build([...a].reverse())).toEqual(build(a));
      }),
    );
  });
});
