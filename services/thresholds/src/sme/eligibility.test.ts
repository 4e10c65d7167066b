import { Code } from '@connectrpc/connect';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSmeThresholds, type SmeThresholdRow } from './data.ts';
import {
  SME_DISCLAIMER,
  evaluateSmeEligibility,
  parseSmeRequest,
  selectSmeRow,
  smeEligibility,
  type SmeCheck,
  type SmeRequest,
} from './eligibility.ts';
import { MEMBER_STATES, nationalCurrencyOn } from './national-currency.ts';

const TODAY = '2026-11-22';
const rows = loadSmeThresholds().rows;

const nullableInt = z.number().int().nullable();
const ResultSchema = z.strictObject({
  country: z.string().regex(/^[A-Z]{2}$/),
  currency: z.string().regex(/^[A-Z]{3}$/),
  annual_turnover_nac: z.number().int().nonnegative(),
  reference_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  exemption_threshold_nac: nullableInt,
  exemption_threshold_eur: nullableInt,
  eligibility_status: z.enum(['eligible', 'ineligible', 'indeterminate']),
  eligible_for_exemption: z.boolean().nullable(),
  exceeded_by_nac: nullableInt,
  scheme_type: z.string().min(1),
  policy: z.strictObject({
    one_national_annual_threshold: z.boolean().nullable(),
    exclusion_article288_quarantine_period: z.string().nullable(),
    voluntary_cessation_article290: z.boolean().nullable(),
  }),
  sectorals: z.array(z.strictObject({ sector: z.string().nullable(), exemption_threshold_eur: nullableInt, exemption_threshold_nac: nullableInt, comment: z.string().nullable() })),
  data_situation_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  disclaimer: z.string().min(1),
});

const ERROR_CODES = ['invalid_country', 'invalid_currency', 'invalid_turnover', 'invalid_reference_date', 'no_sme_data', 'currency_mismatch'];

/**
 * A case in the spec's field names, as the `CheckSmeEligibility` request carries it (an absent country or
 * currency is empty, an absent turnover 0). A body that is not a JSON object, an unknown field and a field
 * of the wrong JSON type never reach the service: the gateway answers them (gateway/test/reference.test.ts).
 */
type Case = { country?: string; annual_turnover_nac?: number | bigint; currency?: string; reference_date?: string };
const check = (c: Case): SmeCheck => ({
  country: c.country ?? '',
  currency: c.currency ?? '',
  annualTurnoverNac: BigInt(c.annual_turnover_nac ?? 0),
  ...(c.reference_date !== undefined ? { referenceDate: c.reference_date } : {}),
});

function run(c: Case, rs: readonly SmeThresholdRow[] = rows) {
  return smeEligibility(check(c), TODAY, rs);
}

function expectError(c: Case, code: Code, error: string, rs: readonly SmeThresholdRow[] = rows) {
  const r = run(c, rs);
  expect(r.ok, JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).toBe(false);
  if (!r.ok) {
    expect(r.code).toBe(code);
    expect(r.error).toBe(error);
    expect(r.detail.length).toBeGreaterThan(0);
  }
  return r;
}

function expectResult(c: Case, rs: readonly SmeThresholdRow[] = rows) {
  const r = run(c, rs);
  if (!r.ok) throw new Error(`expected ok, got ${r.error}: ${r.detail}`);
  ResultSchema.parse(r.result);
  return r.result;
}

function syntheticRow(over: Partial<SmeThresholdRow>): SmeThresholdRow {
  return {
    country: 'DE',
    valid_from: '2019-01-01',
    valid_to: null,
    currency: 'EUR',
    exemption_threshold_nac: null,
    exemption_threshold_eur: 25000,
    scheme_type: 'Regular scheme',
    policy: { one_national_annual_threshold: null, exclusion_article288_quarantine_period: null, voluntary_cessation_article290: null },
    sectorals: [],
    data_situation_on: '2025-01-01',
    source_ids: ['x'],
    review_status: 'source_cited',
    note: 'synthetic',
    ...over,
  };
}

describe('every Member State on a current date', () => {
  for (const ms of MEMBER_STATES) {
    it(`${ms} answers the specified shape`, () => {
      const currency = nationalCurrencyOn(ms, TODAY)!;
      const res = expectResult({ country: ms, annual_turnover_nac: 1_000_000, currency });
      expect(res.reference_date).toBe(TODAY);
      expect(res.country).toBe(ms);
      expect(res.disclaimer).toBe(SME_DISCLAIMER);
      expect(res.disclaimer).toMatch(/not legal/);
      expect(res.disclaimer).toMatch(/284a/);
      if (res.eligibility_status === 'indeterminate') {
        expect(res.eligible_for_exemption).toBeNull();
        expect(res.exceeded_by_nac).toBeNull();
      } else {
        expect(res.exemption_threshold_nac).not.toBeNull();
        expect(res.eligible_for_exemption).toBe(res.eligibility_status === 'eligible');
      }
    });
  }

  it('Spain is indeterminate (no scheme), not invented', () => {
    const res = expectResult({ country: 'ES', annual_turnover_nac: 0, currency: 'EUR' });
    expect(res.eligibility_status).toBe('indeterminate');
    expect(res.exemption_threshold_nac).toBeNull();
    expect(res.exemption_threshold_eur).toBeNull();
  });

  it('uses the EUR threshold as national value for euro states', () => {
    const res = expectResult({ country: 'DE', annual_turnover_nac: 1_000_000, currency: 'EUR', reference_date: '2025-06-01' });
    expect(res).toMatchObject({ exemption_threshold_nac: 25000, exemption_threshold_eur: 25000, eligibility_status: 'eligible', eligible_for_exemption: true, exceeded_by_nac: 0 });
  });

  it('non-euro thresholds keep a null EUR value', () => {
    const res = expectResult({ country: 'HU', annual_turnover_nac: 1_800_000_001, currency: 'HUF', reference_date: '2025-03-01' });
    expect(res).toMatchObject({ exemption_threshold_nac: 18_000_000, exemption_threshold_eur: null, eligibility_status: 'ineligible', exceeded_by_nac: 1 });
  });

  it('returns sectorals (DK)', () => {
    const res = expectResult({ country: 'DK', annual_turnover_nac: 0, currency: 'DKK' });
    expect(res.sectorals.map((s) => s.exemption_threshold_nac)).toEqual([170000, 300000]);
  });
});

describe('threshold boundary', () => {
  it('turnover equal to the threshold is eligible; +1 minor unit is ineligible', () => {
    const eq = expectResult({ country: 'DE', annual_turnover_nac: 2_500_000, currency: 'EUR', reference_date: '2025-01-01' });
    expect(eq).toMatchObject({ eligibility_status: 'eligible', eligible_for_exemption: true, exceeded_by_nac: 0 });
    const over = expectResult({ country: 'DE', annual_turnover_nac: 2_500_001, currency: 'EUR', reference_date: '2025-01-01' });
    expect(over).toMatchObject({ eligibility_status: 'ineligible', eligible_for_exemption: false, exceeded_by_nac: 1 });
  });
  it('effective dating: DE 22,000 on 2024-12-31, 25,000 on 2025-01-01', () => {
    expect(expectResult({ country: 'DE', annual_turnover_nac: 2_300_000, currency: 'EUR', reference_date: '2024-12-31' })).toMatchObject({ exemption_threshold_nac: 22000, eligibility_status: 'ineligible', exceeded_by_nac: 100_000 });
    expect(expectResult({ country: 'DE', annual_turnover_nac: 2_300_000, currency: 'EUR', reference_date: '2025-01-01' })).toMatchObject({ exemption_threshold_nac: 25000, eligibility_status: 'eligible' });
  });
  it('handles the maximum safe turnover exactly', () => {
    const res = expectResult({ country: 'DE', annual_turnover_nac: Number.MAX_SAFE_INTEGER, currency: 'EUR', reference_date: '2025-01-01' });
    expect(res.exceeded_by_nac).toBe(Number.MAX_SAFE_INTEGER - 2_500_000);
  });
});

describe('Bulgaria transition (BGN -> EUR on 2026-01-01)', () => {
  it('2025-12-31: BGN row applies; EUR is a currency mismatch', () => {
    expect(expectResult({ country: 'BG', annual_turnover_nac: 10_000_000, currency: 'BGN', reference_date: '2025-12-31' })).toMatchObject({ currency: 'BGN', exemption_threshold_nac: 100000, exemption_threshold_eur: null, eligibility_status: 'eligible', exceeded_by_nac: 0 });
    expectError({ country: 'BG', annual_turnover_nac: 1, currency: 'EUR', reference_date: '2025-12-31' }, Code.FailedPrecondition, 'currency_mismatch');
  });
  it('2026-01-01: EUR row applies; BGN is a currency mismatch', () => {
    expect(expectResult({ country: 'BG', annual_turnover_nac: 5_113_001, currency: 'EUR', reference_date: '2026-01-01' })).toMatchObject({ currency: 'EUR', exemption_threshold_nac: 51130, exemption_threshold_eur: 51130, eligibility_status: 'ineligible', exceeded_by_nac: 1 });
    const r = expectError({ country: 'BG', annual_turnover_nac: 1, currency: 'BGN', reference_date: '2026-01-01' }, Code.FailedPrecondition, 'currency_mismatch');
    if (!r.ok) expect(r.detail).toMatch(/EUR/);
  });
  it('transition gap: only a BGN row is available in 2026 -> indeterminate, national values suppressed', () => {
    const gapRows = [
      syntheticRow({
        country: 'BG', valid_from: '2023-01-01', currency: 'BGN', exemption_threshold_nac: 100000, exemption_threshold_eur: null,
        sectorals: [{ sector: 'x', exemption_threshold_eur: null, exemption_threshold_nac: 5000, comment: null }],
      }),
    ];
    const res = expectResult({ country: 'BG', annual_turnover_nac: 1, currency: 'EUR', reference_date: '2026-03-01' }, gapRows);
    expect(res).toMatchObject({ eligibility_status: 'indeterminate', eligible_for_exemption: null, exceeded_by_nac: null, exemption_threshold_nac: null, exemption_threshold_eur: null });
    expect(res.sectorals[0]!.exemption_threshold_nac).toBeNull();
    // the same row still answers before the change
    expect(expectResult({ country: 'BG', annual_turnover_nac: 1, currency: 'BGN', reference_date: '2025-12-31' }, gapRows)).toMatchObject({ eligibility_status: 'eligible', exemption_threshold_nac: 100000 });
    // the currency check still applies in the gap
    expectError({ country: 'BG', annual_turnover_nac: 1, currency: 'BGN', reference_date: '2026-03-01' }, Code.FailedPrecondition, 'currency_mismatch', gapRows);
  });
});

describe('Croatia transition (HRK -> EUR on 2023-01-01)', () => {
  it('2022-12-31: HRK row applies; EUR is a currency mismatch', () => {
    expect(expectResult({ country: 'HR', annual_turnover_nac: 30_000_000, currency: 'HRK', reference_date: '2022-12-31' })).toMatchObject({ exemption_threshold_nac: 300000, eligibility_status: 'eligible' });
    expect(expectResult({ country: 'HR', annual_turnover_nac: 30_000_001, currency: 'HRK', reference_date: '2022-12-31' })).toMatchObject({ eligibility_status: 'ineligible', exceeded_by_nac: 1 });
    expectError({ country: 'HR', annual_turnover_nac: 1, currency: 'EUR', reference_date: '2022-12-31' }, Code.FailedPrecondition, 'currency_mismatch');
  });
  it('2023-01-01: EUR row applies; HRK is a currency mismatch', () => {
    expect(expectResult({ country: 'HR', annual_turnover_nac: 4_000_000, currency: 'EUR', reference_date: '2023-01-01' })).toMatchObject({ exemption_threshold_nac: 40000, eligibility_status: 'eligible' });
    expectError({ country: 'HR', annual_turnover_nac: 1, currency: 'HRK', reference_date: '2023-01-01' }, Code.FailedPrecondition, 'currency_mismatch');
  });
  it('transition gap with only an HRK row -> indeterminate after 2022', () => {
    const gapRows = [syntheticRow({ country: 'HR', valid_from: '2022-01-01', currency: 'HRK', exemption_threshold_nac: 300000, exemption_threshold_eur: null })];
    expect(expectResult({ country: 'HR', annual_turnover_nac: 1, currency: 'EUR', reference_date: '2023-01-01' }, gapRows)).toMatchObject({ eligibility_status: 'indeterminate', exemption_threshold_nac: null, eligible_for_exemption: null, exceeded_by_nac: null });
  });
});

describe('error codes', () => {
  const ok = { country: 'DE', annual_turnover_nac: 100, currency: 'EUR' };

  it('invalid_country', () => {
    expectError({ annual_turnover_nac: 1, currency: 'EUR' }, Code.InvalidArgument, 'invalid_country');
    for (const country of ['XX', 'de', 'DEU', '', 'GB', 'XI', 'CH']) expectError({ ...ok, country }, Code.InvalidArgument, 'invalid_country');
    const gr = expectError({ ...ok, country: 'GR' }, Code.InvalidArgument, 'invalid_country');
    if (!gr.ok) expect(gr.detail).toMatch(/EL/);
  });
  it('invalid_turnover', () => {
    for (const t of [-1n, BigInt(Number.MAX_SAFE_INTEGER) + 1n, BigInt(1e300)]) expectError({ ...ok, annual_turnover_nac: t }, Code.InvalidArgument, 'invalid_turnover');
    expect(expectResult({ ...ok, annual_turnover_nac: -0 }).annual_turnover_nac).toBe(0);
    expect(Object.is(expectResult({ ...ok, annual_turnover_nac: -0 }).annual_turnover_nac, 0)).toBe(true);
  });
  it('invalid_currency', () => {
    expectError({ country: 'DE', annual_turnover_nac: 1 }, Code.InvalidArgument, 'invalid_currency');
    for (const currency of ['USD', 'GBP', 'eur', 'EU', 'EURO', '', 'XTS']) expectError({ ...ok, currency }, Code.InvalidArgument, 'invalid_currency');
  });
  it('invalid_reference_date', () => {
    for (const reference_date of ['2025-02-29', '2025-13-01', '2025-1-1', '20250101', '2025-01-01T00:00:00Z', '', '0000-01-01']) {
      expectError({ ...ok, reference_date }, Code.InvalidArgument, 'invalid_reference_date');
    }
    expect(expectResult({ ...ok, reference_date: '2024-02-29' }).reference_date).toBe('2024-02-29');
  });
  it('no_sme_data before the first row, and before currency coverage', () => {
    expectError({ ...ok, reference_date: '2019-06-01' }, Code.NotFound, 'no_sme_data'); // DE rows start 2020
    expectError({ country: 'MT', annual_turnover_nac: 1, currency: 'EUR', reference_date: '2024-06-01' }, Code.NotFound, 'no_sme_data');
    expectError({ ...ok, reference_date: '1990-01-01' }, Code.NotFound, 'no_sme_data');
    expectError({ country: 'FR', annual_turnover_nac: 1, currency: 'EUR', reference_date: '2024-06-01' }, Code.NotFound, 'no_sme_data');
  });
  it('currency_mismatch', () => {
    const r = expectError({ ...ok, currency: 'PLN' }, Code.FailedPrecondition, 'currency_mismatch');
    if (!r.ok) expect(r.detail).toMatch(/EUR/);
    expectError({ country: 'PL', annual_turnover_nac: 1, currency: 'EUR' }, Code.FailedPrecondition, 'currency_mismatch');
  });
  it('validation order: country before turnover before currency before date', () => {
    expectError({}, Code.InvalidArgument, 'invalid_country');
    expectError({ country: 'DE', annual_turnover_nac: -1 }, Code.InvalidArgument, 'invalid_turnover');
    expectError({ country: 'DE', annual_turnover_nac: 1, currency: 'USD', reference_date: 'x' }, Code.InvalidArgument, 'invalid_currency');
  });
  it('defaults reference_date to today and rejects a malformed today', () => {
    const p = parseSmeRequest(check(ok), '2025-03-04');
    expect(p.ok && p.value.reference_date).toBe('2025-03-04');
    expect(() => parseSmeRequest(check(ok), 'today')).toThrow(TypeError);
  });
});

describe('selectSmeRow', () => {
  it('uses exclusive valid_to', () => {
    expect(selectSmeRow(rows, 'DE', '2024-12-31')?.valid_from).toBe('2020-01-01');
    expect(selectSmeRow(rows, 'DE', '2025-01-01')?.valid_from).toBe('2025-01-01');
    expect(selectSmeRow(rows, 'DE', '2019-12-31')).toBeUndefined();
  });
});

describe('property: parser never throws and returns a valid shape', () => {
  const text = fc.oneof(fc.string(), fc.constantFrom('', 'DE', 'EL', 'GR', 'BG', 'HR', 'EUR', 'BGN', 'HRK', 'USD', '2025-01-01', '2026-01-01', '2025-02-29'));
  const requestArb: fc.Arbitrary<SmeCheck> = fc.oneof(
    fc.record({ country: text, currency: text, annualTurnoverNac: fc.bigInt(), referenceDate: fc.option(text, { nil: undefined }) }),
    fc.record({
      country: fc.constantFrom(...MEMBER_STATES, 'GR'),
      annualTurnoverNac: fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }),
      currency: fc.constantFrom('EUR', 'BGN', 'HRK', 'CZK', 'DKK', 'HUF', 'PLN', 'RON', 'SEK'),
      referenceDate: fc.date({ min: new Date('2018-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    }),
  );
  it('parse', () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        const r = parseSmeRequest(req, TODAY);
        if (r.ok) {
          expect(Object.keys(r.value).sort()).toEqual(['annual_turnover_nac', 'country', 'currency', 'reference_date']);
          expect(Number.isSafeInteger(r.value.annual_turnover_nac) && r.value.annual_turnover_nac >= 0).toBe(true);
        } else {
          expect(r.code).toBe(Code.InvalidArgument);
          expect(ERROR_CODES).toContain(r.error);
          expect(typeof r.detail).toBe('string');
          expect(r.detail.length).toBeGreaterThan(0);
        }
        const full = smeEligibility(req, TODAY, rows);
        if (full.ok) ResultSchema.parse(full.result);
        else {
          expect(ERROR_CODES).toContain(full.error);
          expect([Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition]).toContain(full.code);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('property: comparison', () => {
  it('eligible iff turnover <= threshold minor; exceeded_by_nac = max(0, turnover - threshold minor)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.maxSafeNat(), fc.boolean(), (threshold, turnoverSeed, near) => {
        const thresholdMinor = threshold * 100;
        const turnover = near ? Math.max(0, Math.min(Number.MAX_SAFE_INTEGER, thresholdMinor + (turnoverSeed % 5) - 2)) : turnoverSeed;
        const req: SmeRequest = { country: 'DE', annual_turnover_nac: turnover, currency: 'EUR', reference_date: '2025-06-01' };
        const r = evaluateSmeEligibility(req, [syntheticRow({ exemption_threshold_eur: threshold })]);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const expected = BigInt(turnover) <= BigInt(threshold) * 100n;
        expect(r.result.eligible_for_exemption).toBe(expected);
        expect(r.result.eligibility_status).toBe(expected ? 'eligible' : 'ineligible');
        expect(r.result.exceeded_by_nac).toBe(expected ? 0 : Number(BigInt(turnover) - BigInt(threshold) * 100n));
        expect(r.result.exemption_threshold_nac).toBe(threshold);
      }),
      { numRuns: 2000 },
    );
  });
  it('same for a non-euro national threshold (HUF)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000_000_000 }), fc.maxSafeNat(), (threshold, turnover) => {
        const r = evaluateSmeEligibility(
          { country: 'HU', annual_turnover_nac: turnover, currency: 'HUF', reference_date: '2025-06-01' },
          [syntheticRow({ country: 'HU', currency: 'HUF', exemption_threshold_nac: threshold, exemption_threshold_eur: null })],
        );
        if (!r.ok) throw new Error(r.detail);
        expect(r.result.eligible_for_exemption).toBe(BigInt(turnover) <= BigInt(threshold) * 100n);
      }),
      { numRuns: 1000 },
    );
  });
});
