/**
 * Art. 284 SME eligibility (`CheckSmeEligibility`): validation of the RPC request and evaluation.
 *
 * No I/O, no clock (callers pass `today`), integer arithmetic only (BigInt). The request arrives typed;
 * what it looked like on the wire (a JSON body, its field names and types) is the gateway's concern.
 *
 * Decisions documented here (and in seeds/sme-thresholds/README.md):
 * - An empty country or currency is missing: the field's own code (invalid_country / invalid_currency).
 * - `reference_date` absent -> `today`; present and not a calendar date -> invalid_reference_date.
 * - Validation order: invalid_country, invalid_turnover, invalid_currency, invalid_reference_date
 *   (InvalidArgument); then (evaluation) no_sme_data (NotFound) when no national currency is known for the
 *   date, currency_mismatch (FailedPrecondition), no_sme_data when no threshold row covers the date.
 * - invalid_currency: not three upper-case letters, or not a code that has been the national currency
 *   of a Member State in the covered period (1999 onward, see national-currency.ts). A Member-State
 *   currency that is not the country's currency on reference_date (e.g. BGN for BG on 2026-01-01)
 *   is currency_mismatch, which tells the caller which currency to use.
 * - exceeded_by_nac is in MINOR units (like annual_turnover_nac): turnover - threshold_minor when
 *   ineligible, 0 when eligible (turnover <= threshold: Art. 284 "does not exceed"), null when indeterminate.
 * - Only the main threshold is compared; sectoral thresholds are echoed, never evaluated.
 */
import { Code } from '@connectrpc/connect';
import type { SmePolicy, SmeThresholdRow } from './data.ts';
import { isIsoCalendarDate } from './data.ts';
import { KNOWN_NATIONAL_CURRENCIES, isMemberState, minorUnitsOf, nationalCurrencyOn } from './national-currency.ts';

export const SME_DISCLAIMER =
  'Informational only, not legal or tax advice. Evaluates only the domestic SME exemption threshold of the ' +
  'Member State (Art. 284 VAT Directive) against the declared annual turnover; it does not evaluate the ' +
  'cross-border SME scheme (Art. 284a, EUR 100,000 Union turnover), sectoral thresholds, current-year ' +
  'tolerances, excluded activities or other national conditions. Thresholds come from the cited seed data ' +
  'and may be incomplete or out of date.';

export type SmeErrorCode =
  | 'invalid_country'
  | 'invalid_currency'
  | 'invalid_turnover'
  | 'invalid_reference_date'
  | 'no_sme_data'
  | 'currency_mismatch';

export interface SmeError {
  ok: false;
  code: Code.InvalidArgument | Code.NotFound | Code.FailedPrecondition;
  error: SmeErrorCode;
  detail: string;
}

/** The request as `CheckSmeEligibility` carries it. */
export interface SmeCheck {
  country: string;
  currency: string;
  /** minor units of the national currency */
  annualTurnoverNac: bigint;
  /** YYYY-MM-DD; absent means today */
  referenceDate?: string;
}

export interface SmeRequest {
  country: string;
  /** minor units of the national currency, safe non-negative integer */
  annual_turnover_nac: number;
  currency: string;
  /** YYYY-MM-DD */
  reference_date: string;
}

export type EligibilityStatus = 'eligible' | 'ineligible' | 'indeterminate';

export interface SmeSectoralResult {
  sector: string | null;
  exemption_threshold_eur: number | null;
  exemption_threshold_nac: number | null;
  comment: string | null;
}

export interface SmeEligibilityResult {
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

function fail(code: SmeError['code'], error: SmeErrorCode, detail: string): SmeError {
  return { ok: false, code, error, detail };
}

const invalid = (error: SmeErrorCode, detail: string) => fail(Code.InvalidArgument, error, detail);

function shown(value: string): string {
  const cut = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(cut);
}

/** Validates a request. Never throws (for any request); `today` must be a YYYY-MM-DD date. */
export function parseSmeRequest(req: SmeCheck, today: string): { ok: true; value: SmeRequest } | SmeError {
  if (!isIsoCalendarDate(today)) throw new TypeError(`parseSmeRequest: today must be YYYY-MM-DD, got ${String(today)}`);
  const { country, currency, annualTurnoverNac: turnover, referenceDate } = req;

  if (country === '') return invalid('invalid_country', 'country is required (2-letter Member State code, EL for Greece)');
  if (!/^[A-Z]{2}$/.test(country)) return invalid('invalid_country', `country must be a 2-letter upper-case Member State code (EL for Greece), got ${shown(country)}`);
  if (country === 'GR') return invalid('invalid_country', 'GR is not accepted: use EL for Greece (EU VAT convention)');
  if (!isMemberState(country)) return invalid('invalid_country', `${country} is not an EU Member State code in this endpoint's convention (EL for Greece)`);

  if (turnover < 0n) return invalid('invalid_turnover', 'annual_turnover_nac must be >= 0');
  if (turnover > BigInt(Number.MAX_SAFE_INTEGER)) return invalid('invalid_turnover', `annual_turnover_nac must not exceed ${Number.MAX_SAFE_INTEGER}`);

  if (currency === '') return invalid('invalid_currency', 'currency is required (ISO 4217 code of the national currency on reference_date)');
  if (!/^[A-Z]{3}$/.test(currency)) return invalid('invalid_currency', `currency must be a 3-letter upper-case ISO 4217 code, got ${shown(currency)}`);
  if (!KNOWN_NATIONAL_CURRENCIES.has(currency)) {
    return invalid('invalid_currency', `${currency} is not a supported currency: it is not the national currency of any EU Member State in the supported period`);
  }

  if (referenceDate !== undefined && !isIsoCalendarDate(referenceDate)) {
    return invalid('invalid_reference_date', `reference_date must be a valid YYYY-MM-DD calendar date, got ${shown(referenceDate)}`);
  }
  return { ok: true, value: { country, annual_turnover_nac: Number(turnover), currency, reference_date: referenceDate ?? today } };
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
    return fail(Code.NotFound, 'no_sme_data', `no national currency or SME threshold data for ${req.country} on ${req.reference_date}`);
  }
  if (req.currency !== national) {
    return fail(Code.FailedPrecondition, 'currency_mismatch', `currency ${req.currency} does not match the national currency of ${req.country} on ${req.reference_date}, which is ${national}`);
  }
  const row = selectSmeRow(rows, req.country, req.reference_date);
  if (!row) return fail(Code.NotFound, 'no_sme_data', `no SME exemption threshold data for ${req.country} on ${req.reference_date}`);

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

/** Validates, then evaluates. */
export function smeEligibility(req: SmeCheck, today: string, rows: readonly SmeThresholdRow[]): { ok: true; result: SmeEligibilityResult } | SmeError {
  const parsed = parseSmeRequest(req, today);
  if (!parsed.ok) return parsed;
  return evaluateSmeEligibility(parsed.value, rows);
}
