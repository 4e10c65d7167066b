/**
 * Pure request parsing and evaluation for `POST /v1/vat/sme-eligibility`.
 *
 * No I/O, no clock (callers pass `today`), integer arithmetic only (BigInt).
 *
 * Decisions documented here (and in seeds/sme-thresholds/README.md):
 * - Body that is not a JSON object (null, array, string, number, boolean) -> 400 invalid_json.
 * - Unknown top-level fields -> 400 unknown_field (checked before the fields themselves).
 * - Missing required field -> the field's own code: invalid_country / invalid_turnover / invalid_currency.
 * - `reference_date` absent (undefined) -> `today`; explicitly `null` or any non-date -> invalid_reference_date.
 * - Validation order: invalid_json, unknown_field, invalid_country, invalid_turnover, invalid_currency,
 *   invalid_reference_date; then (evaluation) 404 no_sme_data when no national currency is known for the
 *   date, 422 currency_mismatch, 404 no_sme_data when no threshold row covers the date.
 * - invalid_currency: not three upper-case letters, or not a code that has been the national currency
 *   of a Member State in the covered period (1999 onward, see national-currency.ts). A Member-State
 *   currency that is not the country's currency on reference_date (e.g. BGN for BG on 2026-01-01)
 *   is 422 currency_mismatch, which tells the caller which currency to use.
 * - exceeded_by_nac is in MINOR units (like annual_turnover_nac): turnover - threshold_minor when
 *   ineligible, 0 when eligible (turnover <= threshold: Art. 284 "does not exceed"), null when indeterminate.
 * - Only the main threshold is compared; sectoral thresholds are echoed, never evaluated.
 */
import type { SmePolicy, SmeThresholdRow } from './data.ts';
import { isIsoCalendarDate } from './data.ts';
import { KNOWN_NATIONAL_CURRENCIES, isMemberState, minorUnitsOf, nationalCurrencyOn } from './national-currency.ts';

export const SME_DISCLAIMER =
  'Informational only, not legal or tax advice. Evaluates only the domestic SME exemption threshold of the ' +
  'Member State (Art. 284 VAT Directive) against the declared annual turnover; it does not evaluate the ' +
  'cross-border SME scheme (Art. 284a, EUR 100,000 Union turnover), sectoral thresholds, current-year ' +
  'tolerances, excluded activities or other national conditions. Thresholds come from the cited seed data ' +
  'and may be incomplete or out of date.';

type SmeErrorCode =
  | 'invalid_json'
  | 'unknown_field'
  | 'invalid_country'
  | 'invalid_currency'
  | 'invalid_turnover'
  | 'invalid_reference_date'
  | 'no_sme_data'
  | 'currency_mismatch';

interface SmeError {
  ok: false;
  status: 400 | 404 | 422;
  error: SmeErrorCode;
  detail: string;
}

export interface SmeRequest {
  country: string;
  /** minor units of the national currency, safe non-negative integer */
  annual_turnover_nac: number;
  currency: string;
  /** YYYY-MM-DD */
  reference_date: string;
}

type EligibilityStatus = 'eligible' | 'ineligible' | 'indeterminate';

interface SmeSectoralResult {
  sector: string | null;
  exemption_threshold_eur: number | null;
  exemption_threshold_nac: number | null;
  comment: string | null;
}

interface SmeEligibilityResult {
  country: string;
  currency: string;
  annual_turnover_nac: number;
  reference_date: string;
  exemption_threshold_nac: number | null;
  exemption_threshold_eur: number | null;
  eligibility_status: EligibilityStatus;
  eligible_for_exemption: boolean | null;
  exceeded_by_nac: number | null;
  scheme_type: string;
  policy: SmePolicy;
  sectorals: SmeSectoralResult[];
  data_situation_on: string;
  disclaimer: string;
}

const SME_REQUEST_FIELDS: readonly string[] = Object.freeze(['country', 'annual_turnover_nac', 'currency', 'reference_date']);

function fail(status: 400 | 404 | 422, error: SmeErrorCode, detail: string): SmeError {
  return { ok: false, status, error, detail };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function safeKeyForDetail(key: string): string {
  const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return JSON.stringify(shown);
}

/** Validates an untrusted request body. Never throws (for any `body`); `today` must be a YYYY-MM-DD date. */
export function parseSmeRequest(body: unknown, today: string): { ok: true; value: SmeRequest } | SmeError {
  if (!isIsoCalendarDate(today)) throw new TypeError(`parseSmeRequest: today must be YYYY-MM-DD, got ${String(today)}`);
  if (!isPlainObject(body)) return fail(400, 'invalid_json', `request body must be a JSON object, got ${describe(body)}`);

  const unknown = Object.keys(body).filter((k) => !SME_REQUEST_FIELDS.includes(k));
  if (unknown.length > 0) {
    return fail(400, 'unknown_field', `unknown field(s): ${unknown.slice(0, 5).map(safeKeyForDetail).join(', ')}${unknown.length > 5 ? ', …' : ''}; allowed: ${SME_REQUEST_FIELDS.join(', ')}`);
  }
  const country = Object.hasOwn(body, 'country') ? body['country'] : undefined;
  const turnover = Object.hasOwn(body, 'annual_turnover_nac') ? body['annual_turnover_nac'] : undefined;
  const currency = Object.hasOwn(body, 'currency') ? body['currency'] : undefined;
  const referenceDate = Object.hasOwn(body, 'reference_date') ? body['reference_date'] : undefined;

  if (country === undefined) return fail(400, 'invalid_country', 'country is required (2-letter Member State code, EL for Greece)');
  if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) {
    return fail(400, 'invalid_country', `country must be a 2-letter upper-case Member State code (EL for Greece), got ${typeof country === 'string' ? safeKeyForDetail(country) : describe(country)}`);
  }
  if (country === 'GR') return fail(400, 'invalid_country', 'GR is not accepted: use EL for Greece (EU VAT convention)');
  if (!isMemberState(country)) return fail(400, 'invalid_country', `${country} is not an EU Member State code in this endpoint's convention (EL for Greece)`);

  if (turnover === undefined) return fail(400, 'invalid_turnover', 'annual_turnover_nac is required (integer, minor units of the national currency, >= 0)');
  if (typeof turnover !== 'number' || Number.isNaN(turnover)) return fail(400, 'invalid_turnover', `annual_turnover_nac must be a number, got ${describe(turnover)}`);
  if (!Number.isFinite(turnover) || !Number.isInteger(turnover)) return fail(400, 'invalid_turnover', 'annual_turnover_nac must be an integer amount in minor units');
  if (turnover < 0) return fail(400, 'invalid_turnover', 'annual_turnover_nac must be >= 0');
  if (turnover > Number.MAX_SAFE_INTEGER) return fail(400, 'invalid_turnover', `annual_turnover_nac must not exceed ${Number.MAX_SAFE_INTEGER}`);

  if (currency === undefined) return fail(400, 'invalid_currency', 'currency is required (ISO 4217 code of the national currency on reference_date)');
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    return fail(400, 'invalid_currency', `currency must be a 3-letter upper-case ISO 4217 code, got ${typeof currency === 'string' ? safeKeyForDetail(currency) : describe(currency)}`);
  }
  if (!KNOWN_NATIONAL_CURRENCIES.has(currency)) {
    return fail(400, 'invalid_currency', `${currency} is not a supported currency: it is not the national currency of any EU Member State in the supported period`);
  }

  let reference: string;
  if (referenceDate === undefined) {
    reference = today;
  } else if (!isIsoCalendarDate(referenceDate)) {
    return fail(400, 'invalid_reference_date', `reference_date must be a valid YYYY-MM-DD calendar date, got ${typeof referenceDate === 'string' ? safeKeyForDetail(referenceDate) : describe(referenceDate)}`);
  } else {
    reference = referenceDate;
  }

  return { ok: true, value: { country, annual_turnover_nac: turnover === 0 ? 0 : turnover, currency, reference_date: reference } };
}

/** The row of `country` whose [valid_from, valid_to) window contains `date`, if any. */
export function selectSmeRow(rows: readonly SmeThresholdRow[], country: string, date: string): SmeThresholdRow | undefined {
  let best: SmeThresholdRow | undefined;
  for (const r of rows) {
    if (r.country !== country) continue;
    if (date < r.valid_from || (r.valid_to !== null && date >= r.valid_to)) continue;
    // windows do not overlap in validated data; prefer the latest start defensively
    if (!best || r.valid_from > best.valid_from) best = r;
  }
  return best;
}

/** National-currency threshold in whole units for a row, or null when not comparable. */
function nationalThreshold(nac: number | null, eur: number | null, rowCurrency: string, national: string): number | null {
  if (rowCurrency !== national) return null; // evidence from another currency period: never converted
  if (nac !== null) return nac;
  return national === 'EUR' ? eur : null;
}

/** Evaluates a parsed request against threshold rows. Pure; never throws for validated rows. */
export function evaluateSmeEligibility(
  req: SmeRequest,
  rows: readonly SmeThresholdRow[],
): { ok: true; result: SmeEligibilityResult } | SmeError {
  const national = nationalCurrencyOn(req.country, req.reference_date);
  if (national === undefined) {
    return fail(404, 'no_sme_data', `no national currency or SME threshold data for ${req.country} on ${req.reference_date}`);
  }
  if (req.currency !== national) {
    return fail(422, 'currency_mismatch', `currency ${req.currency} does not match the national currency of ${req.country} on ${req.reference_date}, which is ${national}`);
  }
  const row = selectSmeRow(rows, req.country, req.reference_date);
  if (!row) return fail(404, 'no_sme_data', `no SME exemption threshold data for ${req.country} on ${req.reference_date}`);

  const thresholdNac = nationalThreshold(row.exemption_threshold_nac, row.exemption_threshold_eur, row.currency, national);
  const minorUnits = minorUnitsOf(national);

  let status: EligibilityStatus = 'indeterminate';
  let eligible: boolean | null = null;
  let exceeded: number | null = null;
  if (thresholdNac !== null && minorUnits !== undefined && Number.isSafeInteger(thresholdNac) && thresholdNac >= 0) {
    const thresholdMinor = BigInt(thresholdNac) * 10n ** BigInt(minorUnits);
    const turnover = BigInt(req.annual_turnover_nac);
    eligible = turnover <= thresholdMinor;
    status = eligible ? 'eligible' : 'ineligible';
    // turnover <= MAX_SAFE_INTEGER and thresholdMinor >= 0, so the difference is a safe integer
    exceeded = eligible ? 0 : Number(turnover - thresholdMinor);
  }

  return {
    ok: true,
    result: {
      country: req.country,
      currency: req.currency,
      annual_turnover_nac: req.annual_turnover_nac,
      reference_date: req.reference_date,
      exemption_threshold_nac: thresholdNac,
      exemption_threshold_eur: row.exemption_threshold_eur,
      eligibility_status: status,
      eligible_for_exemption: eligible,
      exceeded_by_nac: exceeded,
      scheme_type: row.scheme_type,
      policy: { ...row.policy },
      sectorals: row.sectorals.map((s) => ({
        sector: s.sector,
        exemption_threshold_eur: s.exemption_threshold_eur,
        exemption_threshold_nac: nationalThreshold(s.exemption_threshold_nac, s.exemption_threshold_eur, row.currency, national),
        comment: s.comment,
      })),
      data_situation_on: row.data_situation_on,
      disclaimer: SME_DISCLAIMER,
    },
  };
}

/** Convenience: parse + evaluate. */
export function smeEligibility(body: unknown, today: string, rows: readonly SmeThresholdRow[]): { ok: true; result: SmeEligibilityResult } | SmeError {
  const parsed = parseSmeRequest(body, today);
  if (!parsed.ok) return parsed;
  return evaluateSmeEligibility(parsed.value, rows);
}
