/**
 * Calculation-version contract and algorithm manifest for `vat-calculator-half-up/v1`.
 *
 * `calculation_provenance` in a v1 calculation result carries:
 * - `calculation_version` = CALCULATION_VERSION (`vat-calculator-half-up/v1`)
 * - `execution_digest` = EXECUTION_DIGEST = digestOf(CALCULATION_CONTRACT). It identifies the
 *   calculation-version contract (formulas, rounding, input domain), not executable code.
 * - `algorithm_manifest_version` = ALGORITHM_MANIFEST_VERSION (`vat-algorithm-manifest/v1`)
 * - `algorithm_manifest_digest` = ALGORITHM_MANIFEST_DIGEST = digestOf(ALGORITHM_MANIFEST). It
 *   binds the registered arithmetic, validation, currency-scale, rounding and frozen-fixture
 *   contract.
 *
 * Both objects are deeply frozen. Their digests are pinned by hard-coded values in the test:
 * any change to either object changes a digest and must come with a new version string.
 *
 * Frozen fixture expectations were computed independently of `calculator.ts` (exact rational
 * arithmetic with Python's `fractions.Fraction`, rounding by comparing the fractional part with
 * 1/2) and then frozen here.
 */
import { digestOf } from '@vat/platform/canonical-json';
import { CALCULATION_VERSION, MAX_AMOUNT_MINOR, MAX_RATE_BPS } from './calculator';
import { deepFreeze } from './deep-freeze';

export const ALGORITHM_MANIFEST_VERSION = 'vat-algorithm-manifest/v1';

const MAX_AMOUNT = Number(MAX_AMOUNT_MINOR); // 1e15, exact as a JSON number

const HALF_UP_DEFINITION = 'half_up(n / d) = floor((2n + d) / (2d)) for integers n >= 0, d > 0';

const FORMULAS = {
  price_excludes_vat: {
    vat_minor: 'half_up(amount_minor * rate_bps / 10000)',
    net_minor: 'amount_minor',
    gross_minor: 'amount_minor + vat_minor',
  },
  price_includes_vat: {
    vat_minor: 'half_up(amount_minor * rate_bps / (10000 + rate_bps))',
    net_minor: 'amount_minor - vat_minor',
    gross_minor: 'amount_minor',
  },
};

const NUMBER_SYSTEM = 'exact integer arithmetic on integer minor units; no floating point at any step';

/** The calculation-version contract identified by `execution_digest`. */
export const CALCULATION_CONTRACT = deepFreeze({
  contract: 'calculation-version-contract',
  calculation_version: CALCULATION_VERSION,
  number_system: NUMBER_SYSTEM,
  formulas: FORMULAS,
  rounding: {
    mode: 'half_up',
    definition: HALF_UP_DEFINITION,
    ties: 'an exact half rounds up',
    applied_to: 'vat_minor only; net_minor and gross_minor follow by exact addition or subtraction',
  },
  input_domain: {
    amount_minor: { type: 'integer', minimum: 0, maximum: MAX_AMOUNT },
    rate_bps: { type: 'integer', minimum: 0, maximum: MAX_RATE_BPS },
    price_includes_vat: { type: 'boolean' },
  },
  output: {
    fields: ['net_minor', 'vat_minor', 'gross_minor'],
    invariants: [
      'gross_minor = net_minor + vat_minor',
      'net_minor >= 0, vat_minor >= 0, gross_minor >= 0',
      'every output <= 2000000000000000 < 2^53, exact as a JSON number',
    ],
  },
});

export const EXECUTION_DIGEST: string = digestOf(CALCULATION_CONTRACT);

export interface FrozenFixture {
  readonly id: string;
  readonly amount_minor: number;
  readonly rate_bps: number;
  readonly price_includes_vat: boolean;
  readonly expected: { readonly net_minor: number; readonly vat_minor: number; readonly gross_minor: number };
}

function fx(
  id: string,
  amount_minor: number,
  rate_bps: number,
  price_includes_vat: boolean,
  net_minor: number,
  vat_minor: number,
  gross_minor: number,
): FrozenFixture {
  return { id, amount_minor, rate_bps, price_includes_vat, expected: { net_minor, vat_minor, gross_minor } };
}

const FROZEN_FIXTURES: FrozenFixture[] = [
  fx('zero_amount_excl', 0, 2000, false, 0, 0, 0),
  fx('zero_amount_incl', 0, 2000, true, 0, 0, 0),
  fx('zero_bps_excl', 12345, 0, false, 12345, 0, 12345),
  fx('zero_bps_incl', 12345, 0, true, 12345, 0, 12345),
  fx('zero_bps_max_amount_incl', 1000000000000000, 0, true, 1000000000000000, 0, 1000000000000000),
  fx('one_minor_unit_excl_2000', 1, 2000, false, 1, 0, 1),
  fx('one_minor_unit_incl_2000', 1, 2000, true, 1, 0, 1),
  fx('one_minor_unit_excl_10000', 1, 10000, false, 1, 1, 2),
  fx('one_minor_unit_incl_10000_tie', 1, 10000, true, 0, 1, 1),
  fx('one_minor_unit_excl_2700', 1, 2700, false, 1, 0, 1),
  fx('standard_1900_excl', 10000, 1900, false, 10000, 1900, 11900),
  fx('standard_1900_incl', 11900, 1900, true, 10000, 1900, 11900),
  fx('standard_2000_excl', 4999, 2000, false, 4999, 1000, 5999),
  fx('standard_2000_incl', 5999, 2000, true, 4999, 1000, 5999),
  fx('rate_2550_excl', 10000, 2550, false, 10000, 2550, 12550),
  fx('rate_2550_incl', 12550, 2550, true, 10000, 2550, 12550),
  fx('rate_2550_excl_tie', 100, 2550, false, 100, 26, 126),
  fx('rate_2550_incl_odd', 9999, 2550, true, 7967, 2032, 9999),
  fx('rate_550_excl', 1000, 550, false, 1000, 55, 1055),
  fx('rate_550_incl', 1055, 550, true, 1000, 55, 1055),
  fx('rate_550_excl_tie', 100, 550, false, 100, 6, 106),
  fx('rate_550_excl_round_up', 999, 550, false, 999, 55, 1054),
  fx('rate_550_incl_round_down', 999, 550, true, 947, 52, 999),
  fx('rate_2700_excl', 10000, 2700, false, 10000, 2700, 12700),
  fx('rate_2700_incl', 12700, 2700, true, 10000, 2700, 12700),
  fx('rate_2700_excl_tie', 50, 2700, false, 50, 14, 64),
  fx('rate_2700_incl_odd', 1000, 2700, true, 787, 213, 1000),
  fx('rate_1000_excl_tie', 5, 1000, false, 5, 1, 6),
  fx('rate_1900_excl_tie', 50, 1900, false, 50, 10, 60),
  fx('rate_2000_incl_tie', 3, 2000, true, 2, 1, 3),
  fx('rate_2000_incl_tie_9', 9, 2000, true, 7, 2, 9),
  fx('rate_400_incl_tie', 13, 400, true, 12, 1, 13),
  fx('rate_6000_incl_tie', 4, 6000, true, 2, 2, 4),
  fx('rate_1_below_half', 4999, 1, false, 4999, 0, 4999),
  fx('rate_1_exact_half', 5000, 1, false, 5000, 1, 5001),
  fx('rate_1_above_half', 5001, 1, false, 5001, 1, 5002),
  fx('rate_1_second_half', 15000, 1, false, 15000, 2, 15002),
  fx('rate_9999_incl', 1, 9999, true, 1, 0, 1),
  fx('rate_10000_excl', 12345, 10000, false, 12345, 12345, 24690),
  fx('rate_10000_incl_even', 12346, 10000, true, 6173, 6173, 12346),
  fx('rate_10000_incl_odd_tie', 12345, 10000, true, 6172, 6173, 12345),
  fx('max_amount_excl_2700', 1000000000000000, 2700, false, 1000000000000000, 270000000000000, 1270000000000000),
  fx('max_amount_incl_2700', 1000000000000000, 2700, true, 787401574803150, 212598425196850, 1000000000000000),
  fx('max_amount_excl_10000', 1000000000000000, 10000, false, 1000000000000000, 1000000000000000, 2000000000000000),
  fx('max_amount_incl_10000', 1000000000000000, 10000, true, 500000000000000, 500000000000000, 1000000000000000),
  fx('max_amount_excl_1', 1000000000000000, 1, false, 1000000000000000, 100000000000, 1000100000000000),
  fx('max_amount_incl_1', 1000000000000000, 1, true, 999900009999000, 99990001000, 1000000000000000),
  fx('max_amount_minus_one_incl_2100', 999999999999999, 2100, true, 826446280991735, 173553719008264, 999999999999999),
  fx('same_amount_excl_2100', 100, 2100, false, 100, 21, 121),
  fx('same_amount_incl_2100', 100, 2100, true, 83, 17, 100),
  fx('incl_then_excl_differs_a', 16, 1900, true, 13, 3, 16),
  fx('incl_then_excl_differs_b', 13, 1900, false, 13, 2, 15),
  fx('large_odd_excl_2300', 987654321012345, 2300, false, 987654321012345, 227160493832839, 1214814814845184),
  fx('large_odd_incl_2300', 987654321012345, 2300, true, 802970992692963, 184683328319382, 987654321012345),
];

/** ISO 3166-1 alpha-2 codes of the 27 EU Member States (Greece is GR, not EL). */
const EU27_COUNTRIES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
];

/** The registered algorithm manifest identified by `algorithm_manifest_digest`. */
export const ALGORITHM_MANIFEST = deepFreeze({
  manifest_version: ALGORITHM_MANIFEST_VERSION,
  calculation_version: CALCULATION_VERSION,
  execution_digest: EXECUTION_DIGEST,
  arithmetic: {
    number_system: NUMBER_SYSTEM,
    half_up: HALF_UP_DEFINITION,
    formulas: FORMULAS,
    amount_meaning: 'amount_minor is the gross when price_includes_vat is true and the net when false',
    invariants: ['gross_minor = net_minor + vat_minor', 'net_minor, vat_minor, gross_minor >= 0'],
  },
  validation: {
    amount_minor: {
      request_field: 'gross_amount_minor',
      type: 'integer',
      minimum: 0,
      maximum: MAX_AMOUNT,
      rejects: 'non-integers, negative values and values above the maximum',
    },
    rate_bps: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_RATE_BPS,
      unit: 'basis points (1 bps = 0.01 percent)',
      source: 'resolved from rate evidence; never selected by the caller',
    },
    price_includes_vat: {
      type: 'boolean',
      required: 'must be sent explicitly; omitted or null is rejected (missing_price_includes_vat)',
    },
    currency: { rule: 'ISO 4217 alphabetic code that is valid (active) on the transaction date' },
    country: { rule: 'ISO 3166-1 alpha-2 code of an EU27 Member State', codes: EU27_COUNTRIES },
    transaction_date: {
      forms: [
        'YYYY-MM-DD: a calendar date, resolving to 00:00:00.000 UTC of that date',
        'RFC 3339 date-time YYYY-MM-DDTHH:MM:SS[.F]{Z|+HH:MM|-HH:MM} with upper-case T and Z and 1 to 9 fractional digits',
      ],
      normalisation: 'UTC instant written as YYYY-MM-DDTHH:MM:SS.sssZ; fractional digits beyond milliseconds are truncated',
      year_range: { minimum: 1900, maximum: 9999, applies_to: 'both the written date and the resulting UTC instant' },
      rejects: [
        'impossible calendar dates',
        'hour 24',
        'leap second 60',
        'lower-case t or z, a space separator, a missing offset',
        'offsets outside -23:59..+23:59',
      ],
    },
  },
  currency_scale: {
    rule: 'amounts are integers in ISO 4217 minor units of the request currency; the calculator is scale-free',
    rounding_unit: 'one minor unit of the request currency',
  },
  rounding: {
    mode: 'half_up',
    definition: HALF_UP_DEFINITION,
    ties: 'an exact half rounds up (away from zero; all operands are non-negative)',
    applied_to: 'vat_minor only; net_minor and gross_minor follow by exact addition or subtraction',
    round_trip: {
      exclude_then_include:
        'always holds: calculating with price_includes_vat=false and feeding the gross back with price_includes_vat=true ' +
        'returns the same vat_minor and net_minor, provided the gross is itself within the amount domain',
      include_then_exclude:
        'not guaranteed: adding VAT back onto an extracted net can differ from the extracted vat by one minor unit ' +
        '(16 at 1900 bps included gives net 13 and vat 3; 13 at 1900 bps excluded gives vat 2)',
    },
  },
  frozen_fixtures: FROZEN_FIXTURES,
});

export const ALGORITHM_MANIFEST_DIGEST: string = digestOf(ALGORITHM_MANIFEST);
