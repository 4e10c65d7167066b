/**
 * ECB euro foreign exchange reference rates: parsers for the ECB's published formats. Storing them is the
 * calculation service's business (services/calculation/src/repositories/ecb-rates.ts).
 *
 * Source: European Central Bank, euro foreign exchange reference rates (published about 16:00 CET on TARGET
 * working days, "for information purposes only"; reuse with the source named). See seeds/ecb/README.md.
 *
 * Formats read:
 * - `eurofxref-hist.csv`: `Date,USD,JPY,...,` then `2026-04-13,1.1684,186.75,...,` (trailing comma on every
 *   line, `N/A` where no rate); also the daily `eurofxref.csv` (`Date, USD, ...` / `13 April 2026, 1.1684, ...`).
 * - `eurofxref-hist.xml`, `eurofxref-hist-90d.xml`, `eurofxref-daily.xml`:
 *   `gesmes:Envelope > Cube > Cube time="YYYY-MM-DD" > Cube currency="USD" rate="1.0823"`.
 *
 * Every value is "units of currency per 1 EUR" and is kept as the exact decimal string published. `N/A` and empty
 * cells are skipped: a missing rate stays missing.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { csvRecords, CsvSyntaxError } from '@vat/platform/csv-reader';

/** One published rate: `rate` units of `currency` per 1 EUR on `date` (YYYY-MM-DD), exact decimal as published. */
export interface EcbObservation {
  date: string;
  currency: string;
  rate: string;
}

/** A malformed ECB file. `line` is 1-based where known. */
export class EcbParseError extends Error {
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'EcbParseError';
    this.line = line;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// value validation

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CURRENCY_RE = /^[A-Z]{3}$/;
const RATE_RE = /^\d+(?:\.\d+)?$/;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const dim = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= dim;
}

/** Accepts `YYYY-MM-DD` (history files, XML) and `D Month YYYY` (daily CSV); returns YYYY-MM-DD or undefined. */
function normaliseDate(text: string): string | undefined {
  const iso = ISO_DATE_RE.exec(text);
  if (iso) {
    return isCalendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3])) ? text : undefined;
  }
  const long = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  if (long) {
    const m = MONTHS.indexOf(long[2]!.toLowerCase()) + 1;
    const d = Number(long[1]);
    const y = Number(long[3]);
    if (m === 0 || !isCalendarDate(y, m, d)) return undefined;
    return `${long[3]}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }
  return undefined;
}

function checkDate(text: string, line: number | undefined): string {
  const d = normaliseDate(text);
  if (d === undefined) throw new EcbParseError(`invalid date ${JSON.stringify(text)} (expected a calendar date YYYY-MM-DD)`, line);
  return d;
}

function checkCurrency(text: string, line: number | undefined): string {
  if (!CURRENCY_RE.test(text)) {
    throw new EcbParseError(`invalid currency code ${JSON.stringify(text)} (expected 3 upper-case letters)`, line);
  }
  if (text === 'EUR') throw new EcbParseError('EUR cannot have a reference rate against itself', line);
  return text;
}

/** True for a positive plain decimal (no sign, no exponent, not zero). */
function isValidEcbRate(text: string): boolean {
  return RATE_RE.test(text) && /[1-9]/.test(text);
}

function checkRate(text: string, currency: string, date: string, line: number | undefined): string {
  if (!isValidEcbRate(text)) {
    throw new EcbParseError(
      `invalid rate ${JSON.stringify(text)} for ${currency} on ${date} (expected a positive decimal such as 1.0823)`,
      line,
    );
  }
  return text;
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

function readHeader(cells: string[], line: number): string[] {
  if (cells[0]?.toLowerCase() !== 'date') {
    throw new EcbParseError(`not an ECB reference rate CSV: the first column must be "Date", found ${JSON.stringify(cells[0])}`, line);
  }
  if (cells.length > 1 && cells[cells.length - 1] === '') cells.pop();
  if (cells.length < 2) throw new EcbParseError('the header names no currency', line);
  const seen = new Set<string>();
  for (const c of cells.slice(1)) {
    checkCurrency(c, line);
    if (seen.has(c)) throw new EcbParseError(`currency ${c} appears twice in the header`, line);
    seen.add(c);
  }
  return cells;
}

/** Parses an ECB CSV file (history or daily layout). Throws {@link EcbParseError} naming the line. */
export function parseEcbCsv(text: string): EcbObservation[] {
  let header: string[] | undefined;
  const dates = new Map<string, number>();
  const out: EcbObservation[] = [];
  try {
    for (const record of csvRecords(text)) {
      const { line } = record;
      const cells = record.cells.map((c) => c.trim());
      if (cells.length === 1 && cells[0] === '') continue; // a line of spaces
      if (header === undefined) {
        header = readHeader(cells, line);
        continue;
      }
      // the ECB ends every line with a comma; tolerate its presence or absence on either side
      if (cells.length === header.length + 1 && cells[cells.length - 1] === '') cells.pop();
      if (cells.length !== header.length) {
        throw new EcbParseError(`expected ${header.length} cells (Date + ${header.length - 1} currencies), found ${cells.length}`, line);
      }
      const date = checkDate(cells[0]!, line);
      const prev = dates.get(date);
      if (prev !== undefined) throw new EcbParseError(`date ${date} already given on line ${prev}`, line);
      dates.set(date, line);
      for (let i = 1; i < header.length; i++) {
        const v = cells[i]!;
        if (v === '' || v === 'N/A') continue; // missing stays missing
        const currency = header[i]!;
        out.push({ date, currency, rate: checkRate(v, currency, date, line) });
      }
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new EcbParseError(err.detail, err.line);
    throw err;
  }
  if (header === undefined) throw new EcbParseError('empty file: no ECB CSV header');
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// XML

function lineAt(text: string, index: number): number | undefined {
  if (index < 0) return undefined;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function findAttr(text: string, name: string, value: string, from = 0): number {
  const re = new RegExp(`\\b${name}\\s*=\\s*["']${escapeRe(value)}["']`, 'g');
  re.lastIndex = from;
  const m = re.exec(text);
  return m ? m.index : -1;
}

type XmlNode = Record<string, unknown>;

function asNodes(v: unknown): XmlNode[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is XmlNode => typeof x === 'object' && x !== null);
}

/**
 * Parses the ECB XML feeds (`eurofxref-daily.xml`, `eurofxref-hist.xml`, `eurofxref-hist-90d.xml`).
 * Throws {@link EcbParseError} naming the line where it can be located.
 */
export function parseEcbXml(text: string): EcbObservation[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new EcbParseError(`malformed XML: ${valid.err.msg}`, valid.err.line);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseAttributeValue: false,
    parseTagValue: false,
    processEntities: false,
    isArray: (name) => name === 'Cube',
  });
  const doc = parser.parse(text) as XmlNode;
  const envelope = asNodes(doc['Envelope'])[0];
  if (!envelope) throw new EcbParseError('not an ECB reference rate XML file: no gesmes:Envelope root');
  const outer = asNodes(envelope['Cube']);
  if (outer.length !== 1) throw new EcbParseError('not an ECB reference rate XML file: expected one Cube in the Envelope');
  const out: EcbObservation[] = [];
  const seenDates = new Set<string>();
  // Line numbers are only worked out on the error path (the history feed has ~200k Cubes).
  const lineOfDay = (time: string, occurrence = 1): number | undefined => {
    let pos = -1;
    for (let i = 0; i < occurrence; i++) pos = findAttr(text, 'time', time, pos + 1);
    return lineAt(text, pos);
  };
  const lineOfRate = (time: string, attr: string, value: string): number | undefined => {
    const dayPos = findAttr(text, 'time', time);
    const pos = dayPos === -1 ? -1 : findAttr(text, attr, value, dayPos);
    return lineAt(text, pos === -1 ? dayPos : pos);
  };
  for (const day of asNodes(outer[0]!['Cube'])) {
    const time = day['@_time'];
    if (typeof time !== 'string') {
      throw new EcbParseError('a day Cube has no time attribute', lineAt(text, text.search(/<(?:\w+:)?Cube(?![^>]*\btime\s*=)[^>]*>\s*<(?:\w+:)?Cube[^>]*\bcurrency/)));
    }
    if (normaliseDate(time) !== time || !ISO_DATE_RE.test(time)) {
      throw new EcbParseError(`invalid date ${JSON.stringify(time)} (expected a calendar date YYYY-MM-DD)`, lineOfDay(time));
    }
    const date = time;
    if (seenDates.has(date)) throw new EcbParseError(`date ${date} appears twice`, lineOfDay(time, 2));
    seenDates.add(date);
    const seenCur = new Set<string>();
    for (const c of asNodes(day['Cube'])) {
      const currency = c['@_currency'];
      const rate = c['@_rate'];
      if (typeof currency !== 'string') {
        throw new EcbParseError(`a rate Cube on ${date} has no currency attribute`, lineOfDay(time));
      }
      if (!CURRENCY_RE.test(currency) || currency === 'EUR') checkCurrency(currency, lineOfRate(time, 'currency', currency));
      if (seenCur.has(currency)) {
        throw new EcbParseError(`currency ${currency} appears twice on ${date}`, lineOfRate(time, 'currency', currency));
      }
      seenCur.add(currency);
      if (typeof rate !== 'string') {
        throw new EcbParseError(`no rate attribute for ${currency} on ${date}`, lineOfRate(time, 'currency', currency));
      }
      const v = rate.trim();
      if (v === '' || v === 'N/A') continue;
      if (!isValidEcbRate(v)) checkRate(v, currency, date, lineOfRate(time, 'currency', currency));
      out.push({ date, currency, rate: v });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// detection

type EcbFormat = 'csv' | 'xml';

/** Format from the file name's extension, else from the content. */
export function detectEcbFormat(fileName: string, text: string): EcbFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.xml')) return 'xml';
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) return 'xml';
  if (/^date\s*,/i.test(head)) return 'csv';
  throw new EcbParseError(`cannot tell the format of ${fileName}: expected an ECB .csv or .xml file`);
}

/**
 * Parses an ECB file of either format. Throws when the file holds no rate at all, so that an operator importing
 * the wrong file is told so instead of importing nothing.
 */
export function detectAndParseEcb(fileName: string, text: string): EcbObservation[] {
  const format = detectEcbFormat(fileName, text);
  const obs = format === 'csv' ? parseEcbCsv(text) : parseEcbXml(text);
  if (obs.length === 0) throw new EcbParseError(`${fileName}: no exchange rate found`);
  return obs;
}
