/**
 * The filing-prep workspace and the multi-jurisdiction preview of a quarter: the Union OSS return
 * (union-oss-report.ts) beside the quarter's three IOSS months (domain/ioss-months.ts), each month
 * converted at its own month-end ECB rate (Art. 369v). Amounts are integers of minor units (EUR for IOSS).
 */
import { requireMinorUnits } from '@vat/platform/currencies';
import { currencyToEurMinor, type EcbRate } from '@vat/platform/fx';
import type { Principal } from '@vat/platform/principal';
import type { ComplianceReportsDeps } from './context';
import { coverageOf, unionOssRegistrationFor } from './domain/coverage';
import { coverageBoundaries, iossMonthFromGroups, iossPlacementOf, monthBounds, monthsOfQuarter, registrationsTouching, type IossExclusionCode, type IossMonth, type IossRegistration } from './domain/ioss-months';
import type { IossEvent } from './repositories/ioss-facts';
import { summaryPreview, type ReturnContext } from './domain/union-oss-documents';
import { countryBreakdownOf, type Section } from './domain/union-oss-return';
import type { RegistrationRecord } from './repositories/tax-registrations';
import { buildReturn, unionOssQuarter } from './union-oss-report';
import { lockedPeriodJson } from './union-oss-messages';

const OFFICIAL_BASIS = [
  { instrument: 'Directive 2006/112/EC', article: 'Art. 369g', topic: 'Union OSS VAT return: content per Member State of consumption' },
  { instrument: 'Directive 2006/112/EC', article: 'Art. 369l-369x', topic: 'Import One-Stop Shop (IOSS): consignments of an intrinsic value not exceeding EUR 150, monthly return, payment' },
  { instrument: 'Directive 2006/112/EC', article: 'Art. 366(2)', topic: 'Union OSS conversion at the ECB rate of the last day of the return period' },
  { instrument: 'Directive 2006/112/EC', article: 'Art. 369v', topic: 'IOSS monthly return in EUR, due by the end of the following month; month-end ECB rate' },
  { instrument: 'Implementing Regulation (EU) No 282/2011', article: 'Art. 61', topic: 'Corrections of earlier returns in a later return' },
  { instrument: 'Implementing Regulation (EU) 2020/194', article: 'Annex III', topic: 'Union OSS return layout (sections 2a-2d)' },
];

const IOSS_CONVERSION_RULE =
  'IOSS amounts in other currencies are converted into EUR per event, half-up, at the ECB euro reference rate of the last day of the month or, when none was published that day, of the next publication day (Art. 369v of Directive 2006/112/EC); corrections of an earlier month at that month\'s rate.';

/** A registration as `GET /v1/tax-registrations` shows it (masked identifiers only). */
export function registrationJson(r: RegistrationRecord, all: readonly RegistrationRecord[]) {
  const c = coverageOf(r, all);
  return {
    id: r.id,
    scheme_type: r.schemeType,
    member_state_identification: r.memberStateIdentification,
    vat_registration_number_masked: r.vatRegistrationNumberMasked ?? null,
    ioss_intermediary_name: r.iossIntermediaryName ?? null,
    ioss_intermediary_number_masked: r.iossIntermediaryNumberMasked ?? null,
    effective_from: r.effectiveFrom,
    effective_to: r.effectiveTo ?? null,
    status: r.status,
    counts_toward_coverage: c.counts,
    coverage_status: c.status,
    conflicting_registration_ids: c.conflictingIds,
  };
}

type RateUsed = { currency: string; period_key: string; requested_date: string; rate_date: string; rate: string };
type IossQuarter = { months: IossMonth[]; exchangeRates: RateUsed[] };

/**
 * The quarter's three IOSS months of the caller's account, from one grouped read. The months are folded
 * twice: first to learn which (currency, month) rates the included events need (a rate is asked only for
 * an event that reaches the conversion step), then with those rates.
 */
async function iossQuarter(deps: ComplianceReportsDeps, caller: Principal, periodKey: string, registrations: readonly RegistrationRecord[]): Promise<IossQuarter> {
  const quarter = unionOssQuarter(periodKey);
  const months = monthsOfQuarter(periodKey);
  const endExclusive = new Date(Date.parse(`${quarter.end}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const ioss = iossRegistrationsOf(registrations);
  const groups = await deps.iossFacts.quarterGroups(caller.accountId, quarter.start, endExclusive, coverageBoundaries(ioss));
  const needed = new Map<string, { currency: string; month: string }>();
  for (const m of months) {
    iossMonthFromGroups(m, groups, ioss, (amount, currency, month) => {
      needed.set(`${currency}|${month}`, { currency, month });
      return amount;
    });
  }
  const { convert, used } = await monthEndRates(deps, needed.values());
  return { months: months.map((m) => iossMonthFromGroups(m, groups, ioss, convert)), exchangeRates: used };
}

/** Month-end ECB rates (Art. 369v: the last day of the month or the next publication day) of the (currency, month) pairs, as a per-event EUR conversion. */
async function monthEndRates(deps: ComplianceReportsDeps, needed: Iterable<{ currency: string; month: string }>) {
  const rates = new Map<string, EcbRate>();
  const used: RateUsed[] = [];
  const queries = [...needed].map((n) => ({ ...n, date: monthBounds(n.month).last }));
  const hits = await deps.reference.ratesOnOrNextPublication(queries);
  hits.forEach((hit, j) => {
    const q = queries[j]!;
    if (!hit) return;
    rates.set(`${q.currency}|${q.month}`, hit.rate);
    used.push({ currency: q.currency, period_key: q.month, requested_date: q.date, rate_date: hit.rateDate, rate: hit.rate.decimal });
  });
  used.sort((a, b) => (a.period_key + a.currency < b.period_key + b.currency ? -1 : 1));
  const convert = (amount: bigint, currency: string, month: string) => {
    const rate = rates.get(`${currency}|${month}`);
    return rate ? currencyToEurMinor(amount, rate, requireMinorUnits(currency)) : undefined;
  };
  return { convert, used };
}

/** The registrations of the `ioss` scheme as the month computation reads them. */
const iossRegistrationsOf = (registrations: readonly RegistrationRecord[]): IossRegistration[] =>
  registrations.filter((r) => r.schemeType === 'ioss').map((r) => ({ id: r.id, status: r.status, effectiveFrom: r.effectiveFrom, effectiveTo: r.effectiveTo ?? null }));

/** One imported-goods event of an IOSS month with its disposition (the month computation's own decision). */
export type IossMonthEvent = IossEvent & { disposition: 'included' | 'excluded'; code: IossExclusionCode | null };

/**
 * The events of one IOSS month (`YYYY-MM`) in ledger order after `after`, each with its disposition: the
 * same decision as the month's figures (`iossPlacementOf`), rates asked only for events that reach conversion.
 */
export async function iossMonthEvents(deps: ComplianceReportsDeps, caller: Principal, month: string, after: bigint, memberState: string | null): Promise<IossMonthEvent[]> {
  const ioss = iossRegistrationsOf(await deps.registrations.list(caller.accountId));
  const { first, last } = monthBounds(month);
  const endExclusive = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const events = await deps.iossFacts.events(caller.accountId, first, endExclusive, coverageBoundaries(ioss), after, memberState);
  const touching = registrationsTouching(month, ioss);
  const needed = new Map<string, { currency: string; month: string }>();
  for (const e of events) {
    iossPlacementOf(month, e.group, touching, ioss, (amount, currency, m) => {
      needed.set(`${currency}|${m}`, { currency, month: m });
      return amount;
    });
  }
  const { convert } = await monthEndRates(deps, needed.values());
  return events.map((e) => {
    const p = iossPlacementOf(month, e.group, touching, ioss, convert);
    return { ...e, disposition: 'excluded' in p ? 'excluded' : 'included', code: 'excluded' in p ? p.excluded : null };
  });
}

function iossJson(q: IossQuarter) {
  return { scheme_type: 'ioss', return_currency: 'EUR', months: q.months, conversion_rule: IOSS_CONVERSION_RULE, exchange_rates: q.exchangeRates };
}

/** The filing-prep workspace: never fails for a missing or conflicting union_oss registration. */
export async function filingPrep(deps: ComplianceReportsDeps, caller: Principal, periodKey: string) {
  const quarter = unionOssQuarter(periodKey);
  const registrations = await deps.registrations.list(caller.accountId);
  const eligibility = unionOssRegistrationFor(registrations, quarter);
  // The Union OSS return and the IOSS months are independent reads (each its own short read-only
  // statement, neither holding a transaction while it calls another service): run side by side, so on
  // PostgreSQL the two scans use two backends. Embedded, the session runs them one after the other.
  const unionPart = async (): Promise<Record<string, unknown>> => {
    if (!eligibility.ok) return { eligible: false, error: eligibility.reason, detail: eligibility.detail, blocking_registration_ids: eligibility.blockingIds };
    const { context } = await buildReturn(deps, caller, periodKey);
    return { eligible: true, ...summaryPreview(context) };
  };
  const [unionOss, ioss, locks] = await Promise.all([unionPart(), iossQuarter(deps, caller, periodKey, registrations), deps.unionOssLocks.list(caller.accountId)]);
  const lock = locks.find((l) => l.periodKey === periodKey);
  return {
    report_kind: 'oss_ioss_filing_prep_workspace',
    period_key: periodKey,
    generated_at: deps.now().toISOString(),
    registrations: registrations.map((r) => registrationJson(r, registrations)),
    union_oss: unionOss,
    ioss: iossJson(ioss),
    return_period: lock ? lockedPeriodJson(lock, deps.now()) : null,
    official_basis: OFFICIAL_BASIS,
  };
}

const SECTIONS: Section[] = ['2a', '2b', '2c', '2d'];

/** The multi-jurisdiction preview: the Union OSS preview rules apply (422 without the quarter's union_oss registration). */
export async function multiJurisdiction(deps: ComplianceReportsDeps, caller: Principal, periodKey: string) {
  unionOssQuarter(periodKey);
  // Side by side, as for filing-prep; a Union OSS refusal (422) is the answer whatever the IOSS read does.
  const registrations = await deps.registrations.list(caller.accountId);
  const [{ context }, ioss] = await Promise.all([buildReturn(deps, caller, periodKey), iossQuarter(deps, caller, periodKey, registrations)]);
  return {
    report_kind: 'oss_ioss_multi_jurisdiction_preview',
    period_key: periodKey,
    generated_at: context.generatedAt,
    union_oss: summaryPreview(context),
    ioss: iossJson(ioss),
    jurisdictions: jurisdictionsOf(context, ioss.months),
    warnings: [
      ...context.ret.warnings.map((w) => ({ scheme_type: 'union_oss', period_key: periodKey, code: w.code, reason: w.reason, review: w.review, count: w.count })),
      ...ioss.months.flatMap((m) => m.warnings.map((w) => ({ scheme_type: 'ioss', period_key: m.period_key, code: w.code, count: w.count }))),
    ],
    official_basis: OFFICIAL_BASIS,
  };
}

/**
 * Per Member State of consumption: the Union OSS sections 2a-2d (current lines), corrections and
 * balance in the Union OSS return currency, and the IOSS totals in EUR summed over the quarter's
 * months (each month's payable is its own: a negative month never offsets another).
 */
export function jurisdictionsOf(c: ReturnContext, months: readonly IossMonth[]) {
  const union = new Map(countryBreakdownOf(c.ret).map((b) => [b.memberStateOfConsumption, b]));
  const states = new Set<string>(union.keys());
  for (const m of months) for (const b of m.balances) states.add(b.member_state_of_consumption);
  return [...states].sort().map((ms) => {
    const u = union.get(ms);
    const sections = Object.fromEntries(
      SECTIONS.map((s) => {
        const rows = u?.rows.filter((r) => r.section === s) ?? [];
        return [s, { taxable_amount_minor: rows.reduce((t, r) => t + r.taxableAmountMinor, 0n), vat_amount_minor: rows.reduce((t, r) => t + r.vatAmountMinor, 0n), source_event_count: rows.reduce((t, r) => t + r.sourceEventCount, 0) }];
      }),
    );
    const unionEvents = (u?.rows.reduce((t, r) => t + r.sourceEventCount, 0) ?? 0) + (u?.corrections.reduce((t, r) => t + r.sourceEventCount, 0) ?? 0);
    const iossRows = months.flatMap((m) => m.rows.filter((r) => r.member_state_of_consumption === ms));
    const iossBalances = months.flatMap((m) => m.balances.filter((b) => b.member_state_of_consumption === ms));
    const iossEvents = iossRows.reduce((t, r) => t + r.source_event_count, 0);
    return {
      member_state_of_consumption: ms,
      union_oss: {
        return_currency: c.ret.returnCurrency,
        sections,
        correction_vat_minor: u?.correctionVatMinor ?? 0n,
        balance_minor: u?.balanceMinor ?? 0n,
        payable_vat_minor: u?.payableVatMinor ?? 0n,
        source_event_count: unionEvents,
      },
      ioss: {
        return_currency: 'EUR',
        taxable_amount_minor: iossRows.reduce((t, r) => t + r.taxable_amount_minor, 0n),
        current_vat_minor: iossBalances.reduce((t, b) => t + b.current_vat_minor, 0n),
        correction_vat_minor: iossBalances.reduce((t, b) => t + b.correction_vat_minor, 0n),
        payable_vat_minor: iossBalances.reduce((t, b) => t + b.payable_vat_minor, 0n),
        months: months.filter((m) => m.balances.some((b) => b.member_state_of_consumption === ms)).map((m) => m.period_key),
        source_event_count: iossEvents,
      },
      event_counts: { union_oss: unionEvents, ioss: iossEvents, total: unionEvents + iossEvents },
    };
  });
}
