import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ecbXml } from '../../test/support/ecb-xml.ts';
import { EcbParseError, detectAndParseEcb, detectEcbFormat, parseEcbCsv, parseEcbXml } from './ecb.ts';

const CSV_PATH = fileURLToPath(new URL('../ecb/eurofxref-hist.csv', import.meta.url));
const SHIPPED = readFileSync(CSV_PATH, 'utf8');

const DAILY_XML = ecbXml({ '2026-04-14': { USD: '1.1702', JPY: '187.02', GBP: '0.87111', ISK: '143.5' } });
const HIST_XML = ecbXml({
  '2026-04-13': { USD: '1.1684', JPY: '186.75', GBP: '0.87058' },
  '2026-04-10': { USD: '1.1711', JPY: '186.43', GBP: '0.87105' },
});

/** Independent count of the rates in the shipped CSV: every non-empty, non-N/A cell after the date. */
function countShippedRates(): { count: number; first: string; last: string } {
  const lines = SHIPPED.trim().split('\n').slice(1);
  let count = 0;
  for (const l of lines) for (const c of l.split(',').slice(1)) if (c !== '' && c !== 'N/A') count++;
  return { count, first: lines[lines.length - 1]!.slice(0, 10), last: lines[0]!.slice(0, 10) };
}

function expectParseError(fn: () => unknown, line: number | undefined | 'any', pattern: RegExp): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(EcbParseError);
  if (line === 'any') expect((err as EcbParseError).line).toBeGreaterThan(0);
  else expect((err as EcbParseError).line).toBe(line);
  expect((err as Error).message).toMatch(pattern);
  if (typeof line === 'number') expect((err as Error).message).toMatch(new RegExp(`^line ${line}:`));
}

// ---------------------------------------------------------------------------------------------------------------

describe('parseEcbCsv', () => {
  it('reads the shipped history: every published rate, N/A skipped, exact strings', () => {
    const obs = parseEcbCsv(SHIPPED);
    const ref = countShippedRates();
    expect(obs.length).toBe(ref.count);
    const dates = obs.map((o) => o.date).sort();
    expect(dates[0]).toBe('1999-01-04');
    expect(dates[dates.length - 1]).toBe('2026-04-13');
    expect(ref.first).toBe('1999-01-04');
    expect(obs.some((o) => o.rate === 'N/A' || o.rate === '')).toBe(false);
    expect(obs).toContainEqual({ date: '2026-04-13', currency: 'USD', rate: '1.1684' });
    expect(obs).toContainEqual({ date: '1999-01-04', currency: 'CYP', rate: '0.58231' });
    expect(obs).toContainEqual({ date: '1999-01-04', currency: 'TRL', rate: '372274' });
    // BGN is N/A on 1999-01-04 in the file: no observation, no placeholder
    expect(obs.find((o) => o.date === '1999-01-04' && o.currency === 'BGN')).toBeUndefined();
    expect(new Set(obs.map((o) => o.currency)).size).toBe(41);
  });

  it('handles the layout: trailing comma, N/A, empty cells, CRLF, BOM, blank lines', () => {
    const text = '\uFEFFDate,USD,JPY,ISK,\r\n2024-04-02,1.0749,163.01,N/A,\r\n\r\n2024-03-28,1.0811,,150.1,\r\n';
    expect(parseEcbCsv(text)).toEqual([
      { date: '2024-04-02', currency: 'USD', rate: '1.0749' },
      { date: '2024-04-02', currency: 'JPY', rate: '163.01' },
      { date: '2024-03-28', currency: 'USD', rate: '1.0811' },
      { date: '2024-03-28', currency: 'ISK', rate: '150.1' },
    ]);
    // without trailing commas too
    expect(parseEcbCsv('Date,USD\n2024-04-02,1.0749\n')).toEqual([{ date: '2024-04-02', currency: 'USD', rate: '1.0749' }]);
    expect(parseEcbCsv('Date,USD,\n')).toEqual([]);
  });

  it('reads the daily eurofxref.csv layout', () => {
    const text = 'Date, USD, JPY, BGN, CZK, \n13 April 2026, 1.1684, 186.75, N/A, 24.378, \n';
    expect(parseEcbCsv(text)).toEqual([
      { date: '2026-04-13', currency: 'USD', rate: '1.1684' },
      { date: '2026-04-13', currency: 'JPY', rate: '186.75' },
      { date: '2026-04-13', currency: 'CZK', rate: '24.378' },
    ]);
  });

  it.each([
    ['garbage rate', 'Date,USD,JPY,\n2024-04-02,1.0749,163.01,\n2024-03-28,abc,163.45,\n', 3, /invalid rate "abc" for USD on 2024-03-28/],
    ['exponent', 'Date,USD,\n2024-04-02,1.07e0,\n', 2, /invalid rate "1.07e0"/],
    ['negative', 'Date,USD,\n2024-04-02,-1.07,\n', 2, /invalid rate "-1.07"/],
    ['zero', 'Date,USD,\n2024-04-02,0.0000,\n', 2, /invalid rate "0.0000"/],
    ['leading dot', 'Date,USD,\n2024-04-02,.5,\n', 2, /invalid rate/],
    ['impossible date', 'Date,USD,\n2024-02-30,1.07,\n', 2, /invalid date "2024-02-30"/],
    ['slashed date', 'Date,USD,\n2024/02/03,1.07,\n', 2, /invalid date/],
    ['lower-case code', 'Date,usd,\n2024-04-02,1.07,\n', 1, /invalid currency code "usd"/],
    ['long code', 'Date,USDX,\n2024-04-02,1.07,\n', 1, /invalid currency code "USDX"/],
    ['EUR column', 'Date,EUR,\n2024-04-02,1,\n', 1, /EUR/],
    ['duplicate column', 'Date,USD,USD,\n2024-04-02,1.07,1.07,\n', 1, /twice/],
    ['not ECB', 'Day,USD,\n2024-04-02,1.07,\n', 1, /first column must be "Date"/],
    ['too few cells', 'Date,USD,JPY,\n2024-04-02,1.07,\n2024-04-03,1.07\n', 3, /expected 3 cells/],
    ['too many cells', 'Date,USD,\n2024-04-02,1.07,2.0,3.0\n', 2, /expected 2 cells/],
    ['decimal comma', 'Date,USD,JPY,\n2024-04-02,1,07,163.01,\n', 2, /expected 3 cells/],
    ['duplicate date', 'Date,USD,\n2024-04-02,1.07,\n2024-04-02,1.08,\n', 3, /already given on line 2/],
  ])('rejects %s, naming the line', (_name, text, line, pattern) => {
    expectParseError(() => parseEcbCsv(text), line, pattern);
  });

  it('rejects an empty file', () => {
    expectParseError(() => parseEcbCsv(''), undefined, /empty/);
  });
});

describe('parseEcbXml', () => {
  it('reads the daily feed', () => {
    expect(parseEcbXml(DAILY_XML)).toEqual([
      { date: '2026-04-14', currency: 'USD', rate: '1.1702' },
      { date: '2026-04-14', currency: 'JPY', rate: '187.02' },
      { date: '2026-04-14', currency: 'GBP', rate: '0.87111' },
      { date: '2026-04-14', currency: 'ISK', rate: '143.5' },
    ]);
  });

  it('reads the history feed with several days, keeping exact strings', () => {
    const obs = parseEcbXml(HIST_XML);
    expect(obs).toHaveLength(6);
    expect(obs).toContainEqual({ date: '2026-04-10', currency: 'GBP', rate: '0.87105' });
  });

  it('agrees with the CSV for the same data', () => {
    const csv = parseEcbCsv('Date,USD,JPY,GBP,\n2026-04-13,1.1684,186.75,0.87058,\n2026-04-10,1.1711,186.43,0.87105,\n');
    expect(parseEcbXml(HIST_XML)).toEqual(csv);
  });

  it('reads a full-size history feed (the shipped history as XML) identically to the CSV', () => {
    const csvObs = parseEcbCsv(SHIPPED);
    const days: Record<string, Record<string, string>> = {};
    for (const o of csvObs) (days[o.date] ??= {})[o.currency] = o.rate;
    expect(parseEcbXml(ecbXml(days))).toEqual(csvObs);
  }, 60_000);

  it('accepts double-quoted attributes and a day with no rates', () => {
    const text = DAILY_XML.replace(/'/g, '"').replace("<Cube time=\"2026-04-14\">", '<Cube time="2026-04-15"></Cube><Cube time="2026-04-14">');
    expect(parseEcbXml(text)).toHaveLength(4);
  });

  it('rejects a garbage rate, naming its line', () => {
    const text = DAILY_XML.replace("rate='187.02'", "rate='1,87'");
    const line = text.split('\n').findIndex((l) => l.includes("rate='1,87'")) + 1;
    expectParseError(() => parseEcbXml(text), line, /invalid rate "1,87" for JPY on 2026-04-14/);
  });

  it('rejects a bad date and a bad currency, naming the line', () => {
    const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const badDate = DAILY_XML.replace('2026-04-14', '2026-02-30');
    expect(lineOf(badDate, '2026-02-30')).toBe(8);
    expectParseError(() => parseEcbXml(badDate), 8, /invalid date "2026-02-30"/);
    const badCur = DAILY_XML.replace("currency='GBP'", "currency='gbp'");
    expectParseError(() => parseEcbXml(badCur), lineOf(badCur, "'gbp'"), /invalid currency code "gbp"/);
  });

  it('rejects malformed XML and foreign XML', () => {
    expectParseError(() => parseEcbXml(DAILY_XML.replace('</gesmes:Envelope>', '')), 'any', /malformed XML/);
    expect(() => parseEcbXml('<?xml version="1.0"?><rates><rate/></rates>')).toThrow(/not an ECB/);
  });
});

describe('detectAndParseEcb', () => {
  it('detects by extension and by content', () => {
    expect(detectEcbFormat('eurofxref-hist.csv', '')).toBe('csv');
    expect(detectEcbFormat('eurofxref-daily.XML', '')).toBe('xml');
    expect(detectEcbFormat('download', DAILY_XML)).toBe('xml');
    expect(detectEcbFormat('download', 'Date,USD,\n')).toBe('csv');
    expect(() => detectEcbFormat('rates.txt', 'hello')).toThrow(/cannot tell/);
  });
  it('parses either format and refuses a file with no rates', () => {
    expect(detectAndParseEcb('eurofxref-daily.xml', DAILY_XML)).toHaveLength(4);
    expect(detectAndParseEcb('eurofxref-hist.csv', SHIPPED).length).toBe(countShippedRates().count);
    expect(() => detectAndParseEcb('empty.csv', 'Date,USD,\n')).toThrow(/no exchange rate/);
  });
});
