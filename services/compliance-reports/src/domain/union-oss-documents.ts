/**
 * The documents of a Union OSS return: previews (minor units), export packages (major units, JSON
 * or CSV with the manifest fields, coded, on every row) and the accountant report. Pure; the same functions make
 * the artifacts a lock stores, so a locked file is what an export at that position would be.
 */
import { csvRow, type CsvKind, type CsvValue } from '@vat/platform/csv';
import { requireMinorUnits } from '@vat/platform/currencies';
import { jsonText } from '@vat/platform/json-text';
import { minorToMajor } from '@vat/platform/money';
import { countryBreakdownOf, filingDueDate, type Balance, type CorrectionRow, type ReturnRow, type UnionOssReturn } from './union-oss-return';

export const EXPORT_VERSION = 1;

/** One exchange rate the return used (Art. 366(2)). */
export type RateUsed = { currency: string; periodKey: string; requestedDate: string; rateDate: string; rate: string };

/** What a document says besides the figures: when, from which registration and ledger position. */
export type ReturnContext = {
  ret: UnionOssReturn;
  registrationId: bigint;
  periodStart: string;
  periodEnd: string;
  ledgerPosition: bigint;
  generatedAt: string;
  /** open, locked or filed. */
  periodStatus: string;
  ratesUsed: readonly RateUsed[];
  /** The filer's record once the quarter is marked filed (issue 21), else null. */
  filingRecord?: { submissionReference: string | null; filedOn: string | null; note: string | null; filedAt: string } | null;
};

export const CONVERSION_RULE =
  'Amounts in other currencies are converted per event, half-up, at the ECB euro reference rate of the last day of the quarter or, when none was published that day, of the next publication day (Art. 366(2) of Directive 2006/112/EC); corrections at the rate of their original period.';
const SCOPE_NOTE =
  'Union OSS preview from committed supply events (Annex III of Implementing Regulation (EU) 2020/194, Art. 369g of Directive 2006/112/EC). Not a filed return and not legal advice; previews and exports never lock a period.';
const LOCKED_SCOPE_NOTE = 'Locked Union OSS snapshot from committed supply events at the stated ledger position; immutable. Not legal advice.';

/**
 * The manifest's two notes as short codes: what the CSV repeats on each row (layout 2), while the JSON manifests
 * (export package, accountant report) carry each code beside its full text once. A changed text gets a new code.
 */
export const CONVERSION_RULE_CODE = 'ecb_quarter_end_v1';
const SCOPE_NOTES = { preview: { code: 'union_oss_preview_v1', text: SCOPE_NOTE }, locked: { code: 'union_oss_locked_v1', text: LOCKED_SCOPE_NOTE } } as const;

/**
 * The CSV layout: 1 repeated both notes' full text (about 560 characters) on every row (locks stored before keep
 * it, byte for byte); 2 repeats their codes. The columns are the same (`export_version` 1).
 */
export const CSV_LAYOUT = 2;

const rowMinor = (r: ReturnRow) => ({
  section: r.section,
  member_state_of_consumption: r.memberStateOfConsumption,
  origin_member_state: r.originMemberState,
  supply_kind: r.supplyKind,
  vat_rate_bps: r.vatRateBps,
  rate_type: r.rateType,
  taxable_amount_minor: r.taxableAmountMinor,
  vat_amount_minor: r.vatAmountMinor,
  source_event_count: r.sourceEventCount,
});
const correctionMinor = (c: CorrectionRow) => ({
  member_state_of_consumption: c.memberStateOfConsumption,
  original_period: c.originalPeriod,
  vat_amount_minor: c.vatAmountMinor,
  source_event_count: c.sourceEventCount,
});
const balanceMinor = (b: Balance) => ({
  member_state_of_consumption: b.memberStateOfConsumption,
  current_vat_minor: b.currentVatMinor,
  correction_vat_minor: b.correctionVatMinor,
  balance_minor: b.balanceMinor,
  payable_vat_minor: b.payableVatMinor,
  included_in_grand_total: b.includedInGrandTotal,
});

function header(c: ReturnContext) {
  const r = c.ret;
  return {
    scheme_type: 'union_oss',
    period_key: r.periodKey,
    period_start: c.periodStart,
    period_end: c.periodEnd,
    member_state_identification: r.memberStateIdentification,
    return_currency: r.returnCurrency,
    registration_id: c.registrationId,
    period_status: c.periodStatus,
    ledger_position: c.ledgerPosition,
    generated_at: c.generatedAt,
  };
}

function counts(r: UnionOssReturn) {
  return { total_source_event_count: r.totalSourceEventCount, included_source_event_count: r.includedSourceEventCount, excluded_source_event_count: r.excludedSourceEventCount };
}

const totalsMinor = (r: UnionOssReturn) => ({
  taxable_amount_minor: r.totals.taxableAmountMinor,
  current_vat_minor: r.totals.currentVatMinor,
  correction_vat_minor: r.totals.correctionVatMinor,
  payable_vat_minor: r.totals.payableVatMinor,
});

const ratesJson = (c: ReturnContext) => c.ratesUsed.map((x) => ({ currency: x.currency, period_key: x.periodKey, requested_date: x.requestedDate, rate_date: x.rateDate, rate: x.rate }));

/** The quarterly summary preview (minor units of the return currency). */
export function summaryPreview(c: ReturnContext) {
  const r = c.ret;
  return {
    ...header(c),
    totals: totalsMinor(r),
    rows: r.rows.map(rowMinor),
    corrections: r.corrections.map(correctionMinor),
    balances: r.balances.map(balanceMinor),
    warnings: r.warnings,
    ...counts(r),
    conversion_rule: CONVERSION_RULE,
    exchange_rates: ratesJson(c),
  };
}

/** The per-Member-State breakdown preview (minor units). */
export function countryBreakdownPreview(c: ReturnContext) {
  const r = c.ret;
  return {
    ...header(c),
    totals: totalsMinor(r),
    countries: countryBreakdownOf(r).map((b) => ({ ...balanceMinor(b), taxable_amount_minor: b.taxableAmountMinor, rows: b.rows.map(rowMinor), corrections: b.corrections.map(correctionMinor) })),
    warnings: r.warnings,
    ...counts(r),
    conversion_rule: CONVERSION_RULE,
    exchange_rates: ratesJson(c),
  };
}

// ------------------------------------------------------------------------------------------------
// major units

function majorOf(r: UnionOssReturn) {
  const mu = requireMinorUnits(r.returnCurrency);
  return (v: bigint) => minorToMajor(v, mu);
}
const pct = (bps: number) => minorToMajor(BigInt(bps), 2);

function rowMajor(m: (v: bigint) => string) {
  return (r: ReturnRow) => ({
    section: r.section,
    member_state_of_consumption: r.memberStateOfConsumption,
    origin_member_state: r.originMemberState,
    supply_kind: r.supplyKind,
    vat_rate_pct: pct(r.vatRateBps),
    rate_type: r.rateType,
    taxable_amount: m(r.taxableAmountMinor),
    vat_amount: m(r.vatAmountMinor),
    source_event_count: r.sourceEventCount,
  });
}
function correctionMajor(m: (v: bigint) => string) {
  return (c: CorrectionRow) => ({ member_state_of_consumption: c.memberStateOfConsumption, original_period: c.originalPeriod, vat_amount: m(c.vatAmountMinor), source_event_count: c.sourceEventCount });
}
function balanceMajor(m: (v: bigint) => string) {
  return (b: Balance) => ({
    member_state_of_consumption: b.memberStateOfConsumption,
    current_vat: m(b.currentVatMinor),
    correction_vat: m(b.correctionVatMinor),
    balance: m(b.balanceMinor),
    payable_vat: m(b.payableVatMinor),
    included_in_grand_total: b.includedInGrandTotal,
  });
}
function totalsMajor(r: UnionOssReturn) {
  const m = majorOf(r);
  return { taxable_amount: m(r.totals.taxableAmountMinor), current_vat: m(r.totals.currentVatMinor), correction_vat: m(r.totals.correctionVatMinor), payable_vat: m(r.totals.payableVatMinor) };
}

function summaryMajor(r: UnionOssReturn) {
  const m = majorOf(r);
  return { totals: totalsMajor(r), rows: r.rows.map(rowMajor(m)), corrections: r.corrections.map(correctionMajor(m)), balances: r.balances.map(balanceMajor(m)), warnings: r.warnings };
}

function breakdownMajor(r: UnionOssReturn) {
  const m = majorOf(r);
  return countryBreakdownOf(r).map((b) => ({ ...balanceMajor(m)(b), taxable_amount: m(b.taxableAmountMinor), rows: b.rows.map(rowMajor(m)), corrections: b.corrections.map(correctionMajor(m)) }));
}

export type ExportView = 'summary' | 'country_breakdown';

const EXPORT_KINDS = {
  summary: 'union_oss_quarterly_summary_preview',
  country_breakdown: 'union_oss_country_vat_breakdown_preview',
  accountant_report: 'union_oss_accountant_report_preview',
} as const;

/** The manifest every export and the accountant report carry. */
function manifestOf(c: ReturnContext, exportKind: string, locked = false) {
  const r = c.ret;
  return {
    export_kind: exportKind,
    export_version: EXPORT_VERSION,
    generated_at: c.generatedAt,
    scheme_type: 'union_oss',
    period_key: r.periodKey,
    member_state_identification: r.memberStateIdentification,
    return_currency: r.returnCurrency,
    conversion_rule: CONVERSION_RULE,
    conversion_rule_code: CONVERSION_RULE_CODE,
    scope_note: SCOPE_NOTES[locked ? 'locked' : 'preview'].text,
    scope_note_code: SCOPE_NOTES[locked ? 'locked' : 'preview'].code,
    source_event_counts: { total: r.totalSourceEventCount, included: r.includedSourceEventCount, excluded: r.excludedSourceEventCount },
    warnings: r.warnings,
    ledger_position: c.ledgerPosition,
    registration_id: c.registrationId,
    exchange_rates: ratesJson(c),
  };
}

/** An export package as JSON: the manifest plus the report in major units. */
export function exportJson(c: ReturnContext, view: ExportView, exportKind: string = EXPORT_KINDS[view], locked = false): string {
  const report = view === 'summary' ? summaryMajor(c.ret) : { totals: totalsMajor(c.ret), countries: breakdownMajor(c.ret), warnings: c.ret.warnings };
  return jsonText({ manifest: manifestOf(c, exportKind, locked), report });
}

const MANIFEST_COLUMNS = [
  'export_kind', 'export_version', 'generated_at', 'scheme_type', 'period_key', 'member_state_identification', 'return_currency', 'conversion_rule', 'scope_note',
  'source_event_count_total', 'source_event_count_included', 'source_event_count_excluded', 'warnings', 'ledger_position',
] as const;
const DETAIL_COLUMNS = [
  'record_type', 'section', 'member_state_of_consumption', 'origin_member_state', 'supply_kind', 'vat_rate_pct', 'rate_type', 'original_period',
  'taxable_amount', 'vat_amount', 'current_vat', 'correction_vat', 'balance', 'payable_vat', 'included_in_grand_total', 'source_event_count',
] as const;
const CSV_COLUMNS = [...MANIFEST_COLUMNS, ...DETAIL_COLUMNS];
const NUMBER_COLUMNS = new Set(['export_version', 'source_event_count_total', 'source_event_count_included', 'source_event_count_excluded', 'ledger_position', 'vat_rate_pct', 'taxable_amount', 'vat_amount', 'current_vat', 'correction_vat', 'balance', 'payable_vat', 'source_event_count']);
const KINDS: CsvKind[] = CSV_COLUMNS.map((c) => (NUMBER_COLUMNS.has(c) ? 'number' : 'text'));

type Detail = Partial<Record<(typeof DETAIL_COLUMNS)[number], CsvValue>>;

/**
 * An export package as CSV (layout 2): a header, then one line per row, correction, balance (summary) or
 * country (breakdown) and a total line, each repeating the manifest fields, the notes as their codes. A
 * quarter with nothing included is one manifest-only `nil_return` line with empty detail fields.
 */
export function exportCsv(c: ReturnContext, view: ExportView, exportKind: string = EXPORT_KINDS[view], locked = false): string {
  const r = c.ret;
  const man = manifestOf(c, exportKind, locked);
  const manifest: CsvValue[] = [
    man.export_kind, man.export_version, man.generated_at, man.scheme_type, man.period_key, man.member_state_identification, man.return_currency, man.conversion_rule_code, man.scope_note_code,
    r.totalSourceEventCount, r.includedSourceEventCount, r.excludedSourceEventCount, r.warnings.map((w) => `${w.code}/${w.reason}/${w.review}:${w.count}`).join(';'), c.ledgerPosition,
  ];
  const m = majorOf(r);
  const line = (d: Detail) => csvRow([...manifest, ...DETAIL_COLUMNS.map((k) => d[k] ?? null)], KINDS);
  const rowDetail = (x: ReturnRow): Detail => ({
    record_type: 'row', section: x.section, member_state_of_consumption: x.memberStateOfConsumption, origin_member_state: x.originMemberState, supply_kind: x.supplyKind,
    vat_rate_pct: pct(x.vatRateBps), rate_type: x.rateType, taxable_amount: m(x.taxableAmountMinor), vat_amount: m(x.vatAmountMinor), source_event_count: x.sourceEventCount,
  });
  const correctionDetail = (x: CorrectionRow): Detail => ({ record_type: 'correction', member_state_of_consumption: x.memberStateOfConsumption, original_period: x.originalPeriod, vat_amount: m(x.vatAmountMinor), source_event_count: x.sourceEventCount });
  const balanceDetail = (b: Balance, type: string, taxable?: bigint): Detail => ({
    record_type: type, member_state_of_consumption: b.memberStateOfConsumption, taxable_amount: taxable === undefined ? null : m(taxable), current_vat: m(b.currentVatMinor), correction_vat: m(b.correctionVatMinor),
    balance: m(b.balanceMinor), payable_vat: m(b.payableVatMinor), included_in_grand_total: String(b.includedInGrandTotal),
  });
  let out = csvRow(CSV_COLUMNS, 'text');
  if (r.rows.length === 0 && r.corrections.length === 0) return out + line({ record_type: 'nil_return' });
  if (view === 'summary') {
    for (const x of r.rows) out += line(rowDetail(x));
    for (const x of r.corrections) out += line(correctionDetail(x));
    for (const b of r.balances) out += line(balanceDetail(b, 'balance'));
  } else {
    for (const b of countryBreakdownOf(r)) {
      out += line(balanceDetail(b, 'country', b.taxableAmountMinor));
      for (const x of b.rows) out += line(rowDetail(x));
      for (const x of b.corrections) out += line(correctionDetail(x));
    }
  }
  out += line({ record_type: 'total', taxable_amount: m(r.totals.taxableAmountMinor), current_vat: m(r.totals.currentVatMinor), correction_vat: m(r.totals.correctionVatMinor), payable_vat: m(r.totals.payableVatMinor) });
  return out;
}

/** Filing status of a quarter as the accountant report and a lock state it. */
export function filingStatusOf(r: UnionOssReturn): { status: string; detail: string } {
  if (r.totalSourceEventCount === 0) return { status: 'nil_return', detail: 'No supply events were recorded for the quarter: a nil return may be filed.' };
  if (r.includedSourceEventCount === 0 && r.reviewSourceEventCount > 0) return { status: 'review_required', detail: 'Supply events exist for the quarter but none is included: review the warnings before filing.' };
  if (r.reviewSourceEventCount > 0) return { status: 'ready_with_warnings', detail: 'Some supply events are excluded for reasons that need review: review the warnings marked needs_review before filing.' };
  if (r.includedSourceEventCount === 0 && r.corrections.length === 0) return { status: 'nil_return', detail: 'Every supply event of the quarter is outside the Union scheme by law (informational warnings): a nil return may be filed.' };
  if (r.excludedSourceEventCount > 0) return { status: 'ready', detail: 'Every Union OSS supply of the quarter is included; the excluded events are outside the scheme by law (informational warnings).' };
  return { status: 'ready', detail: 'Every supply event of the quarter is included.' };
}

/** The combined accountant view: manifest, filing context, summary and breakdown in major units. */
export function accountantReport(c: ReturnContext, exportKind: string = EXPORT_KINDS.accountant_report, locked = false): string {
  const r = c.ret;
  const s = filingStatusOf(r);
  return jsonText({
    manifest: manifestOf(c, exportKind, locked),
    filing_context: {
      period_key: r.periodKey,
      period_start: c.periodStart,
      period_end: c.periodEnd,
      filing_due_date: filingDueDate(r.periodKey),
      nil_return_eligible: s.status === 'nil_return',
      status: s.status,
      status_detail: s.detail,
      period_status: c.periodStatus,
      overdue: c.periodStatus !== 'filed' && c.generatedAt.slice(0, 10) > filingDueDate(r.periodKey),
      filing_record: c.filingRecord ? { submission_reference: c.filingRecord.submissionReference, filed_on: c.filingRecord.filedOn, note: c.filingRecord.note, filed_at: c.filingRecord.filedAt } : null,
      registration_id: c.registrationId,
      member_state_identification: r.memberStateIdentification,
      return_currency: r.returnCurrency,
    },
    summary: summaryMajor(r),
    country_breakdown: breakdownMajor(r),
  });
}
