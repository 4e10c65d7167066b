/**
 * The shared components of the report documents the compliance-reports service builds (Union OSS
 * previews, exports, the Annex III return document, the accountant report, locked periods, IOSS months,
 * filing-prep, multi-jurisdiction, the drill-downs and the filing calendar). The gateway sends those
 * documents' bytes as they are; these schemas describe them member by member, so a generated client is
 * typed to the depth of every answer and the gateway suites' conformance check (conformance.ts) refuses
 * a member the document does not name. Names and enums follow docs/union-oss.md, docs/ioss.md and
 * docs/filing-edges.md; a new member or code in a service answer must be added here.
 */
import { arrayOf, boolean, enumOf, nullable, object, ref, string, strings } from './shapes';

type Schema = Record<string, unknown>;

const timestamp: Schema = { type: 'string', format: 'date-time', description: 'RFC 3339 timestamp (UTC)' };
const date: Schema = { type: 'string', format: 'date', description: 'YYYY-MM-DD' };
const count: Schema = { type: 'integer', minimum: 0 };
const id: Schema = { type: 'integer', minimum: 1 };
const money = ref('MoneyMinor');
const major = ref('MajorAmount');
const country = ref('Country');
const quarter = ref('QuarterKey');
const month = ref('MonthKey');
const text = (description: string): Schema => ({ type: 'string', description });
const only = (value: string | boolean): Schema => (typeof value === 'boolean' ? { type: 'boolean', enum: [value] } : enumOf([value]));

/** The warning codes of the Union OSS preview (spec, "Union OSS report resources"). */
export const UNION_OSS_WARNING_CODES = [
  'classification_excluded',
  'needs_review_excluded',
  'missing_exchange_rate_excluded',
  'correction_reference_missing_excluded',
  'correction_reference_invalid_excluded',
  'unsupported_rate_category_excluded',
  'unsupported_supply_kind_excluded',
] as const;

/** Every reason a Union OSS event is excluded for (a warning code standing for itself, or a finer reason); docs/union-oss.md. */
export const UNION_OSS_EXCLUSION_REASONS = [
  'classification_excluded',
  'needs_review_excluded',
  'missing_exchange_rate_excluded',
  'correction_reference_missing_excluded',
  'correction_reference_invalid_excluded',
  'zero_rate',
  'exempt_rate',
  'rate_not_in_force',
  'imported_goods',
  'b2b_supply',
  'domestic_supply',
  'consumption_outside_eu',
  'new_means_of_transport',
  'installed_goods',
  'b2b_without_vat_number_evidence',
  'dispatch_country_missing',
  'origin_outside_eu',
  'unknown_supply_kind',
] as const;

/** The exclusion codes of an IOSS month (docs/ioss.md). */
export const IOSS_EXCLUSION_CODES = [
  'classification_excluded',
  'needs_review_excluded',
  'unsupported_supply_kind_excluded',
  'unsupported_rate_category_excluded',
  'ioss_registration_missing_excluded',
  'ioss_registration_overlap_excluded',
  'outside_registration_window_excluded',
  'excise_goods_excluded',
  'third_country_origin_missing_excluded',
  'consignment_above_150_eur_excluded',
  'unverified_eur_value_excluded',
  'missing_exchange_rate_excluded',
  'correction_reference_missing_excluded',
  'correction_reference_invalid_excluded',
] as const;

const REVIEW = enumOf(['needs_review', 'informational'], 'needs_review: a data problem to fix; informational: the law keeps the events out of the scheme');
const SECTION = enumOf(['2a', '2b', '2c', '2d'], 'Annex III section: 2a services and 2b goods from the Member State of identification, 2c services from a fixed establishment, 2d goods dispatched from another Member State');
const RATE_TYPE = enumOf(['STANDARD', 'REDUCED']);
const FILING_STATUS = enumOf(['nil_return', 'review_required', 'ready_with_warnings', 'ready'], 'the filing hint of the quarter (docs/union-oss.md)');
const EXPORT_KINDS = [
  'union_oss_quarterly_summary_preview',
  'union_oss_country_vat_breakdown_preview',
  'union_oss_accountant_report_preview',
  'union_oss_accountant_report_locked',
  'union_oss_quarterly_summary_locked',
];
const LOCKED_EXPORT_KINDS = [
  'union_oss_accountant_report_locked',
  'union_oss_accountant_report_pdf_locked',
  'union_oss_quarterly_summary_locked',
  'union_oss_return_locked',
  'union_oss_bzst_upload_locked',
  'union_oss_bzst_manifest_locked',
];

/** The header every Union OSS preview starts with. */
const PREVIEW_HEADER = {
  scheme_type: only('union_oss'),
  period_key: quarter,
  period_start: date,
  period_end: date,
  member_state_identification: country,
  return_currency: ref('Currency'),
  registration_id: id,
  period_status: enumOf(['open', 'locked', 'filed']),
  ledger_position: { type: 'integer', minimum: 0, description: 'the ledger position the figures reflect (the lock\'s for a locked quarter)' },
  generated_at: timestamp,
};
const EVENT_COUNTS = { total_source_event_count: count, included_source_event_count: count, excluded_source_event_count: count };
const PREVIEW_FOOTER = {
  ...EVENT_COUNTS,
  conversion_rule: text('how amounts in other currencies are converted (Art. 366(2) of Directive 2006/112/EC)'),
  exchange_rates: arrayOf(ref('ExchangeRateUsed')),
};

const UNION_OSS_SUMMARY_PROPS = {
  ...PREVIEW_HEADER,
  totals: ref('TotalsMinor'),
  rows: arrayOf(ref('UnionOssRow')),
  corrections: arrayOf(ref('UnionOssCorrection')),
  balances: arrayOf(ref('BalanceMinor')),
  warnings: arrayOf(ref('UnionOssWarning')),
  ...PREVIEW_FOOTER,
};

const BALANCE_MINOR_PROPS = {
  member_state_of_consumption: country,
  current_vat_minor: money,
  correction_vat_minor: money,
  balance_minor: money,
  payable_vat_minor: { ...money, description: 'the balance when positive, else 0: a negative balance never offsets another Member State' },
  included_in_grand_total: boolean,
};
const BALANCE_MAJOR_PROPS = {
  member_state_of_consumption: country,
  current_vat: major,
  correction_vat: major,
  balance: major,
  payable_vat: major,
  included_in_grand_total: boolean,
};
const TAXABLE_SECTION = object({ taxable_amount_minor: money, vat_amount_minor: money, source_event_count: count });

const lockedPeriodProps = {
  scheme_type: only('union_oss'),
  period_key: quarter,
  status: enumOf(['locked', 'filed']),
  filing_status: enumOf(['nil_return', 'review_required', 'ready_with_warnings', 'ready', 'filed']),
  filing_status_detail: string,
  nil_return_eligible: boolean,
  ...EVENT_COUNTS,
  warning_count: count,
  jurisdiction_count: count,
  export_count: { ...count, description: 'with `exports` (absent where the artifacts are not listed)' },
  member_state_identification: country,
  return_currency: ref('Currency'),
  registration_id: id,
  ledger_position: { type: 'integer', minimum: 0 },
  locked_at: timestamp,
  locked_by_api_key_id: id,
  filed_at: nullable(timestamp),
  filed_by_api_key_id: nullable(id),
  filing_record: nullable(ref('FilingRecord')),
  filing_due_date: { ...date, description: 'last day of the month after the quarter (Art. 369f)' },
  overdue: { type: 'boolean', description: 'not filed and past its due date (today, UTC)' },
  exports: arrayOf(ref('LockedExport')),
};

const IOSS_WARNING = object({ code: enumOf(IOSS_EXCLUSION_CODES), count });

/** The names of the report components (listed so `ref` can check them while they are being defined). */
export type ReportComponentName =
  | 'MajorAmount'
  | 'MonthKey'
  | 'ExchangeRateUsed'
  | 'SourceEventCounts'
  | 'TotalsMinor'
  | 'BalanceMinor'
  | 'UnionOssWarning'
  | 'UnionOssRow'
  | 'UnionOssCorrection'
  | 'UnionOssSummary'
  | 'UnionOssCountryBreakdown'
  | 'ExportManifest'
  | 'TotalsMajor'
  | 'UnionOssRowMajor'
  | 'UnionOssCorrectionMajor'
  | 'BalanceMajor'
  | 'UnionOssSummaryMajor'
  | 'UnionOssCountryMajor'
  | 'UnionOssSummaryExport'
  | 'UnionOssBreakdownExport'
  | 'OssReturnSupply'
  | 'OssReturnDocument'
  | 'FilingRecord'
  | 'AccountantReport'
  | 'BzstManifest'
  | 'LockedExport'
  | 'LockedPeriod'
  | 'UnionOssEventPage'
  | 'IossEventPage'
  | 'IossMonth'
  | 'IossQuarter'
  | 'OfficialBasis'
  | 'FilingPrep'
  | 'MultiJurisdiction'
  | 'FilingCalendar'
  | 'TaxRegistration';

/** The report components, merged into the document's `components.schemas` beside the shared ones. */
export const REPORT_COMPONENTS: Record<ReportComponentName, Schema> = {
  MajorAmount: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', description: 'a major-unit decimal string of the return currency (exports and the accountant report), e.g. "93.03"' },
  MonthKey: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'IOSS month YYYY-MM' },
  ExchangeRateUsed: object(
    {
      currency: ref('Currency'),
      period_key: { type: 'string', pattern: '^\\d{4}-(Q[1-4]|0[1-9]|1[0-2])$', description: 'the quarter (Union OSS) or month (IOSS) whose last day the rate is for' },
      requested_date: date,
      rate_date: { ...date, description: 'the publication day used: the requested day or the next one with a publication' },
      rate: { type: 'string', pattern: '^\\d+(\\.\\d+)?$', description: 'ECB euro reference rate: units of the currency per 1 EUR, as published' },
    },
    [],
    'An exchange rate a return used',
  ),
  SourceEventCounts: object({ total: count, included: count, excluded: count }),
  TotalsMinor: object({ taxable_amount_minor: money, current_vat_minor: money, correction_vat_minor: money, payable_vat_minor: money }),
  BalanceMinor: object(BALANCE_MINOR_PROPS, [], 'The balance of one Member State of consumption'),
  UnionOssWarning: object({ code: enumOf(UNION_OSS_WARNING_CODES), reason: enumOf(UNION_OSS_EXCLUSION_REASONS), review: REVIEW, count }, [], 'Excluded events of one code and reason'),
  UnionOssRow: object({
    section: SECTION,
    member_state_of_consumption: country,
    origin_member_state: { ...nullable(country), description: 'the fixed establishment (2c) or dispatch State (2d); null in 2a and 2b' },
    supply_kind: enumOf(['goods', 'services']),
    vat_rate_bps: count,
    rate_type: RATE_TYPE,
    taxable_amount_minor: money,
    vat_amount_minor: money,
    source_event_count: count,
  }),
  UnionOssCorrection: object({ member_state_of_consumption: country, original_period: quarter, vat_amount_minor: money, source_event_count: count }, [], 'A correction of an earlier quarter (Art. 61 of Reg. 282/2011)'),
  UnionOssSummary: object(UNION_OSS_SUMMARY_PROPS, [], 'The Union OSS quarterly summary preview (minor units of the return currency)'),
  UnionOssCountryBreakdown: object(
    {
      ...PREVIEW_HEADER,
      totals: ref('TotalsMinor'),
      countries: arrayOf(object({ ...BALANCE_MINOR_PROPS, taxable_amount_minor: money, rows: arrayOf(ref('UnionOssRow')), corrections: arrayOf(ref('UnionOssCorrection')) })),
      warnings: arrayOf(ref('UnionOssWarning')),
      ...PREVIEW_FOOTER,
    },
    [],
    'The Union OSS breakdown per Member State of consumption (minor units)',
  ),
  ExportManifest: object(
    {
      export_kind: enumOf(EXPORT_KINDS),
      export_version: { type: 'integer', enum: [1] },
      generated_at: timestamp,
      scheme_type: only('union_oss'),
      period_key: quarter,
      member_state_identification: country,
      return_currency: ref('Currency'),
      conversion_rule: string,
      conversion_rule_code: enumOf(['ecb_quarter_end_v1'], 'the conversion rule as the CSV rows carry it (CSV layout 2)'),
      scope_note: string,
      scope_note_code: enumOf(['union_oss_preview_v1', 'union_oss_locked_v1'], 'the scope note as the CSV rows carry it (CSV layout 2)'),
      source_event_counts: ref('SourceEventCounts'),
      warnings: arrayOf(ref('UnionOssWarning')),
      ledger_position: { type: 'integer', minimum: 0 },
      registration_id: id,
      exchange_rates: arrayOf(ref('ExchangeRateUsed')),
    },
    ['conversion_rule_code', 'scope_note_code'],
    'The manifest of every export package and of the accountant report (the two codes are absent from artifacts stored by locks before CSV layout 2)',
  ),
  TotalsMajor: object({ taxable_amount: major, current_vat: major, correction_vat: major, payable_vat: major }),
  UnionOssRowMajor: object({
    section: SECTION,
    member_state_of_consumption: country,
    origin_member_state: nullable(country),
    supply_kind: enumOf(['goods', 'services']),
    vat_rate_pct: { type: 'string', pattern: '^\\d+\\.\\d{2}$', description: 'the VAT rate in percent, two decimals' },
    rate_type: RATE_TYPE,
    taxable_amount: major,
    vat_amount: major,
    source_event_count: count,
  }),
  UnionOssCorrectionMajor: object({ member_state_of_consumption: country, original_period: quarter, vat_amount: major, source_event_count: count }),
  BalanceMajor: object(BALANCE_MAJOR_PROPS),
  UnionOssSummaryMajor: object({
    totals: ref('TotalsMajor'),
    rows: arrayOf(ref('UnionOssRowMajor')),
    corrections: arrayOf(ref('UnionOssCorrectionMajor')),
    balances: arrayOf(ref('BalanceMajor')),
    warnings: arrayOf(ref('UnionOssWarning')),
  }),
  UnionOssCountryMajor: object({ ...BALANCE_MAJOR_PROPS, taxable_amount: major, rows: arrayOf(ref('UnionOssRowMajor')), corrections: arrayOf(ref('UnionOssCorrectionMajor')) }),
  UnionOssSummaryExport: object({ manifest: ref('ExportManifest'), report: ref('UnionOssSummaryMajor') }, [], 'format=json of the quarterly summary export (major units)'),
  UnionOssBreakdownExport: object(
    { manifest: ref('ExportManifest'), report: object({ totals: ref('TotalsMajor'), countries: arrayOf(ref('UnionOssCountryMajor')), warnings: arrayOf(ref('UnionOssWarning')) }) },
    [],
    'format=json of the country breakdown export (major units)',
  ),
  OssReturnSupply: object({ supply_type: enumOf(['GOODS', 'SERVICES']), rate_type: RATE_TYPE, vat_rate_bps: count, taxable_amount_minor: money, vat_amount_minor: money }),
  OssReturnDocument: object(
    {
      document_kind: only('union_oss_return'),
      basis: string,
      period: object({ year: { type: 'integer', minimum: 2021, maximum: 9999 }, quarter: { type: 'integer', minimum: 1, maximum: 4 }, period_key: quarter }),
      member_state_identification: country,
      return_currency: ref('Currency'),
      nil_return: boolean,
      member_states_of_consumption: arrayOf(
        object({
          member_state: country,
          supplies_from_member_state_of_identification: arrayOf(ref('OssReturnSupply')),
          supplies_from_other_member_states: arrayOf(
            object({ member_state: country, vat_identification_number: nullable(string), tax_number: nullable(string), supplies: arrayOf(ref('OssReturnSupply')) }, [], 'a fixed establishment (services, 2c) or dispatch State (goods, 2d)'),
          ),
          corrections: arrayOf(object({ original_period: quarter, vat_amount_minor: money })),
          balance: object({ current_vat_minor: money, correction_vat_minor: money, balance_minor: money, payable_vat_minor: money }),
        }),
      ),
      total_payable_vat_minor: money,
      ledger_position: { type: 'integer', minimum: 0 },
      generated_at: timestamp,
    },
    [],
    'The Union OSS return as Annex III (Part 1) of Implementing Regulation (EU) 2020/194 structures it (minor units of the return currency)',
  ),
  FilingRecord: object({ submission_reference: nullable(string), filed_on: nullable(date), note: nullable(string) }, [], "The filer's record of the submission"),
  AccountantReport: object(
    {
      manifest: ref('ExportManifest'),
      filing_context: object({
        period_key: quarter,
        period_start: date,
        period_end: date,
        filing_due_date: { ...date, description: 'last day of the month after the quarter (Art. 369f)' },
        nil_return_eligible: { type: 'boolean', description: 'true only when no source event was recorded for the quarter' },
        status: FILING_STATUS,
        status_detail: string,
        period_status: enumOf(['open', 'locked', 'filed']),
        overdue: boolean,
        filing_record: nullable(object({ submission_reference: nullable(string), filed_on: nullable(date), note: nullable(string), filed_at: timestamp })),
        registration_id: id,
        member_state_identification: country,
        return_currency: ref('Currency'),
      }),
      summary: ref('UnionOssSummaryMajor'),
      country_breakdown: arrayOf(ref('UnionOssCountryMajor')),
    },
    [],
    'The accountant report (major units)',
  ),
  BzstManifest: object(
    {
      manifest_kind: only('union_oss_bzst_upload_manifest'),
      period_key: quarter,
      member_state_identification: country,
      format: only('bzst-csv'),
      format_version: string,
      sources: strings,
      file_stored: boolean,
      row_count: nullable(count),
      manual_corrections: arrayOf(object({ member_state_of_consumption: string, original_period: quarter, vat_amount: major })),
      manual_corrections_note: string,
      problems: arrayOf(
        object({
          code: enumOf(['negative_vat', 'zero_amount', 'too_many_rows']),
          member_state_of_consumption: nullable(string),
          origin_member_state: nullable(string),
          supply_type: nullable(enumOf(['GOODS', 'SERVICES'])),
          vat_rate_pct: nullable(string),
          detail: string,
        }),
      ),
      ledger_position: { type: 'integer', minimum: 0 },
    },
    [],
    'The manifest stored with a German lock: the BZSt upload file, the corrections to enter by hand, or why no file was stored',
  ),
  LockedExport: object(
    {
      export_id: { type: 'string', format: 'uuid' },
      export_kind: enumOf(LOCKED_EXPORT_KINDS),
      format: enumOf(['json', 'csv', 'pdf']),
      media_type: enumOf(['application/json; charset=utf-8', 'text/csv; charset=utf-8', 'application/pdf']),
      filename: string,
      byte_size: count,
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      created_at: timestamp,
      download_path: text('where GET downloads the artifact'),
    },
    [],
    'A stored artifact of a locked quarter',
  ),
  LockedPeriod: object(lockedPeriodProps, ['export_count', 'exports'], 'A locked Union OSS quarter'),
  UnionOssEventPage: object(
    {
      scheme_type: only('union_oss'),
      period_key: quarter,
      period_status: enumOf(['open', 'locked', 'filed']),
      ledger_position: { type: 'integer', minimum: 0 },
      source: enumOf(['preview', 'sealed_by_lock', 'recomputed_at_lock_position'], 'preview: today\'s return; sealed_by_lock: what the lock sealed; recomputed_at_lock_position: an older lock, recomputed at its position'),
      items: arrayOf(
        object({
          event_id: string,
          ledger_sequence: id,
          event_type: enumOf(['sale', 'refund', 'cancellation', 'credit_note', 'adjustment']),
          occurred_at: timestamp,
          member_state_of_consumption: string,
          supply_kind: enumOf(['goods', 'services', 'imported_goods', 'new_means_of_transport', 'installed_goods']),
          customer_type: enumOf(['b2c', 'b2b']),
          currency: ref('Currency'),
          net_amount_minor: { ...money, description: "minor units of the event's own currency" },
          vat_amount_minor: money,
          late: { type: 'boolean', description: 'recorded after its own quarter was locked: reported here as a correction' },
          disposition: enumOf(['included', 'excluded']),
          warning_code: nullable(enumOf(UNION_OSS_WARNING_CODES)),
          reason: nullable(enumOf(UNION_OSS_EXCLUSION_REASONS)),
          review: nullable(REVIEW),
          vat_number_check_id: { ...nullable(id), description: 'b2b_supply: the VIES check that proved the customer a taxable person (GET /v1/vat-numbers/checks)' },
        }),
      ),
      next_cursor: ref('NextCursor'),
    },
    [],
    'A page of the source events of a Union OSS quarter with their disposition',
  ),
  IossEventPage: object(
    {
      scheme_type: only('ioss'),
      period_key: month,
      items: arrayOf(
        object({
          event_id: string,
          ledger_sequence: id,
          event_type: enumOf(['sale', 'refund', 'cancellation', 'credit_note', 'adjustment']),
          occurred_at: timestamp,
          member_state_of_consumption: string,
          currency: ref('Currency'),
          net_amount_minor: money,
          vat_amount_minor: money,
          disposition: enumOf(['included', 'excluded']),
          warning_code: nullable(enumOf(IOSS_EXCLUSION_CODES)),
          reason: { ...nullable(enumOf(IOSS_EXCLUSION_CODES)), description: 'the exclusion code (as warning_code)' },
          review: nullable(REVIEW),
        }),
      ),
      next_cursor: ref('NextCursor'),
    },
    [],
    'A page of the imported-goods events of an IOSS month with their disposition',
  ),
  IossMonth: object(
    {
      period_key: month,
      due_date: { ...date, description: 'last day of the month after the month (Art. 369v)' },
      status: enumOf(['not_covered', 'registration_conflict', 'nil_return_candidate', 'review_required', 'ready']),
      registration_ids: arrayOf(id),
      return_currency: only('EUR'),
      rows: arrayOf(object({ member_state_of_consumption: country, vat_rate_bps: count, taxable_amount_minor: money, vat_amount_minor: money, source_event_count: count })),
      corrections: arrayOf(object({ member_state_of_consumption: country, original_period: month, vat_amount_minor: money })),
      balances: arrayOf(ref('BalanceMinor')),
      totals: ref('TotalsMinor'),
      warnings: arrayOf(IOSS_WARNING),
      source_event_counts: ref('SourceEventCounts'),
    },
    [],
    'One IOSS month (EUR minor units)',
  ),
  IossQuarter: object({
    scheme_type: only('ioss'),
    return_currency: only('EUR'),
    months: arrayOf(ref('IossMonth')),
    conversion_rule: string,
    exchange_rates: arrayOf(ref('ExchangeRateUsed')),
  }),
  OfficialBasis: object({ instrument: string, article: string, topic: string }, [], 'A legal anchor of a report'),
  FilingPrep: object(
    {
      report_kind: only('oss_ioss_filing_prep_workspace'),
      period_key: quarter,
      generated_at: timestamp,
      registrations: arrayOf(ref('TaxRegistration')),
      union_oss: {
        description: 'the Union OSS quarter, or why it cannot be reported (eligible false)',
        oneOf: [
          object({ eligible: only(true), ...UNION_OSS_SUMMARY_PROPS }),
          object({ eligible: only(false), error: enumOf(['registration_required', 'registration_conflict']), detail: string, blocking_registration_ids: arrayOf(id) }),
        ],
      },
      ioss: ref('IossQuarter'),
      return_period: { ...nullable(ref('LockedPeriod')), description: 'the lock of the quarter (its artifacts are listed by the locked-periods route), or null' },
      official_basis: arrayOf(ref('OfficialBasis')),
    },
    [],
    'The OSS/IOSS filing-prep workspace of a quarter',
  ),
  MultiJurisdiction: object(
    {
      report_kind: only('oss_ioss_multi_jurisdiction_preview'),
      period_key: quarter,
      generated_at: timestamp,
      union_oss: ref('UnionOssSummary'),
      ioss: ref('IossQuarter'),
      jurisdictions: arrayOf(
        object({
          member_state_of_consumption: country,
          union_oss: object({
            return_currency: ref('Currency'),
            sections: object({ '2a': TAXABLE_SECTION, '2b': TAXABLE_SECTION, '2c': TAXABLE_SECTION, '2d': TAXABLE_SECTION }),
            correction_vat_minor: money,
            balance_minor: money,
            payable_vat_minor: money,
            source_event_count: count,
          }),
          ioss: object({
            return_currency: only('EUR'),
            taxable_amount_minor: money,
            current_vat_minor: money,
            correction_vat_minor: money,
            payable_vat_minor: money,
            months: arrayOf(month),
            source_event_count: count,
          }),
          event_counts: object({ union_oss: count, ioss: count, total: count }),
        }),
      ),
      warnings: arrayOf({
        oneOf: [
          object({ scheme_type: only('union_oss'), period_key: quarter, code: enumOf(UNION_OSS_WARNING_CODES), reason: enumOf(UNION_OSS_EXCLUSION_REASONS), review: REVIEW, count }),
          object({ scheme_type: only('ioss'), period_key: month, code: enumOf(IOSS_EXCLUSION_CODES), count }),
        ],
      }),
      official_basis: arrayOf(ref('OfficialBasis')),
    },
    [],
    'Filing exposure per Member State of consumption: Union OSS sections 2a-2d and the IOSS months',
  ),
  FilingCalendar: object({
    from: date,
    to: date,
    today: date,
    periods: arrayOf(
      object({
        scheme_type: enumOf(['union_oss', 'ioss']),
        period_key: { type: 'string', pattern: '^\\d{4}-(Q[1-4]|0[1-9]|1[0-2])$', description: 'YYYY-Qn (union_oss) or YYYY-MM (ioss)' },
        period_start: date,
        period_end: date,
        due_date: { ...date, description: 'last day of the month after the period (Arts. 369f, 369v of Directive 2006/112/EC)' },
        status: enumOf(['not_due', 'due', 'overdue', 'locked', 'filed', 'nil_return_due']),
        overdue: { type: 'boolean', description: 'not filed by its due date (also for nil_return_due)' },
        registration_ids: arrayOf(id),
        source_event_count: count,
        locked: boolean,
        filed_at: nullable(timestamp),
        submission_reference: nullable(string),
        filed_on: nullable(date),
      }),
    ),
  }),
  TaxRegistration: object({
    id,
    scheme_type: enumOf(['union_oss', 'non_union_oss', 'ioss']),
    member_state_identification: country,
    vat_registration_number_masked: nullable(string),
    ioss_intermediary_name: nullable(string),
    ioss_intermediary_number_masked: nullable(string),
    effective_from: date,
    effective_to: nullable(date),
    status: enumOf(['active', 'pending', 'ended', 'excluded']),
    counts_toward_coverage: boolean,
    coverage_status: enumOf(['counted', 'pending', 'excluded', 'cleanup_required']),
    conflicting_registration_ids: arrayOf(id),
  }),
};

/** The stored JSON artifacts a lock keeps (downloaded byte-identical). */
export const STORED_JSON_ARTIFACT: Schema = {
  description: 'a stored JSON artifact: the accountant report, the Annex III return document or the BZSt manifest (locked with this version)',
  anyOf: [ref('AccountantReport'), ref('OssReturnDocument'), ref('BzstManifest')],
};
