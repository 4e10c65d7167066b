/**
 * The Union OSS return of one quarter (Art. 369g of Directive 2006/112/EC; layout of Annex III of
 * Implementing Regulation (EU) 2020/194; corrections per Art. 61 of Reg. 282/2011; conversion per
 * Art. 366(2)). Pure: supply-fact groups, registration, rates and exchange rates are injected.
 *
 * Money is bigint minor units of the return currency; conversion is per event, half-up, so a group
 * in another currency carries the amounts its events share (`unitNet`, `unitVat`) and its count, or
 * several such amounts with their counts (`units`).
 */
import { isEuMemberState } from '@vat/platform/countries';
import { convertMinor, type RateOrEur } from '@vat/platform/fx';
import { requireMinorUnits } from '@vat/platform/currencies';

/** Events of one group in another currency that share their amounts: `count` events of `net` and `vat` each. */
export type UnitAmounts = { net: bigint; vat: bigint; count: number };

export type Section = '2a' | '2b' | '2c' | '2d';
export type RateType = 'STANDARD' | 'REDUCED';
export type LinkStatus = 'none' | 'missing' | 'invalid' | 'ok';

export const WARNING_CODES = [
  'classification_excluded',
  'needs_review_excluded',
  'missing_exchange_rate_excluded',
  'correction_reference_missing_excluded',
  'correction_reference_invalid_excluded',
  'unsupported_rate_category_excluded',
  'unsupported_supply_kind_excluded',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/**
 * Why events are excluded, under their spec warning code. `informational`: the law keeps them out of
 * the Union scheme (imports go to IOSS, Art. 369l; B2B supplies are not Union OSS supplies, Art. 369a/369b;
 * domestic supplies are declared in the domestic return; exports, new means of transport and installed
 * goods are not distance sales, Art. 14(4)(1)) and filing status ignores them; every other reason needs review.
 */
export const INFORMATIONAL_REASONS = new Set(['imported_goods', 'b2b_supply', 'domestic_supply', 'consumption_outside_eu', 'new_means_of_transport', 'installed_goods']);
export type Review = 'needs_review' | 'informational';
/** Every reason an event can be excluded for (the codes stand for themselves where they have no finer reason). */
export const EXCLUSION_REASONS: readonly string[] = [
  ...WARNING_CODES.filter((c) => c !== 'unsupported_supply_kind_excluded' && c !== 'unsupported_rate_category_excluded'),
  'zero_rate', 'exempt_rate', 'rate_not_in_force',
  ...INFORMATIONAL_REASONS, 'b2b_without_vat_number_evidence', 'dispatch_country_missing', 'origin_outside_eu', 'unknown_supply_kind',
];
export const isWarningCode = (s: string): boolean => (WARNING_CODES as readonly string[]).includes(s);
export const reviewOf = (reason: string): Review => (INFORMATIONAL_REASONS.has(reason) ? 'informational' : 'needs_review');
export type Exclusion = { code: WarningCode; reason: string };

/** The first quarter of the Union OSS scheme (in force from 1 July 2021). */
export const FIRST_UNION_OSS_PERIOD = '2021-Q3';
/**
 * The last quarter served: its return is due on 9999-10-31. 9999-Q4's would be due on 10000-01-31 and
 * end before 10000-01-01, dates no API date (`YYYY-MM-DD`, years 1900-9999) can carry.
 */
export const LAST_UNION_OSS_PERIOD = '9999-Q3';

/**
 * Events of one quarter that share every dimension the return needs. `late`: recorded after its own
 * quarter (`ownPeriod`) was locked, reported here as a correction of that period.
 */
export type FactGroup = {
  late: boolean;
  ownPeriod: string;
  eventType: string;
  classificationStatus: string;
  rateCategory: string;
  supplyKind: string;
  customerType: string;
  countryOfConsumption: string;
  dispatchCountry: string | null;
  supplierEstablishmentCountry: string | null;
  /** Only needed (and only set) when the event lacks its origin, to apply the source profile's default. */
  sourceId: string | null;
  vatRateBps: number;
  /** Whether the rate is the consumption State's standard rate on the supply day; null when no standard rate is known for that day. */
  rateIsStandard: boolean | null;
  /**
   * false: the (rate, rate_category) was not in force in the State (or any of its regions with rates of
   * their own) on the supply day — an event stored before the ledger checked rates; it is excluded
   * (`unsupported_rate_category_excluded`), never reported at an impossible rate. Absent = in force.
   */
  rateInForce?: boolean;
  currency: string;
  link: LinkStatus;
  /** The quarter of the linked original (link = ok). */
  originalPeriod: string | null;
  count: number;
  netSum: bigint;
  vatSum: bigint;
  /** The per-event amounts, set when the group's currency is not the return currency (unless `units` is). */
  unitNet: bigint | null;
  unitVat: bigint | null;
  /**
   * Instead of `unitNet`/`unitVat`: the distinct per-event amounts of a group in another currency, each with
   * its count (the running totals hand a disposition's events over in one row); `count`, `netSum` and `vatSum`
   * are then their totals. Converting each amount once per event, as separate groups would, gives the same return.
   */
  units?: readonly UnitAmounts[];
  /**
   * b2b only: the VIES check that proved the customer's number valid at the tax point (out of scope with
   * evidence); null or absent: no such evidence (Art. 18(1)(b) of Reg. 282/2011: reviewed, not assumed b2b).
   */
  b2bEvidenceId?: bigint | null;
};

export type SourceDefaults = { dispatchCountry?: string; supplierEstablishmentCountry?: string };

export type ReturnInputs = {
  periodKey: string;
  memberStateIdentification: string;
  returnCurrency: string;
  groups: Iterable<FactGroup>;
  /** Source-profile defaults by source id, applied only where an event lacks the fact. */
  sourceDefaults: ReadonlyMap<string, SourceDefaults>;
  /** The Art. 366(2) rate of `currency` for the last day of `period`, or undefined when none is published. */
  exchangeRate: (currency: string, period: string) => RateOrEur | undefined;
};

export type ReturnRow = {
  section: Section;
  memberStateOfConsumption: string;
  originMemberState: string | null;
  supplyKind: string;
  vatRateBps: number;
  rateType: RateType;
  taxableAmountMinor: bigint;
  vatAmountMinor: bigint;
  sourceEventCount: number;
};

export type CorrectionRow = { memberStateOfConsumption: string; originalPeriod: string; vatAmountMinor: bigint; sourceEventCount: number };

export type Balance = {
  memberStateOfConsumption: string;
  currentVatMinor: bigint;
  correctionVatMinor: bigint;
  balanceMinor: bigint;
  payableVatMinor: bigint;
  includedInGrandTotal: boolean;
};

export type Totals = { taxableAmountMinor: bigint; currentVatMinor: bigint; correctionVatMinor: bigint; payableVatMinor: bigint };
export type Warning = { code: WarningCode; reason: string; review: Review; count: number };

export type UnionOssReturn = {
  periodKey: string;
  memberStateIdentification: string;
  returnCurrency: string;
  rows: ReturnRow[];
  corrections: CorrectionRow[];
  balances: Balance[];
  totals: Totals;
  warnings: Warning[];
  totalSourceEventCount: number;
  includedSourceEventCount: number;
  excludedSourceEventCount: number;
  /** Excluded events whose reason needs review (the rest are excluded by law, informational). */
  reviewSourceEventCount: number;
};

/** Raised when the rates table cannot say whether a rate is the standard one: the return cannot be built. */
export class StandardRateUnavailable extends Error {
  constructor(
    readonly country: string,
    readonly period: string,
  ) {
    super(`No standard VAT rate of ${country} is known for a supply day in ${period}; the return cannot classify STANDARD/REDUCED rows.`);
  }
}

/**
 * The return currency of a Member State of identification for a quarter (Art. 369h(1) of the Directive,
 * Art. 61c of Reg. 282/2011): EUR unless the State requires its national currency.
 */
export function returnCurrencyOf(msi: string, periodKey: string): string {
  if (msi === 'DK') return 'DKK';
  if (msi === 'HR' && periodKey < '2023-Q1') return 'HRK';
  return 'EUR';
}

const UNSUPPORTED_KINDS = new Set(['imported_goods', 'new_means_of_transport', 'installed_goods']);
const EXCLUDED_RATE_CATEGORIES = new Set(['zero', 'exempt']);

type Placement = { section: Section; origin: string | null } | { excluded: Exclusion };

const unsupported = (reason: string): { excluded: Exclusion } => ({ excluded: { code: 'unsupported_supply_kind_excluded', reason } });
const own = (code: WarningCode): Exclusion => ({ code, reason: code });

/** Section and origin State of a supply, or why it is not a Union OSS supply. */
function placementOf(g: Pick<FactGroup, 'supplyKind' | 'customerType' | 'b2bEvidenceId' | 'countryOfConsumption' | 'dispatchCountry' | 'supplierEstablishmentCountry' | 'sourceId'>, msi: string, defaults: ReadonlyMap<string, SourceDefaults>): Placement {
  if (UNSUPPORTED_KINDS.has(g.supplyKind)) return unsupported(g.supplyKind);
  // Art. 196 and 138: a supply to a taxable person whose number VIES confirmed is no Union OSS supply; without
  // that evidence the supplier may not assume it (Art. 18(1)(b) of Reg. 282/2011), so it is flagged for review.
  if (g.customerType !== 'b2c') return unsupported(g.b2bEvidenceId ? 'b2b_supply' : 'b2b_without_vat_number_evidence');
  if (!isEuMemberState(g.countryOfConsumption)) return unsupported('consumption_outside_eu');
  const profile = g.sourceId === null ? undefined : defaults.get(g.sourceId);
  if (g.supplyKind === 'services') {
    // Art. 369a(2): an EU-established trader is identified where its business is established, so a
    // service without a stated establishment is supplied from the Member State of identification.
    const origin = g.supplierEstablishmentCountry ?? profile?.supplierEstablishmentCountry ?? msi;
    if (!isEuMemberState(origin)) return unsupported('origin_outside_eu');
    if (origin === g.countryOfConsumption) return unsupported('domestic_supply');
    return origin === msi ? { section: '2a', origin: null } : { section: '2c', origin };
  }
  if (g.supplyKind === 'goods') {
    // A distance sale needs a known dispatch State: without one it cannot be reported (fail closed).
    const origin = g.dispatchCountry ?? profile?.dispatchCountry;
    if (origin === undefined) return unsupported('dispatch_country_missing');
    if (!isEuMemberState(origin)) return unsupported('origin_outside_eu');
    if (origin === g.countryOfConsumption) return unsupported('domestic_supply');
    return origin === msi ? { section: '2b', origin: null } : { section: '2d', origin };
  }
  return unsupported('unknown_supply_kind');
}

/** Why an event group is excluded before its amounts are looked at, or undefined when it may be included. */
function exclusionOf(g: FactGroup, periodKey: string): Exclusion | undefined {
  if (g.classificationStatus === 'needs_review') return own('needs_review_excluded');
  if (g.classificationStatus !== 'classified') return own('classification_excluded');
  if (EXCLUDED_RATE_CATEGORIES.has(g.rateCategory)) return { code: 'unsupported_rate_category_excluded', reason: `${g.rateCategory}_rate` };
  if (g.rateInForce === false) return { code: 'unsupported_rate_category_excluded', reason: 'rate_not_in_force' };
  if (g.eventType === 'sale') return undefined;
  if (g.link === 'missing' || g.link === 'none') return own('correction_reference_missing_excluded');
  if (g.link === 'invalid') return own('correction_reference_invalid_excluded');
  const orig = g.originalPeriod;
  // An original later than the correction, or before the scheme began, is not a Union OSS correction.
  if (orig === null || orig < FIRST_UNION_OSS_PERIOD || orig > g.ownPeriod || orig > periodKey) return own('correction_reference_invalid_excluded');
  return undefined;
}

/**
 * Where one event group goes in the return: a row or correction target, or why it is excluded. The
 * exchange-rate exclusion is decided later (`finish`), once the rates are known.
 */
export function dispositionOf(g: FactGroup, settings: Pick<ReturnInputs, 'periodKey' | 'memberStateIdentification' | 'sourceDefaults'>): { excluded: Exclusion } | { section: Section; origin: string | null } {
  const early = exclusionOf(g, settings.periodKey);
  if (early) return { excluded: early };
  return placementOf(g, settings.memberStateIdentification, settings.sourceDefaults);
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** One event's place in a return: included, or excluded under a spec warning code with its reason. */
export type EventDisposition = { disposition: 'included' } | { disposition: 'excluded'; code: WarningCode; reason: string; review: Review };

/**
 * The disposition of one event (a group of count 1) exactly as `UnionOssReturnBuilder` decides it,
 * the exchange-rate exclusion included: `exchangeRate` is the return's (`finish`) lookup.
 */
export function eventDispositionOf(g: FactGroup, settings: Pick<ReturnInputs, 'periodKey' | 'memberStateIdentification' | 'sourceDefaults' | 'returnCurrency' | 'exchangeRate'>): EventDisposition {
  const place = dispositionOf(g, settings);
  if ('excluded' in place) return { disposition: 'excluded', ...place.excluded, review: reviewOf(place.excluded.reason) };
  if (g.currency === settings.returnCurrency) return { disposition: 'included' };
  const period = correctedPeriodOf(g, settings.periodKey) ?? settings.periodKey;
  if (settings.exchangeRate(g.currency, period) === undefined || settings.exchangeRate(settings.returnCurrency, period) === undefined) {
    return { disposition: 'excluded', code: 'missing_exchange_rate_excluded', reason: 'missing_exchange_rate_excluded', review: 'needs_review' };
  }
  return { disposition: 'included' };
}

/** The earlier quarter an included group corrects (a late event, or a correction of an earlier quarter), else undefined. */
function correctedPeriodOf(g: FactGroup, periodKey: string): string | undefined {
  if (g.late) return g.eventType === 'sale' ? g.ownPeriod : g.originalPeriod!;
  return g.eventType !== 'sale' && g.originalPeriod! < periodKey ? g.originalPeriod! : undefined;
}

type RowTemplate = Omit<ReturnRow, 'taxableAmountMinor' | 'vatAmountMinor' | 'sourceEventCount'>;
type Target = { kind: 'row'; key: string; row: RowTemplate } | { kind: 'correction'; key: string; memberStateOfConsumption: string; originalPeriod: string };
/** Events in another currency, waiting for their rate: converted per event when the builder finishes. */
type Pending = { target: Target; currency: string; period: string; unitNet: bigint; unitVat: bigint; count: number };

type ReturnSettings = Omit<ReturnInputs, 'groups' | 'exchangeRate'>;

/**
 * Builds a return from groups fed in any order and in batches (memory follows rows, not events);
 * groups in another currency wait, compactly, for their rates until `finish`.
 */
export class UnionOssReturnBuilder {
  readonly #s: ReturnSettings;
  readonly #warnings = new Map<string, Warning>();
  readonly #rows = new Map<string, ReturnRow>();
  readonly #corrections = new Map<string, CorrectionRow>();
  readonly #targets = new Map<string, Target>();
  readonly #pending: Pending[] = [];
  #total = 0;
  #included = 0;

  constructor(settings: ReturnSettings) {
    this.#s = settings;
  }

  #exclude(e: Exclusion, count: number) {
    const key = `${e.code}|${e.reason}`;
    const w = this.#warnings.get(key) ?? this.#warnings.set(key, { code: e.code, reason: e.reason, review: reviewOf(e.reason), count: 0 }).get(key)!;
    w.count += count;
  }

  #target(t: Target): Target {
    const known = this.#targets.get(t.key);
    if (known) return known;
    this.#targets.set(t.key, t);
    return t;
  }

  #credit(t: Target, net: bigint, vat: bigint, count: number) {
    this.#included += count;
    if (t.kind === 'correction') {
      const c = this.#corrections.get(t.key) ?? { memberStateOfConsumption: t.memberStateOfConsumption, originalPeriod: t.originalPeriod, vatAmountMinor: 0n, sourceEventCount: 0 };
      c.vatAmountMinor += vat;
      c.sourceEventCount += count;
      this.#corrections.set(t.key, c);
      return;
    }
    const r = this.#rows.get(t.key) ?? { ...t.row, taxableAmountMinor: 0n, vatAmountMinor: 0n, sourceEventCount: 0 };
    r.taxableAmountMinor += net;
    r.vatAmountMinor += vat;
    r.sourceEventCount += count;
    this.#rows.set(t.key, r);
  }

  add(g: FactGroup): void {
    const { periodKey, memberStateIdentification: msi, returnCurrency } = this.#s;
    this.#total += g.count;
    const place = dispositionOf(g, { periodKey, memberStateIdentification: msi, sourceDefaults: this.#s.sourceDefaults });
    if ('excluded' in place) return this.#exclude(place.excluded, g.count);
    // A late event, or a correction of an earlier quarter, is a correction of that quarter (VAT only).
    const correctedPeriod = correctedPeriodOf(g, periodKey);
    let target: Target;
    if (correctedPeriod !== undefined) {
      target = this.#target({ kind: 'correction', key: `${g.countryOfConsumption}|${correctedPeriod}`, memberStateOfConsumption: g.countryOfConsumption, originalPeriod: correctedPeriod });
    } else {
      if (g.rateIsStandard === null) throw new StandardRateUnavailable(g.countryOfConsumption, g.ownPeriod);
      const rateType: RateType = g.rateIsStandard ? 'STANDARD' : 'REDUCED';
      const key = [place.section, g.countryOfConsumption, place.origin ?? '', g.supplyKind, g.vatRateBps, rateType].join('|');
      target = this.#target({
        kind: 'row',
        key,
        row: { section: place.section, memberStateOfConsumption: g.countryOfConsumption, originMemberState: place.origin, supplyKind: g.supplyKind, vatRateBps: g.vatRateBps, rateType },
      });
    }
    if (g.currency === returnCurrency) return this.#credit(target, g.netSum, g.vatSum, g.count);
    const period = correctedPeriod ?? periodKey;
    if (g.units) {
      for (const u of g.units) this.#pending.push({ target, currency: g.currency, period, unitNet: u.net, unitVat: u.vat, count: u.count });
      return;
    }
    if (g.unitNet === null || g.unitVat === null) throw new Error('a group in another currency must carry its per-event amounts');
    this.#pending.push({ target, currency: g.currency, period, unitNet: g.unitNet, unitVat: g.unitVat, count: g.count });
  }

  /** The (currency, period) rates `finish` will ask for, the return currency's included. */
  neededRates(): { currency: string; period: string }[] {
    const seen = new Map<string, { currency: string; period: string }>();
    for (const p of this.#pending) {
      for (const currency of [p.currency, this.#s.returnCurrency]) seen.set(`${currency}|${p.period}`, { currency, period: p.period });
    }
    return [...seen.values()];
  }

  finish(exchangeRate: ReturnInputs['exchangeRate']): UnionOssReturn {
    const { returnCurrency } = this.#s;
    const tmu = requireMinorUnits(returnCurrency);
    for (const p of this.#pending) {
      const from = exchangeRate(p.currency, p.period);
      const to = exchangeRate(returnCurrency, p.period);
      if (from === undefined || to === undefined) {
        this.#exclude(own('missing_exchange_rate_excluded'), p.count);
        continue;
      }
      const fmu = requireMinorUnits(p.currency);
      const n = BigInt(p.count);
      this.#credit(p.target, n * convertMinor(p.unitNet, from, to, fmu, tmu), n * convertMinor(p.unitVat, from, to, fmu, tmu), p.count);
    }
    this.#pending.length = 0;
    const rows = [...this.#rows.values()].sort(
      (a, b) =>
        cmp(a.section, b.section) ||
        cmp(a.memberStateOfConsumption, b.memberStateOfConsumption) ||
        cmp(a.originMemberState ?? '', b.originMemberState ?? '') ||
        cmp(a.supplyKind, b.supplyKind) ||
        cmp(b.vatRateBps, a.vatRateBps) ||
        cmp(a.rateType, b.rateType),
    );
    const corrections = [...this.#corrections.values()].sort((a, b) => cmp(a.memberStateOfConsumption, b.memberStateOfConsumption) || cmp(a.originalPeriod, b.originalPeriod));
    const balances = balancesOf(rows, corrections);
    return {
      periodKey: this.#s.periodKey,
      memberStateIdentification: this.#s.memberStateIdentification,
      returnCurrency,
      rows,
      corrections,
      balances,
      totals: {
        taxableAmountMinor: rows.reduce((s, r) => s + r.taxableAmountMinor, 0n),
        currentVatMinor: rows.reduce((s, r) => s + r.vatAmountMinor, 0n),
        correctionVatMinor: corrections.reduce((s, c) => s + c.vatAmountMinor, 0n),
        payableVatMinor: balances.reduce((s, b) => s + b.payableVatMinor, 0n),
      },
      warnings: [...this.#warnings.values()].sort((a, b) => cmp(WARNING_CODES.indexOf(a.code), WARNING_CODES.indexOf(b.code)) || cmp(a.reason, b.reason)),
      totalSourceEventCount: this.#total,
      includedSourceEventCount: this.#included,
      excludedSourceEventCount: this.#total - this.#included,
      reviewSourceEventCount: [...this.#warnings.values()].reduce((n, w) => n + (w.review === 'needs_review' ? w.count : 0), 0),
    };
  }
}

/** Per Member State of consumption: a negative balance is shown and never offsets another State. */
export function balancesOf(rows: readonly ReturnRow[], corrections: readonly CorrectionRow[]): Balance[] {
  const by = new Map<string, { current: bigint; correction: bigint }>();
  const at = (ms: string) => by.get(ms) ?? by.set(ms, { current: 0n, correction: 0n }).get(ms)!;
  for (const r of rows) at(r.memberStateOfConsumption).current += r.vatAmountMinor;
  for (const c of corrections) at(c.memberStateOfConsumption).correction += c.vatAmountMinor;
  return [...by.entries()]
    .sort(([a], [b]) => cmp(a, b))
    .map(([ms, v]) => {
      const balance = v.current + v.correction;
      return {
        memberStateOfConsumption: ms,
        currentVatMinor: v.current,
        correctionVatMinor: v.correction,
        balanceMinor: balance,
        payableVatMinor: balance > 0n ? balance : 0n,
        includedInGrandTotal: balance > 0n,
      };
    });
}

type CountryBreakdown = Balance & { taxableAmountMinor: bigint; rows: ReturnRow[]; corrections: CorrectionRow[] };

/** The same return per Member State of consumption, with its current and correction rows nested. */
export function countryBreakdownOf(ret: UnionOssReturn): CountryBreakdown[] {
  return ret.balances.map((b) => {
    const rows = ret.rows.filter((r) => r.memberStateOfConsumption === b.memberStateOfConsumption);
    return {
      ...b,
      taxableAmountMinor: rows.reduce((s, r) => s + r.taxableAmountMinor, 0n),
      rows,
      corrections: ret.corrections.filter((c) => c.memberStateOfConsumption === b.memberStateOfConsumption),
    };
  });
}

/** `YYYY-Qn` of a UTC calendar date. */
export function periodOfDate(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
}

/** The last day of the month after the quarter: when the return is due (Art. 369f). */
export function filingDueDate(periodKey: string): string {
  const y = Number(periodKey.slice(0, 4));
  const q = Number(periodKey.slice(6));
  const lastDay = new Date(Date.UTC(y, q * 3 + 1, 0));
  return lastDay.toISOString().slice(0, 10);
}
