/**
 * IOSS months (Import One-Stop Shop, Art. 369l–369x of Directive 2006/112/EC): the monthly return of
 * distance sales of goods imported from third territories, computed from committed supply events.
 *
 * Pure: facts, registrations and currency conversion are given; nothing here reads the database or
 * the clock. Every amount is an integer number of minor units (bigint).
 *
 * Rules (docs/ioss.md):
 * - Only `imported_goods` events are IOSS supplies; a month's events are those whose tax point
 *   (`occurred_at`, UTC) falls in it. B2B imports are not distance sales (`unsupported_supply_kind_excluded`).
 * - Coverage: an `ioss` registration with status `active` or `ended` whose window contains the day.
 *   A month no such registration touches is `not_covered` (all its events, corrections included,
 *   `ioss_registration_missing_excluded`: outside the scheme a correction goes to the State directly);
 *   a day two registrations cover is `ioss_registration_overlap_excluded`; a day outside the window of the
 *   month's registration is `outside_registration_window_excluded`.
 * - A consignment must be non-excise (`excise_goods_excluded`), of a known third-country origin
 *   (`third_country_origin_missing_excluded`) and of an intrinsic value of at most EUR 150
 *   (15000 minor units, Art. 369l(1)) (`consignment_above_150_eur_excluded`). The value tested is
 *   `intrinsic_value_eur_minor`; an EUR event without it is tested on its net amount; a non-EUR event
 *   without it has no verified EUR value (`unverified_eur_value_excluded`).
 * - Amounts are converted into EUR per event, half-up, at the rate of the last day of the month
 *   (Art. 369v: the rate published that day or, failing that, the next publication day; the caller's
 *   `convert` applies it); no rate → `missing_exchange_rate_excluded`.
 * - Corrections: a refund, cancellation, credit note or adjustment names its sale. Same month: netted
 *   into the month's rows. Earlier month: a correction keyed by Member State of consumption and
 *   original month, VAT only, converted at the original month's rate (Art. 61 of Reg. 282/2011 as for
 *   Union OSS). Missing original → `correction_reference_missing_excluded`; an original that is not an
 *   imported-goods sale of the same country and currency, or is later than the correction →
 *   `correction_reference_invalid_excluded`. A correction of an excluded sale is excluded for the same reason.
 * - Balance per Member State = current VAT + correction VAT; payable = the balance when positive; a
 *   negative balance never offsets another State.
 */

export const IOSS_CONSIGNMENT_CEILING_EUR_MINOR = 15000n;

export type IossRegistration = {
  id: bigint;
  status: string;
  /** YYYY-MM-DD, inclusive. */
  effectiveFrom: string;
  /** YYYY-MM-DD, inclusive; open-ended when absent. */
  effectiveTo?: string | null;
};

/** EUR minor units of `amountMinor` of `currency` at the rate for the last day of `month` (YYYY-MM); undefined without a rate. */
export type MonthEndConversion = (amountMinor: bigint, currency: string, month: string) => bigint | undefined;

export type IossExclusionCode =
  | 'classification_excluded'
  | 'needs_review_excluded'
  | 'unsupported_supply_kind_excluded'
  | 'unsupported_rate_category_excluded'
  | 'ioss_registration_missing_excluded'
  | 'ioss_registration_overlap_excluded'
  | 'outside_registration_window_excluded'
  | 'excise_goods_excluded'
  | 'third_country_origin_missing_excluded'
  | 'consignment_above_150_eur_excluded'
  | 'unverified_eur_value_excluded'
  | 'missing_exchange_rate_excluded'
  | 'correction_reference_missing_excluded'
  | 'correction_reference_invalid_excluded';

type IossMonthStatus = 'not_covered' | 'registration_conflict' | 'nil_return_candidate' | 'review_required' | 'ready';

export type IossRow = { member_state_of_consumption: string; vat_rate_bps: number; taxable_amount_minor: bigint; vat_amount_minor: bigint; source_event_count: number };
export type IossCorrection = { member_state_of_consumption: string; original_period: string; vat_amount_minor: bigint };
type IossBalance = { member_state_of_consumption: string; current_vat_minor: bigint; correction_vat_minor: bigint; balance_minor: bigint; payable_vat_minor: bigint; included_in_grand_total: boolean };

export type IossMonth = {
  period_key: string;
  /** Last day of the month after the period (Art. 369v). */
  due_date: string;
  status: IossMonthStatus;
  /** The registrations (ids) whose window touches the month. */
  registration_ids: bigint[];
  return_currency: 'EUR';
  rows: IossRow[];
  corrections: IossCorrection[];
  balances: IossBalance[];
  totals: { taxable_amount_minor: bigint; current_vat_minor: bigint; correction_vat_minor: bigint; payable_vat_minor: bigint };
  warnings: { code: IossExclusionCode; count: number }[];
  source_event_counts: { total: number; included: number; excluded: number };
};

const COUNTING = new Set(['active', 'ended']);

/** YYYY-MM of a UTC instant. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** First and last day (YYYY-MM-DD) of a YYYY-MM month. */
export function monthBounds(month: string): { first: string; last: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { first: `${month}-01`, last };
}

/** The three months (YYYY-MM) of a `YYYY-Qn` quarter. */
export function monthsOfQuarter(periodKey: string): [string, string, string] {
  const m = /^(\d{4})-Q([1-4])$/.exec(periodKey);
  if (!m) throw new Error(`not a quarter: ${periodKey}`);
  const first = (Number(m[2]) - 1) * 3 + 1;
  return [0, 1, 2].map((i) => `${m[1]}-${String(first + i).padStart(2, '0')}`) as [string, string, string];
}

/** The IOSS payment and return deadline: the last day of the month after `month` (Art. 369v). */
export function iossDueDate(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m + 1, 0)).toISOString().slice(0, 10);
}

/** The counting registrations whose window touches the month. */
export function registrationsTouching(month: string, regs: readonly IossRegistration[]): IossRegistration[] {
  const { first, last } = monthBounds(month);
  return regs.filter((r) => COUNTING.has(r.status) && r.effectiveFrom <= last && (r.effectiveTo == null || r.effectiveTo >= first));
}

function covering(day: string, regs: readonly IossRegistration[]): IossRegistration[] {
  return regs.filter((r) => r.effectiveFrom <= day && (r.effectiveTo == null || r.effectiveTo >= day));
}

/** Why a day's event is outside IOSS coverage (none, two or no covering registration), or undefined when covered. */
export function coverageExclusion(day: string, touching: readonly IossRegistration[]): IossExclusionCode | undefined {
  if (touching.length === 0) return 'ioss_registration_missing_excluded';
  const cover = covering(day, touching);
  if (cover.length > 1) return 'ioss_registration_overlap_excluded';
  if (cover.length === 0) return 'outside_registration_window_excluded';
  return undefined;
}

/**
 * One month being summed, event by event or group by group: its rows (by State of consumption and rate),
 * its corrections of earlier months (by State and original month, VAT only) and its exclusions.
 */
export class IossMonthTotals {
  private readonly warnings = new Map<IossExclusionCode, number>();
  private readonly rows = new Map<string, IossRow>();
  private readonly corrections = new Map<string, IossCorrection>();
  private total = 0;
  private included = 0;

  constructor(
    private readonly month: string,
    private readonly touching: readonly IossRegistration[],
  ) {}

  /** `n` events of the month, whatever becomes of them. */
  count(n: number): void {
    this.total += n;
  }

  exclude(code: IossExclusionCode, n: number): void {
    this.warnings.set(code, (this.warnings.get(code) ?? 0) + n);
  }

  /** `n` corrections of sales of `originalMonth`, an earlier month. */
  addCorrection(country: string, originalMonth: string, vat: bigint, n: number): void {
    this.included += n;
    const key = `${country}|${originalMonth}`;
    const c = this.corrections.get(key) ?? { member_state_of_consumption: country, original_period: originalMonth, vat_amount_minor: 0n };
    c.vat_amount_minor += vat;
    this.corrections.set(key, c);
  }

  /** `n` events counted in the month's own row (a same-month correction nets into its sale's row). */
  addRow(country: string, vatRateBps: number, net: bigint, vat: bigint, n: number): void {
    this.included += n;
    const key = `${country}|${vatRateBps}`;
    const row = this.rows.get(key) ?? { member_state_of_consumption: country, vat_rate_bps: vatRateBps, taxable_amount_minor: 0n, vat_amount_minor: 0n, source_event_count: 0 };
    row.taxable_amount_minor += net;
    row.vat_amount_minor += vat;
    row.source_event_count += n;
    this.rows.set(key, row);
  }

  finish(): IossMonth {
    return assembleMonth(this.month, this.touching, this.rows, this.corrections, this.warnings, this.total, this.included);
  }
}

function assembleMonth(
  month: string,
  touching: readonly IossRegistration[],
  rows: ReadonlyMap<string, IossRow>,
  corrections: ReadonlyMap<string, IossCorrection>,
  warnings: ReadonlyMap<IossExclusionCode, number>,
  total: number,
  included: number,
): IossMonth {
  const sortedRows = [...rows.values()].sort((a, b) => a.member_state_of_consumption.localeCompare(b.member_state_of_consumption) || a.vat_rate_bps - b.vat_rate_bps);
  const sortedCorrections = [...corrections.values()].sort((a, b) => a.member_state_of_consumption.localeCompare(b.member_state_of_consumption) || a.original_period.localeCompare(b.original_period));
  const states = [...new Set([...sortedRows.map((r) => r.member_state_of_consumption), ...sortedCorrections.map((c) => c.member_state_of_consumption)])].sort();
  const balances: IossBalance[] = states.map((ms) => {
    const current = sortedRows.filter((r) => r.member_state_of_consumption === ms).reduce((s, r) => s + r.vat_amount_minor, 0n);
    const correction = sortedCorrections.filter((c) => c.member_state_of_consumption === ms).reduce((s, c) => s + c.vat_amount_minor, 0n);
    const balance = current + correction;
    return { member_state_of_consumption: ms, current_vat_minor: current, correction_vat_minor: correction, balance_minor: balance, payable_vat_minor: balance > 0n ? balance : 0n, included_in_grand_total: balance > 0n };
  });

  const overlapping = touching.length > 1 && hasOverlap(month, touching);
  const status: IossMonthStatus = touching.length === 0 ? 'not_covered' : overlapping ? 'registration_conflict' : total === 0 ? 'nil_return_candidate' : included === 0 ? 'review_required' : 'ready';
  return {
    period_key: month,
    due_date: iossDueDate(month),
    status,
    registration_ids: touching.map((r) => r.id),
    return_currency: 'EUR',
    rows: sortedRows,
    corrections: sortedCorrections,
    balances,
    totals: {
      taxable_amount_minor: sortedRows.reduce((s, r) => s + r.taxable_amount_minor, 0n),
      current_vat_minor: balances.reduce((s, b) => s + b.current_vat_minor, 0n),
      correction_vat_minor: balances.reduce((s, b) => s + b.correction_vat_minor, 0n),
      payable_vat_minor: balances.reduce((s, b) => s + b.payable_vat_minor, 0n),
    },
    warnings: [...warnings.entries()].map(([code, count]) => ({ code, count })).sort((a, b) => a.code.localeCompare(b.code)),
    source_event_counts: { total, included, excluded: total - included },
  };
}

/** The facts of a sale that decide whether it is an IOSS consignment (the grouped read computes them in SQL). */
type IossSaleTraits = {
  customerType: string;
  classificationStatus: string;
  rateCategory: string;
  exciseGoods: boolean;
  hasThirdCountryOrigin: boolean;
  /** The EUR 150 test: `intrinsic_value_eur_minor`, else an EUR event's absolute net amount; `unverified` without either. */
  value: 'within' | 'above' | 'unverified';
};

/**
 * Events of one month that are alike in everything the month's computation reads (the grouped SQL read,
 * repositories/ioss-facts.ts). `sale` is the sale whose facts decide eligibility: the event itself, or a
 * correction's valid original; `day` is a day of that sale's month with the same registration coverage
 * as its tax point. Events in a currency other than EUR are grouped by amount (`unitNet`, `unitVat`),
 * because each is converted on its own.
 */
export type IossGroup = {
  month: string;
  kind: 'sale' | 'correction' | 'other';
  link: 'none' | 'missing' | 'invalid' | 'ok';
  sale: { day: string; countryOfConsumption: string; vatRateBps: number; traits: IossSaleTraits } | null;
  countryOfConsumption: string;
  currency: string;
  count: number;
  netSum: bigint;
  vatSum: bigint;
  unitNet: bigint | null;
  unitVat: bigint | null;
};

/** The sorted days on which the IOSS coverage can change: each registration's first day and the day after its last. */
export function coverageBoundaries(registrations: readonly IossRegistration[]): string[] {
  const days = new Set<string>();
  for (const r of registrations) {
    days.add(r.effectiveFrom);
    if (r.effectiveTo != null) days.add(new Date(Date.parse(`${r.effectiveTo}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
  }
  return [...days].sort();
}

/** The documented (docs/ioss.md) order of the sale's own exclusions. */
export function traitsExclusion(t: IossSaleTraits): IossExclusionCode | undefined {
  if (t.customerType !== 'b2c') return 'unsupported_supply_kind_excluded';
  if (t.classificationStatus === 'needs_review') return 'needs_review_excluded';
  if (t.classificationStatus !== 'classified') return 'classification_excluded';
  if (t.rateCategory === 'zero' || t.rateCategory === 'exempt') return 'unsupported_rate_category_excluded';
  if (t.exciseGoods) return 'excise_goods_excluded';
  if (!t.hasThirdCountryOrigin) return 'third_country_origin_missing_excluded';
  if (t.value === 'unverified') return 'unverified_eur_value_excluded';
  if (t.value === 'above') return 'consignment_above_150_eur_excluded';
  return undefined;
}

/**
 * One IOSS month from the grouped read: the same answer as the event-by-event model over the month's events
 * (test/ioss-month-model.ts; the property test in test/ioss-facts.test.ts compares them on random quarters), with work and memory
 * following the number of groups, not of events.
 */
export function iossMonthFromGroups(month: string, groups: readonly IossGroup[], registrations: readonly IossRegistration[], convert: MonthEndConversion): IossMonth {
  const touching = registrationsTouching(month, registrations);
  const m = new IossMonthTotals(month, touching);
  for (const g of groups) {
    if (g.month !== month) continue;
    m.count(g.count);
    const p = iossPlacementOf(month, g, touching, registrations, convert);
    if ('excluded' in p) m.exclude(p.excluded, g.count);
    else if (p.kind === 'correction') m.addCorrection(p.country, p.originalMonth, p.vat, g.count);
    else m.addRow(p.country, p.vatRateBps, p.net, p.vat, g.count);
  }
  return m.finish();
}

/** Where a group of the month goes: its exclusion, or its row or earlier-month correction with the converted amounts. */
export type IossPlacement =
  | { excluded: IossExclusionCode }
  | { kind: 'row'; country: string; vatRateBps: number; net: bigint; vat: bigint }
  | { kind: 'correction'; country: string; originalMonth: string; vat: bigint };

/** One group's place in its month (`touching`: the registrations touching the month), the README order of exclusions. */
export function iossPlacementOf(month: string, g: IossGroup, touching: readonly IossRegistration[], registrations: readonly IossRegistration[], convert: MonthEndConversion): IossPlacement {
  if (touching.length === 0) return { excluded: 'ioss_registration_missing_excluded' };
  if (g.kind === 'other' || g.link === 'invalid') return { excluded: 'correction_reference_invalid_excluded' };
  if (g.link === 'missing') return { excluded: 'correction_reference_missing_excluded' };
  const sale = g.sale!;
  const saleMonth = sale.day.slice(0, 7);
  const why = traitsExclusion(sale.traits) ?? coverageExclusion(sale.day, g.kind === 'sale' ? touching : registrationsTouching(saleMonth, registrations));
  if (why) return { excluded: why };
  let net: bigint | undefined = g.netSum;
  let vat: bigint | undefined = g.vatSum;
  if (g.currency !== 'EUR') {
    const unitNet = convert(g.unitNet!, g.currency, saleMonth);
    const unitVat = convert(g.unitVat!, g.currency, saleMonth);
    net = unitNet === undefined ? undefined : unitNet * BigInt(g.count);
    vat = unitVat === undefined ? undefined : unitVat * BigInt(g.count);
  }
  if (vat === undefined || net === undefined) return { excluded: 'missing_exchange_rate_excluded' };
  if (g.kind === 'correction' && saleMonth !== month) return { kind: 'correction', country: g.countryOfConsumption, originalMonth: saleMonth, vat };
  return { kind: 'row', country: sale.countryOfConsumption, vatRateBps: sale.vatRateBps, net, vat };
}

/** Exclusions the law makes (not a data problem): B2B imports, excise goods and consignments above EUR 150 are outside IOSS (Art. 369l). */
export const IOSS_INFORMATIONAL = new Set<IossExclusionCode>(['unsupported_supply_kind_excluded', 'excise_goods_excluded', 'consignment_above_150_eur_excluded']);
export const IOSS_EXCLUSION_CODES: readonly IossExclusionCode[] = [
  'classification_excluded', 'needs_review_excluded', 'unsupported_supply_kind_excluded', 'unsupported_rate_category_excluded', 'ioss_registration_missing_excluded',
  'ioss_registration_overlap_excluded', 'outside_registration_window_excluded', 'excise_goods_excluded', 'third_country_origin_missing_excluded',
  'consignment_above_150_eur_excluded', 'unverified_eur_value_excluded', 'missing_exchange_rate_excluded', 'correction_reference_missing_excluded', 'correction_reference_invalid_excluded',
];

/** True when two of the registrations share a day inside the month. */
function hasOverlap(month: string, regs: readonly IossRegistration[]): boolean {
  const { first, last } = monthBounds(month);
  for (let i = 0; i < regs.length; i++) {
    for (let j = i + 1; j < regs.length; j++) {
      const a = regs[i]!;
      const b = regs[j]!;
      const from = [a.effectiveFrom, b.effectiveFrom, first].sort()[2]!;
      const to = [a.effectiveTo ?? '9999-12-31', b.effectiveTo ?? '9999-12-31', last].sort()[0]!;
      if (from <= to) return true;
    }
  }
  return false;
}
