/**
 * The IOSS month computed event by event: the model the grouped read of the service
 * (`iossMonthFromGroups` over repositories/ioss-facts.ts) must agree with, for the tests.
 */
import {
  assembleMonth,
  coverageExclusion,
  IOSS_CONSIGNMENT_CEILING_EUR_MINOR,
  monthOf,
  registrationsTouching,
  traitsExclusion,
  type IossCorrection,
  type IossExclusionCode,
  type IossMonth,
  type IossRegistration,
  type IossRow,
  type MonthEndConversion,
} from '../src/domain/ioss-months';

export type IossFact = {
  eventId: string;
  sequence: bigint;
  eventType: 'sale' | 'refund' | 'cancellation' | 'credit_note' | 'adjustment' | string;
  originalEventId?: string | null;
  /** The tax point, UTC. */
  occurredAt: Date;
  supplyKind: string;
  customerType: string;
  countryOfConsumption: string;
  currency: string;
  netAmountMinor: bigint;
  vatAmountMinor: bigint;
  vatRateBps: number;
  rateCategory: string;
  classificationStatus: string;
  intrinsicValueEurMinor?: bigint | null;
  thirdCountryOrigin?: string | null;
  exciseGoods?: boolean | null;
};

const CORRECTION_TYPES = new Set(['refund', 'cancellation', 'credit_note', 'adjustment']);

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Why a sale is not an IOSS supply of its month, or undefined when it is (coverage is checked separately). */
function saleExclusion(sale: IossFact): IossExclusionCode | undefined {
  const value = sale.intrinsicValueEurMinor ?? (sale.currency === 'EUR' ? (sale.netAmountMinor < 0n ? -sale.netAmountMinor : sale.netAmountMinor) : undefined);
  return traitsExclusion({
    customerType: sale.customerType,
    classificationStatus: sale.classificationStatus,
    rateCategory: sale.rateCategory,
    exciseGoods: sale.exciseGoods === true,
    hasThirdCountryOrigin: !!sale.thirdCountryOrigin,
    value: value === undefined ? 'unverified' : value > IOSS_CONSIGNMENT_CEILING_EUR_MINOR ? 'above' : 'within',
  });
}

/**
 * One IOSS month. `facts` are the account's imported-goods events of the month (others are
 * ignored); `originals` resolves a correction's `original_event_id` to its event (any month).
 */
export function iossMonth(month: string, facts: readonly IossFact[], originals: ReadonlyMap<string, IossFact>, registrations: readonly IossRegistration[], convert: MonthEndConversion): IossMonth {
  const iossRegs = registrations;
  const touching = registrationsTouching(month, iossRegs);
  const warnings = new Map<IossExclusionCode, number>();
  const rows = new Map<string, IossRow>();
  const corrections = new Map<string, IossCorrection>();
  let total = 0;
  let included = 0;
  const exclude = (code: IossExclusionCode) => warnings.set(code, (warnings.get(code) ?? 0) + 1);

  const monthFacts = facts.filter((f) => f.supplyKind === 'imported_goods' && monthOf(f.occurredAt) === month);
  for (const f of [...monthFacts].sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0))) {
    total++;
    // Outside the scheme nothing is reported through it, corrections included: after leaving IOSS a
    // correction is made directly with the Member State of consumption (Art. 61(2) of Reg. 282/2011).
    if (touching.length === 0) {
      exclude('ioss_registration_missing_excluded');
      continue;
    }
    const isCorrection = CORRECTION_TYPES.has(f.eventType);
    let sale: IossFact = f;
    let rateMonth = month;
    let originalMonth: string | undefined;
    if (isCorrection) {
      const original = f.originalEventId ? originals.get(f.originalEventId) : undefined;
      if (!original) {
        exclude('correction_reference_missing_excluded');
        continue;
      }
      originalMonth = monthOf(original.occurredAt);
      if (original.eventType !== 'sale' || original.supplyKind !== 'imported_goods' || original.countryOfConsumption !== f.countryOfConsumption || original.currency !== f.currency || originalMonth > month) {
        exclude('correction_reference_invalid_excluded');
        continue;
      }
      sale = original;
      rateMonth = originalMonth;
    } else if (f.eventType !== 'sale') {
      exclude('correction_reference_invalid_excluded');
      continue;
    }
    // The consignment's own facts decide eligibility; a correction follows its sale.
    const why = saleExclusion(sale) ?? (isCorrection ? undefined : coverageExclusion(dayOf(f.occurredAt), touching));
    const correctionCoverage = isCorrection ? coverageExclusion(dayOf(sale.occurredAt), registrationsTouching(originalMonth!, iossRegs)) : undefined;
    if (why ?? correctionCoverage) {
      exclude((why ?? correctionCoverage)!);
      continue;
    }
    const vat = f.currency === 'EUR' ? f.vatAmountMinor : convert(f.vatAmountMinor, f.currency, rateMonth);
    const net = f.currency === 'EUR' ? f.netAmountMinor : convert(f.netAmountMinor, f.currency, rateMonth);
    if (vat === undefined || net === undefined) {
      exclude('missing_exchange_rate_excluded');
      continue;
    }
    included++;
    if (isCorrection && originalMonth !== month) {
      const key = `${f.countryOfConsumption}|${originalMonth}`;
      const c = corrections.get(key) ?? { member_state_of_consumption: f.countryOfConsumption, original_period: originalMonth!, vat_amount_minor: 0n };
      c.vat_amount_minor += vat;
      corrections.set(key, c);
      continue;
    }
    // Current month: a same-month correction nets into its sale's row (the sale's rate).
    const key = `${sale.countryOfConsumption}|${sale.vatRateBps}`;
    const row = rows.get(key) ?? { member_state_of_consumption: sale.countryOfConsumption, vat_rate_bps: sale.vatRateBps, taxable_amount_minor: 0n, vat_amount_minor: 0n, source_event_count: 0 };
    row.taxable_amount_minor += net;
    row.vat_amount_minor += vat;
    row.source_event_count++;
    rows.set(key, row);
  }

  return assembleMonth(month, touching, rows, corrections, warnings, total, included);
}
