import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EcbRateTable } from '../../platform/src/fx.ts';
import {
  ECB_RATE_TABLE_DDL,
  EcbParseError,
  detectAndParseEcb,
  detectEcbFormat,
  ecbRateSelectSql,
  importEcbObservations,
  parseEcbCsv,
  parseEcbCsvLines,
  parseEcbXml,
  type EcbObservation,
  type SqlFn,
} from './ecb.ts';

const CSV_PATH = fileURLToPath(new URL('../ecb/eurofxref-hist.csv', import.meta.url));
const SHIPPED = readFileSync(CSV_PATH, 'utf8');

/** Layout of the ECB XML feeds (gesmes:Envelope > Cube > Cube time > Cube currency/rate), single-quoted as the ECB does. */
function ecbXml(days: Record<string, Record<string, string>>): string {
  const body = Object.entries(days)
    .map(
      ([time, rates]) =>
        `\t\t<Cube time='${time}'>\n` +
        Object.entries(rates)
          .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>\n`)
          .join('') +
        '\t\t</Cube>\n',
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">\n' +
    '\t<gesmes:subject>Reference rates</gesmes:subject>\n' +
    '\t<gesmes:Sender>\n\t\t<gesmes:name>European Central Bank</gesmes:name>\n\t</gesmes:Sender>\n' +
    '\t<Cube>\n' +
    body +
    '\t</Cube>\n' +
    '</gesmes:Envelope>\n'
  );
}

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

describe('parseEcbCsvLines (streaming)', () => {
  it('yields the same observations as parseEcbCsv for the shipped file', async () => {
    const rl = createInterface({ input: createReadStream(CSV_PATH), crlfDelay: Infinity });
    const streamed: EcbObservation[] = [];
    for await (const o of parseEcbCsvLines(rl)) streamed.push(o);
    expect(streamed).toEqual(parseEcbCsv(SHIPPED));
  });

  it('reports errors with the line number', async () => {
    const lines = ['Date,USD,', '2024-04-02,1.07,', '2024-04-01,1.0x,'];
    const seen: EcbObservation[] = [];
    await expect(
      (async () => {
        for await (const o of parseEcbCsvLines(lines)) seen.push(o);
      })(),
    ).rejects.toThrow(/^line 3: invalid rate "1.0x"/);
    expect(seen).toHaveLength(1);
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

  it('reads a full-size history feed (the shipped history as XML) fast and identically to the CSV', () => {
    const csvObs = parseEcbCsv(SHIPPED);
    const days: Record<string, Record<string, string>> = {};
    for (const o of csvObs) (days[o.date] ??= {})[o.currency] = o.rate;
    const xml = ecbXml(days);
    const t0 = performance.now();
    const xmlObs = parseEcbXml(xml);
    const ms = performance.now() - t0;
    expect(xmlObs).toEqual(csvObs);
    expect(ms).toBeLessThan(15_000);
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

describe('ECB_RATE_TABLE_DDL', () => {
  it('matches the documented table and refuses odd schema names', () => {
    expect(ECB_RATE_TABLE_DDL('reference')).toBe(
      'CREATE TABLE IF NOT EXISTS "reference".ecb_rate (currency char(3) NOT NULL, rate_date date NOT NULL, ' +
        'rate numeric(18,6) NOT NULL CHECK (rate > 0), PRIMARY KEY (currency, rate_date))',
    );
    expect(() => ECB_RATE_TABLE_DDL('x; drop table y')).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// against PostgreSQL

const PG_URL = process.env.ECB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('importEcbObservations (PostgreSQL)', () => {
  const schema = `ecb_test_${process.pid}_${Date.now()}`;
  let client: pg.Client;
  let sql: SqlFn;
  let statements = 0;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    sql = (q, p) => {
      statements++;
      return client.query(q, p);
    };
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(ECB_RATE_TABLE_DDL(schema));
  });

  afterAll(async () => {
    if (!client) return;
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  async function count(): Promise<number> {
    const r = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${schema}".ecb_rate`);
    return Number(r.rows[0]!.n);
  }

  it('imports a small file in batches, reporting progress', async () => {
    const obs = parseEcbXml(HIST_XML);
    const progress: [number, number][] = [];
    statements = 0;
    const res = await importEcbObservations(sql, obs, (d, t) => progress.push([d, t]), { schema, batchSize: 4 });
    expect(res).toEqual({
      total: 6,
      inserted: 6,
      updated: 0,
      unchanged: 0,
      firstDate: '2026-04-10',
      lastDate: '2026-04-13',
      currencies: ['GBP', 'JPY', 'USD'],
    });
    expect(progress).toEqual([
      [4, 6],
      [6, 6],
    ]);
    expect(statements).toBe(2);
    const r = await client.query(`SELECT rate::text AS rate FROM "${schema}".ecb_rate WHERE currency = 'GBP' AND rate_date = '2026-04-10'`);
    expect(r.rows[0].rate).toBe('0.871050');
  });

  it('importing the same data again changes nothing', async () => {
    const before = await client.query(ecbRateSelectSql(schema));
    const res = await importEcbObservations(sql, parseEcbXml(HIST_XML), undefined, { schema });
    expect(res).toMatchObject({ total: 6, inserted: 0, updated: 0, unchanged: 6 });
    const after = await client.query(ecbRateSelectSql(schema));
    expect(after.rows).toEqual(before.rows);
  });

  it('a newer daily XML adds the new day', async () => {
    const res = await importEcbObservations(sql, detectAndParseEcb('eurofxref-daily.xml', DAILY_XML), undefined, { schema });
    expect(res).toMatchObject({ total: 4, inserted: 4, updated: 0, unchanged: 0, firstDate: '2026-04-14', lastDate: '2026-04-14' });
    expect(await count()).toBe(10);
  });

  it('an ECB correction updates just that rate', async () => {
    const corrected = ecbXml({ '2026-04-13': { USD: '1.1685', JPY: '186.75', GBP: '0.870580' } });
    const res = await importEcbObservations(sql, parseEcbXml(corrected), undefined, { schema });
    expect(res).toMatchObject({ total: 3, inserted: 0, updated: 1, unchanged: 2 });
    const r = await client.query(`SELECT rate::text AS rate FROM "${schema}".ecb_rate WHERE currency = 'USD' AND rate_date = '2026-04-13'`);
    expect(r.rows[0].rate).toBe('1.168500');
  });

  it('validates everything before writing anything', async () => {
    const before = await count();
    const ok = { date: '2026-04-15', currency: 'USD', rate: '1.17' };
    await expect(importEcbObservations(sql, [ok, { date: '2026-04-15', currency: 'JPY', rate: '1.1234567' }], undefined, { schema })).rejects.toThrow(
      /numeric\(18,6\)/,
    );
    await expect(importEcbObservations(sql, [ok, { ...ok, rate: '1.18' }], undefined, { schema })).rejects.toThrow(/conflicting/);
    await expect(importEcbObservations(sql, [ok, { ...ok, currency: 'EUR' }], undefined, { schema })).rejects.toThrow(/currency/);
    await expect(importEcbObservations(sql, [ok, { ...ok, date: '2026-02-29' }], undefined, { schema })).rejects.toThrow(/date/);
    await expect(importEcbObservations(sql, [ok, { ...ok, rate: '0' }], undefined, { schema })).rejects.toThrow(/rate/);
    expect(await count()).toBe(before);
    // identical duplicates collapse (the same day in two files)
    const res = await importEcbObservations(sql, [ok, { ...ok, rate: '1.170' }], undefined, { schema });
    expect(res).toMatchObject({ total: 1, inserted: 1 });
  });

  it('imports the whole shipped history idempotently and reads back exactly', async () => {
    await client.query(`TRUNCATE "${schema}".ecb_rate`);
    const obs = detectAndParseEcb('eurofxref-hist.csv', SHIPPED);
    let last: [number, number] = [0, 0];
    let calls = 0;
    const first = await importEcbObservations(sql, obs, (d, t) => {
      calls++;
      expect(d).toBeGreaterThan(last[0]);
      last = [d, t];
    }, { schema });
    expect(first).toMatchObject({ total: obs.length, inserted: obs.length, updated: 0, firstDate: '1999-01-04', lastDate: '2026-04-13' });
    expect(first.currencies).toHaveLength(41);
    expect(last).toEqual([obs.length, obs.length]);
    expect(calls).toBe(Math.ceil(obs.length / 1000));

    const second = await importEcbObservations(sql, obs, undefined, { schema });
    expect(second).toMatchObject({ inserted: 0, updated: 0, unchanged: obs.length });

    // read back through the lookup module: every rate equals the file's decimal
    const rows = (await client.query<{ currency: string; rate_date: string; rate: string }>(ecbRateSelectSql(schema))).rows;
    expect(rows).toHaveLength(obs.length);
    const fromDb = EcbRateTable.fromDbRows(rows);
    const fromFile = EcbRateTable.fromObservations(obs);
    const mismatches = obs.filter((o) => fromDb.rateOn(o.currency, o.date)?.decimal !== fromFile.rateOn(o.currency, o.date)?.decimal);
    expect(mismatches).toEqual([]);
    expect(fromDb.rateOnOrNextPublication('USD', '2024-03-29')?.rateDate).toBe('2024-04-02');
    expect(fromDb.lastPublicationDate()).toBe('2026-04-13');

    // the rows node-postgres returns without casts (Date, numeric string) load too
    const plain = await client.query(`SELECT currency, rate_date, rate FROM "${schema}".ecb_rate WHERE rate_date >= '2024-03-01' AND rate_date < '2024-05-01'`);
    const t2 = EcbRateTable.fromDbRows(plain.rows);
    expect(t2.rateOn('USD', '2024-04-02')?.decimal).toBe(fromFile.rateOn('USD', '2024-04-02')?.decimal);
  }, 180_000);
});
