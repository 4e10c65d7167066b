/**
 * The IOSS month computed event by event: the model the grouped read of the service
 * (`iossMonthFromGroups` over repositories/ioss-facts.ts) must agree with, for the tests.
 */
import {
  coverageExclusion,
  IOSS_CONSIGNMENT_CEILING_EUR_MINOR,
  IossMonthTotals,
  monthOf,
  registrationsTouching,
  traitsExclusion,
  type IossExclusionCode,
  type IossMonth,
  type IossRegistration,
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
  const touching = registrationsTouching(month, registrations);
  const m = new IossMonthTotals(month, touching);
  const monthFacts = facts.filter((f) => f.supplyKind === 'imported_goods' && monthOf(f.occurredAt) === month);
  for (const f of [...monthFacts].sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0))) {
    m.count(1);
    // Outside the scheme nothing is reported through it, corrections included: after leaving IOSS a
    // correction is made directly with the Member State of consumption (Art. 61(2) of Reg. 282/2011).
    if (touching.length === 0) {
      m.exclude('ioss_registration_missing_excluded', 1);
      continue;
    }
    const isCorrection = CORRECTION_TYPES.has(f.eventType);
    let sale: IossFact = f;
    let rateMonth = month;
    let originalMonth: string | undefined;
    if (isCorrection) {
      const original = f.originalEventId ? originals.get(f.originalEventId) : undefined;
      if (!original) {
        m.exclude('correction_reference_missing_excluded', 1);
        continue;
      }
      originalMonth = monthOf(original.occurredAt);
      if (original.eventType !== 'sale' || original.supplyKind !== 'imported_goods' || original.countryOfConsumption !== f.countryOfConsumption || original.currency !== f.currency || originalMonth > month) {
        m.exclude('correction_reference_invalid_excluded', 1);
        continue;
      }
      sale = original;
      rateMonth = originalMonth;
    } else if (f.eventType !== 'sale') {
      m.exclude('correction_reference_invalid_excluded', 1);
      continue;
    }
    // The consignment's own facts decide eligibility; a correction follows its sale.
    const why = saleExclusion(sale) ?? (isCorrection ? coverageExclusion(dayOf(sale.occurredAt), registrationsTouching(originalMonth!, registrations)) : coverageExclusion(dayOf(f.occurredAt), touching));
    if (why) {
      m.exclude(why, 1);
      continue;
    }
    const vat = f.currency === 'EUR' ? f.vatAmountMinor : convert(f.vatAmountMinor, f.currency, rateMonth);
    const net = f.currency === 'EUR' ? f.netAmountMinor : convert(f.netAmountMinor, f.currency, rateMonth);
    if (vat === undefined || net === undefined) m.exclude('missing_exchange_rate_excluded', 1);
    else if (isCorrection && originalMonth !== month) m.addCorrection(f.countryOfConsumption, originalMonth!, vat, 1);
    else m.addRow(sale.countryOfConsumption, sale.vatRateBps, net, vat, 1);
  }
  return m.finish();
}
