/**
 * ECB euro reference rates: lookup and exact conversion.
 *
 * Pure module: the rates are injected (parsed ECB files or the publication days the calculation service stores);
 * nothing here reads files, the database or the clock.
 *
 * Invariants
 * - A rate is an exact decimal, "units of currency per 1 EUR", kept as `mantissa / 10^scale` with bigint mantissa.
 *   No floating point number is used anywhere in this module.
 * - EUR is the only currency with rate 1, and 1 appears nowhere else: a currency without a published rate is
 *   reported as missing (`undefined`), never as 1 or 0.
 * - Conversions multiply/divide exactly and round once, half away from zero ("half-up" on magnitudes).
 */

import { isCalendarDate } from './http-inputs';

export const EUR = 'EUR';
/** Minor units of the euro (cents). */
const EUR_MINOR_UNITS = 2;

/** One ECB reference rate: `decimal` units of `currency` per 1 EUR, published for `date`. */
export interface EcbRate {
  readonly currency: string;
  /** Publication day, YYYY-MM-DD. */
  readonly date: string;
  /** Canonical decimal as published, e.g. "1.0749" (no exponent, no superfluous zeros). */
  readonly decimal: string;
  /** decimal = mantissa / 10^scale. */
  readonly mantissa: bigint;
  readonly scale: number;
}

/** A rate, or the literal 'EUR' for the euro side of a conversion. */
export type RateOrEur = EcbRate | typeof EUR;

/** One published rate as {@link EcbRateTable} accepts it: `rate` units of `currency` per 1 EUR on `date`. */
interface EcbRateInput {
  readonly currency: string;
  /** Publication day, YYYY-MM-DD. */
  readonly date: string;
  /** Exact decimal string as published. */
  readonly rate: string;
}

/** One ECB publication day: every currency quoted that day, with its exact decimal rate per 1 EUR. */
export interface EcbPublicationDay {
  /** YYYY-MM-DD. */
  readonly date: string;
  readonly rates: Readonly<Record<string, string>>;
}

// ---------------------------------------------------------------------------------------------------------------
// validation helpers

const CURRENCY_RE = /^[A-Z]{3}$/;
const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(date: string): boolean {
  return isCalendarDate(date);
}

function assertDate(date: string, what = 'date'): void {
  if (typeof date !== 'string' || !isIsoDate(date)) {
    throw new RangeError(`invalid ${what} ${JSON.stringify(date)}: expected a calendar date YYYY-MM-DD`);
  }
}

function assertCurrency(code: string): void {
  if (typeof code !== 'string' || !CURRENCY_RE.test(code)) {
    throw new RangeError(`invalid currency code ${JSON.stringify(code)}: expected 3 upper-case letters`);
  }
}

function assertMinorUnits(mu: number, what: string): void {
  if (!Number.isSafeInteger(mu) || mu < 0 || mu > 18) {
    throw new RangeError(`invalid ${what} ${String(mu)}: expected an integer 0..18`);
  }
}

function assertBigint(v: bigint, what: string): void {
  if (typeof v !== 'bigint') throw new TypeError(`${what} must be a bigint, got ${typeof v}`);
}

const POW10: bigint[] = [];
function pow10(n: number): bigint {
  let p = POW10[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    POW10[n] = p;
  }
  return p;
}

function canonicalParts(text: string): { intPart: string; fracPart: string } {
  const m = typeof text === 'string' ? DECIMAL_RE.exec(text) : null;
  if (!m) throw new RangeError(`invalid rate ${JSON.stringify(text)}: expected a positive plain decimal`);
  const intPart = m[1]!.replace(/^0+(?=\d)/, '');
  const fracPart = (m[2] ?? '').replace(/0+$/, '');
  if (!/[1-9]/.test(intPart) && !/[1-9]/.test(fracPart)) throw new RangeError(`invalid rate ${JSON.stringify(text)}: must be greater than zero`);
  return { intPart, fracPart };
}

function assertSameRate(currency: string, date: string, a: string, b: string): void {
  if (a !== b && canonicalRateDecimal(a) !== canonicalRateDecimal(b)) throw new RangeError(`conflicting ECB rates for ${currency} on ${date}: ${a} and ${b}`);
}

/** Throws unless `text` is a positive plain decimal (two regular-expression tests on the valid path). */
function assertRate(text: string): void {
  if (typeof text !== 'string' || !DECIMAL_RE.test(text) || !/[1-9]/.test(text)) canonicalParts(text);
}

/**
 * The canonical form of a positive plain decimal ("1.178900" → "1.1789", "013168.0" → "13168"): the one
 * spelling stored and compared. Throws on anything else: signs, exponents, spaces, empty strings, zero.
 */
export function canonicalRateDecimal(text: string): string {
  const { intPart, fracPart } = canonicalParts(text);
  return fracPart ? `${intPart}.${fracPart}` : intPart;
}

/**
 * Parses a positive plain decimal ("1.0749", "163.01", "13168", "1.178900") into its canonical form
 * (superfluous leading/trailing zeros removed) and exact mantissa/scale. Throws on anything else: signs,
 * exponents, spaces, empty strings, zero.
 */
export function parseRateDecimal(text: string): { decimal: string; mantissa: bigint; scale: number } {
  const { intPart, fracPart } = canonicalParts(text);
  return { decimal: fracPart ? `${intPart}.${fracPart}` : intPart, mantissa: BigInt(intPart + fracPart), scale: fracPart.length };
}

/** Builds a validated {@link EcbRate}. EUR is refused here: its rate is not published, use {@link eurRate}. */
export function ecbRate(currency: string, date: string, decimal: string): EcbRate {
  assertCurrency(currency);
  assertDate(date);
  if (currency === EUR) throw new RangeError('EUR has no ECB rate; use eurRate(date)');
  const p = parseRateDecimal(decimal);
  return Object.freeze({ currency, date, decimal: p.decimal, mantissa: p.mantissa, scale: p.scale });
}

/** The euro against itself: exactly 1. The only place a rate of 1 is produced. */
export function eurRate(date: string): EcbRate {
  assertDate(date);
  return Object.freeze({ currency: EUR, date, decimal: '1', mantissa: 1n, scale: 0 });
}

/** Index of the first element >= key in a sorted array (array length when none). */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------------------------
// the table

/** First field of a snapshot's first line ({@link EcbRateTable.snapshot}); a change of the layout changes it. */
const SNAPSHOT_FORMAT = 'ecb-days-v1';
/** A positive plain decimal as {@link assertRate} accepts it: digits, optionally a fraction, some digit not zero. */
const POSITIVE_DECIMAL = String.raw`(?:\d*[1-9]\d*(?:\.\d+)?|\d+\.\d*[1-9]\d*)`;

/**
 * The `column`th rate of a day's row (`,<rate>,<rate>…`, empty where not quoted), or '' when the row has no such
 * column (a currency first seen after that day's row was made).
 */
function fieldAt(row: string, column: number): string {
  let start = 0;
  for (let i = 0; i <= column; i++) {
    start = row.indexOf(',', start) + 1;
    if (start === 0) return '';
  }
  const end = row.indexOf(',', start);
  return row.slice(start, end < 0 ? row.length : end);
}

/**
 * In-memory table of ECB reference rates.
 *
 * Publication days are the days present in the loaded data (any currency). A currency that the ECB did not quote
 * on a publication day (`N/A` in its files, e.g. ISK 2008-12-10..2018-01-31, RUB after 2022-03-01) has no rate on
 * that day: lookups report it as missing rather than reaching further ahead or back in time.
 *
 * Rates are kept as published, one text row per publication day (`,<rate>,<rate>…`, a column per currency);
 * building validates every rate once and a lookup takes its column's text and makes the exact bigint form. The
 * whole history (200k+ rates) loads from its snapshot text ({@link EcbRateTable.snapshot}) as 7,000 rows checked
 * by one regular expression each, in a few milliseconds and without 200k strings for the collector to move.
 */
export class EcbRateTable {
  /** Each currency's column in a day's row. */
  readonly #column = new Map<string, number>();
  /** Per publication day, its row (`,<rate>,…` in column order, empty where that currency was not quoted). */
  readonly #byDay = new Map<string, string>();
  /** While building from days or single rates: each day's rates by column, made rows by {@link #seal}. */
  #building: Map<string, (string | undefined)[]> | undefined = new Map();
  #currencies: Set<string> | undefined = new Set();
  #days: string[] = [];
  #size = 0;

  /** Builds from single rates (e.g. parsed observations). Duplicates must agree; EUR rows are refused. */
  constructor(rows: Iterable<EcbRateInput>) {
    const days = new Map<string, Record<string, string>>();
    for (const row of rows) {
      this.#checkCurrency(row.currency);
      let rates = days.get(row.date);
      if (!rates) days.set(row.date, (rates = {}));
      const prev = rates[row.currency];
      if (prev !== undefined) assertSameRate(row.currency, row.date, prev, row.rate);
      rates[row.currency] = row.rate;
    }
    for (const [date, rates] of days) this.#addDay(date, rates);
    this.#seal();
  }

  /** Builds from publication days, the form the calculation service stores them in. Same rules as the constructor. */
  static fromDays(days: Iterable<EcbPublicationDay>): EcbRateTable {
    const table = new EcbRateTable([]);
    table.#building = new Map();
    for (const day of days) table.#addDay(day.date, day.rates);
    table.#seal();
    return table;
  }

  /**
   * Builds from the text {@link EcbRateTable.snapshot} made: the same table, every date, currency and rate
   * validated as {@link EcbRateTable.fromDays} does. Throws on anything else (another format, a row of another
   * width or without any rate, days out of order or repeated, a currency twice or EUR, a rate that is not a
   * positive plain decimal).
   */
  static fromSnapshot(text: string): EcbRateTable {
    const lines = text.split('\n');
    const head = lines[0]!.split(',');
    if (head[0] !== SNAPSHOT_FORMAT) throw new RangeError(`not an ECB rate snapshot of format ${SNAPSHOT_FORMAT}`);
    const table = new EcbRateTable([]);
    const currencies = head.slice(1);
    for (const [i, currency] of currencies.entries()) {
      assertCurrency(currency);
      if (currency === EUR) throw new RangeError('EUR has no ECB rate; use eurRate(date)');
      if (table.#column.has(currency)) throw new RangeError(`ECB rate snapshot names ${currency} twice`);
      table.#column.set(currency, i);
    }
    // A date, then one field per currency, each empty or a positive plain decimal, and at least one not empty.
    const lineRe = new RegExp(String.raw`^(\d{4}-\d{2}-\d{2})((?=,*\d)(?:,${POSITIVE_DECIMAL}?){${currencies.length}})$`);
    let last = '';
    let empty = 0;
    for (let l = 1; l < lines.length; l++) {
      const m = lineRe.exec(lines[l]!);
      if (!m) throw new RangeError(`ECB rate snapshot line ${l + 1} is not a day with ${currencies.length} rates (a calendar date, then each rate empty or a positive plain decimal, one at least)`);
      const date = m[1]!;
      assertDate(date);
      if (date <= last) throw new RangeError(`ECB rate snapshot line ${l + 1}: ${date} does not follow ${last}`);
      last = date;
      const row = m[2]!;
      table.#byDay.set(date, row);
      table.#days.push(date);
      // empty fields: a comma followed by a comma or the end
      for (let k = row.indexOf(',,'); k >= 0; k = row.indexOf(',,', k + 1)) empty++;
      if (row.endsWith(',')) empty++;
    }
    table.#currencies = undefined; // made when asked (currencies())
    table.#size = table.#days.length * currencies.length - empty;
    return table;
  }

  /**
   * The whole table as one text, the cheapest form to store and load again ({@link EcbRateTable.fromSnapshot}):
   * a first line `ecb-days-v1,<currency>,...` (sorted), then one line per publication day, oldest first:
   * `<YYYY-MM-DD>,<rate>,...` in the same column order, empty where that currency was not quoted that day.
   */
  snapshot(): string {
    const currencies = this.currencies();
    const columns = currencies.map((c) => this.#column.get(c)!);
    const lines = [[SNAPSHOT_FORMAT, ...currencies].join(',')];
    for (const date of this.#days) {
      const row = this.#byDay.get(date)!;
      lines.push(`${date},${columns.map((c) => fieldAt(row, c)).join(',')}`);
    }
    return lines.join('\n');
  }

  #addDay(date: string, rates: Readonly<Record<string, string>>): void {
    assertDate(date);
    const building = this.#building!;
    let row = building.get(date);
    let added = 0;
    for (const currency in rates) {
      this.#checkCurrency(currency);
      const rate = rates[currency]!;
      assertRate(rate);
      const column = this.#column.get(currency)!;
      row ??= [];
      const prev = row[column];
      if (prev !== undefined) assertSameRate(currency, date, prev, rate);
      else added++;
      row[column] = rate;
    }
    if (!row) return;
    building.set(date, row);
    this.#size += added;
  }

  /** Validates a currency the first time it is seen and gives it its column. */
  #checkCurrency(currency: string): void {
    if (this.#column.has(currency)) return;
    assertCurrency(currency);
    if (currency === EUR) throw new RangeError('EUR has no ECB rate; use eurRate(date)');
    this.#currencies!.add(currency);
    this.#column.set(currency, this.#column.size);
  }

  #seal(): void {
    // One flat string per day (join leaves a missing column empty).
    for (const [date, rates] of this.#building!) this.#byDay.set(date, `,${rates.join(',')}`);
    this.#building = undefined;
    this.#days = [...this.#byDay.keys()].sort();
  }

  /** Number of (currency, day) rates loaded. */
  get size(): number {
    return this.#size;
  }

  /** Currencies with at least one loaded rate, sorted (EUR is not among them). */
  currencies(): string[] {
    this.#currencies ??= new Set([...this.#column].filter(([, c]) => this.#days.some((d) => fieldAt(this.#byDay.get(d)!, c) !== '')).map(([currency]) => currency));
    return [...this.#currencies].sort();
  }

  /** All publication days loaded, ascending. */
  publicationDates(): readonly string[] {
    return this.#days;
  }

  firstPublicationDate(): string | undefined {
    return this.#days[0];
  }

  /** The newest publication day loaded, or undefined for an empty table. */
  lastPublicationDate(): string | undefined {
    return this.#days[this.#days.length - 1];
  }

  isPublicationDay(date: string): boolean {
    assertDate(date);
    const i = lowerBound(this.#days, date);
    return this.#days[i] === date;
  }

  /** The last publication day on or before `date`, or undefined. */
  publicationDateOnOrBefore(date: string): string | undefined {
    assertDate(date);
    const i = lowerBound(this.#days, date);
    return this.#days[i] === date ? date : this.#days[i - 1];
  }

  /**
   * The rate published for exactly this day, or undefined (no publication that day, currency not quoted, or
   * unknown currency). EUR always yields exactly 1.
   */
  rateOn(currency: string, date: string): EcbRate | undefined {
    assertCurrency(currency);
    assertDate(date);
    if (currency === EUR) return eurRate(date);
    return this.#rate(currency, date);
  }

  #rate(currency: string, date: string): EcbRate | undefined {
    const column = this.#column.get(currency);
    const row = column === undefined ? undefined : this.#byDay.get(date);
    const text = row === undefined ? '' : fieldAt(row, column!);
    return text ? ecbRate(currency, date, text) : undefined;
  }

  /**
   * Art. 366(2) of Council Directive 2006/112/EC (VAT Directive), applied likewise by Art. 369h(2) and 369u(2)
   * for the union and import one-stop-shop schemes: amounts in other currencies are converted "following the
   * exchange rates published by the European Central Bank" for the last day of the period, "or, if there is no
   * publication on that day, on the next day of publication".
   *
   * So: if the ECB published on `date`, that day's rate; otherwise the rate of the first publication day AFTER
   * `date` (never an earlier one). `rateDate` says which day was used.
   *
   * Missing (undefined) when no publication day on or after `date` is loaded yet (e.g. a period ending today,
   * before 16:00 CET, or after the last imported file), or when the ECB did not quote `currency` on that
   * publication day. EUR yields exactly 1 with `rateDate` = `date`.
   */
  rateOnOrNextPublication(currency: string, date: string): { rate: EcbRate; rateDate: string } | undefined {
    assertCurrency(currency);
    assertDate(date);
    if (currency === EUR) return { rate: eurRate(date), rateDate: date };
    const day = this.#days[lowerBound(this.#days, date)];
    if (day === undefined) return undefined;
    const rate = this.#rate(currency, day);
    return rate ? { rate, rateDate: day } : undefined;
  }

  /**
   * The latest rate published on or before `date` (Art. 91(2) VAT Directive option: "the latest exchange rate
   * published by the European Central Bank at the time tax becomes chargeable"). The ECB publishes at about
   * 16:00 CET: a caller whose chargeable event precedes that on a publication day should pass the previous day.
   * Missing when no publication day on or before `date` is loaded, or `currency` was not quoted that day.
   */
  rateOnOrPreviousPublication(currency: string, date: string): { rate: EcbRate; rateDate: string } | undefined {
    assertCurrency(currency);
    assertDate(date);
    if (currency === EUR) return { rate: eurRate(date), rateDate: date };
    const day = this.publicationDateOnOrBefore(date);
    if (day === undefined) return undefined;
    const rate = this.#rate(currency, day);
    return rate ? { rate, rateDate: day } : undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// conversion (bigint, one rounding)

/**
 * numerator / denominator rounded to an integer, halves away from zero (2.5 -> 3, -2.5 -> -3).
 * `denominator` must be positive.
 */
export function divRoundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const neg = numerator < 0n;
  const abs = neg ? -numerator : numerator;
  let q = abs / denominator;
  const r = abs % denominator;
  if (r * 2n >= denominator) q += 1n;
  return neg ? -q : q;
}

function asRate(r: RateOrEur, what: string): EcbRate {
  if (r === EUR) return { currency: EUR, date: '', decimal: '1', mantissa: 1n, scale: 0 };
  if (!r || typeof r.mantissa !== 'bigint' || r.mantissa <= 0n || !Number.isSafeInteger(r.scale) || r.scale < 0) {
    throw new RangeError(`${what} is not a valid rate`);
  }
  return r;
}

/**
 * Amount in the source currency's minor units -> EUR cents:
 * `amountMinor / 10^sourceMinorUnits / rate * 100`, rounded once, half away from zero.
 */
export function currencyToEurMinor(amountMinor: bigint, rate: EcbRate, sourceMinorUnits: number): bigint {
  return convertMinor(amountMinor, rate, EUR, sourceMinorUnits, EUR_MINOR_UNITS);
}

/**
 * Converts between any two currencies through the euro (ECB cross rate), as ONE exact fraction rounded ONCE,
 * half away from zero:
 *
 *   result = amountMinor / 10^fromMinorUnits / fromRate * toRate * 10^toMinorUnits
 *
 * `fromRate` / `toRate` are rates per 1 EUR, or 'EUR' (or an EUR rate) for the euro side. Use rates of the same
 * publication day for a proper ECB cross rate.
 */
export function convertMinor(
  amountMinor: bigint,
  fromRate: RateOrEur,
  toRate: RateOrEur,
  fromMinorUnits: number,
  toMinorUnits: number,
): bigint {
  assertBigint(amountMinor, 'amountMinor');
  assertMinorUnits(fromMinorUnits, 'fromMinorUnits');
  assertMinorUnits(toMinorUnits, 'toMinorUnits');
  const f = asRate(fromRate, 'fromRate');
  const t = asRate(toRate, 'toRate');
  // amount/10^fmu / (fm/10^fs) * (tm/10^ts) * 10^tmu
  const num = amountMinor * pow10(f.scale) * t.mantissa * pow10(toMinorUnits);
  const den = pow10(fromMinorUnits) * f.mantissa * pow10(t.scale);
  return divRoundHalfAwayFromZero(num, den);
}
