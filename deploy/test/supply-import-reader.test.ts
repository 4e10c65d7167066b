import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CsvReader, type CsvRecord } from '@vat/platform/csv-reader';
import { MAX_RECORD_BYTES, NdjsonReader, type NdjsonRecord } from '../src/supply-import-reader';
import { ImportFileError, ImportLineReader, type ImportLine } from '../src/supply-import-records';

/** Feeds `bytes` to a fresh reader in the given chunk sizes (cycled), then ends it. */
function feed<R>(make: () => { push(c: Uint8Array): R[]; end(): R[] }, bytes: Uint8Array, sizes: number[] = [bytes.length || 1]): R[] {
  const reader = make();
  const out: R[] = [];
  let at = 0;
  for (let k = 0; at < bytes.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]!);
    out.push(...reader.push(bytes.subarray(at, at + n)));
    at += n;
  }
  out.push(...reader.end());
  return out;
}

const csv = (text: string | Uint8Array, sizes?: number[]) => feed<CsvRecord>(() => new CsvReader(), typeof text === 'string' ? Buffer.from(text) : text, sizes);
const ndjson = (text: string | Uint8Array, sizes?: number[]) => feed<NdjsonRecord>(() => new NdjsonReader(), typeof text === 'string' ? Buffer.from(text) : text, sizes);

/** RFC 4180 writer for the tests: quotes a cell when it must (or when asked to). */
function encodeCell(cell: string, forceQuote: boolean, only: boolean): string {
  // A record of one empty unquoted cell would be a blank line (skipped), so that one is quoted.
  return forceQuote || /[",\r\n]/.test(cell) || (only && cell === '') ? `"${cell.replaceAll('"', '""')}"` : cell;
}

const chunkSizes = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 });

describe('CsvReader (RFC 4180, streaming)', () => {
  it('round-trips any cells through quoting, with CRLF or LF, whatever the chunk boundaries', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', ',', '"', '\r', '\n', 'é', '€', '😀', '\t', "'") , maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(cell, fc.boolean()), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\r\n', '\n'),
        fc.boolean(),
        chunkSizes,
        (rows, eol, finalEol, sizes) => {
          const text = rows.map((r) => r.map(([c, q]) => encodeCell(c, q, r.length === 1)).join(',')).join(eol) + (finalEol ? eol : '');
          const lfsIn = (r: [string, boolean][]) => r.map(([c]) => c).join('').split('\n').length - 1;
          const lineOf = (i: number) => 1 + rows.slice(0, i).reduce((n, prev) => n + 1 + lfsIn(prev), 0);
          expect(csv(text, sizes)).toEqual(rows.map((r, i) => ({ line: lineOf(i), fields: r.map(([c]) => c) })));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never throws on any bytes, and chunking never changes the result', () => {
    const bytes = fc.uint8Array({ maxLength: 300 }).chain((b) => fc.constant(b));
    const noisy = fc.array(fc.constantFrom(0x22, 0x2c, 0x0d, 0x0a, 0x61, 0xc3, 0xa9, 0xff, 0xef, 0xbb, 0xbf, 0x00), { maxLength: 200 }).map((a) => Uint8Array.from(a));
    fc.assert(
      fc.property(fc.oneof(bytes, noisy), chunkSizes, (b, sizes) => {
        const whole = csv(b);
        expect(csv(b, sizes)).toEqual(whole);
        let last = 0;
        for (const r of whole) {
          expect(r.line).toBeGreaterThan(last);
          last = r.line;
          if ('error' in r) expect(['invalid_csv', 'invalid_encoding', 'record_too_long']).toContain(r.error);
          else expect(r.fields.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('reports physical line numbers across quoted line breaks; skips blank lines and a BOM', () => {
    const text = '\uFEFFa,b\r\n"x\ny",2\r\n\r\nc,"multi\r\nline\r\ncell"\nlast,1';
    expect(csv(text, [3])).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x\ny', '2'] },
      { line: 5, fields: ['c', 'multi\r\nline\r\ncell'] },
      { line: 8, fields: ['last', '1'] },
    ]);
  });

  it('rejects malformed records and goes on with the next line', () => {
    const records = csv('a,b\nab"c,1\n"x"y,2\nok,3\n"open,4\nnever closed');
    expect(records[0]).toEqual({ line: 1, fields: ['a', 'b'] });
    expect(records[1]).toMatchObject({ line: 2, error: 'invalid_csv' });
    expect(records[2]).toMatchObject({ line: 3, error: 'invalid_csv' });
    expect(records[3]).toEqual({ line: 4, fields: ['ok', '3'] });
    expect(records[4]).toMatchObject({ line: 5, error: 'invalid_csv', detail: expect.stringContaining('not closed') });
    expect(records).toHaveLength(5);
  });

  it('rejects a line that is not UTF-8 (no silent replacement characters)', () => {
    const bad = Buffer.concat([Buffer.from('a,b\nx,'), Buffer.from([0xc3, 0x28]), Buffer.from('\n"q\xff",1\ny,2\n', 'latin1')]);
    const records = csv(bad, [2]);
    expect(records.map((r) => ('error' in r ? r.error : r.fields.join('|')))).toEqual(['a|b', 'invalid_encoding', 'invalid_encoding', 'y|2']);
  });

  it('rejects a record over the size limit without buffering the rest of the file', () => {
    const summary = (rs: CsvRecord[]) => rs.map((r) => ('error' in r ? `${r.line}:${r.error}` : `${r.line}:${r.fields.join('|').slice(0, 20)}`));
    for (const extra of [10, 300_000]) {
      const long = 'x'.repeat(MAX_RECORD_BYTES + extra);
      for (const text of [`a,b\n${long},1\nc,2\n`, `a,b\n"${long}",1\nc,2\n`]) {
        expect(summary(csv(text, [65536]))).toEqual(['1:a|b', '2:record_too_long', '3:c|2']);
      }
    }
  });
});

describe('NdjsonReader', () => {
  it('one JSON value per line, LF or CRLF, blank lines skipped, bad lines rejected with their number', () => {
    const text = Buffer.concat([Buffer.from('{"a":1}\r\n\n  \n[1,2]\n{"b":\n'), Buffer.from([0x22, 0xff, 0x22, 0x0a]), Buffer.from('"s"')]);
    expect(ndjson(text, [1, 5])).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: [1, 2] },
      expect.objectContaining({ line: 5, error: 'invalid_json' }),
      expect.objectContaining({ line: 6, error: 'invalid_encoding' }),
      { line: 7, value: 's' },
    ]);
  });

  it('never throws on any bytes, whatever the chunks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), chunkSizes, (b, sizes) => {
        expect(ndjson(b, sizes)).toEqual(ndjson(b));
      }),
      { numRuns: 500 },
    );
  });
});

describe('ImportLineReader: records → ledger inputs with the API field names', () => {
  const lines = (format: 'csv' | 'ndjson', text: string): ImportLine[] => feed(() => new ImportLineReader(format), Buffer.from(text), [7]);
  const header = 'event_id,event_type,net_amount_minor,excise_goods,integration_id,product_reference';

  it('types integer and boolean cells; an empty cell is absent', () => {
    const [l] = lines('csv', `${header}\ne-1,sale,-12,true,7,\n`);
    expect(l).toEqual({ line: 2, eventId: 'e-1', input: expect.objectContaining({ eventId: 'e-1', eventType: 'sale', netAmountMinor: -12n, exciseGoods: true, integrationId: '7' }) });
    expect('input' in l! && l.input.productReference).toBeUndefined();
  });

  it('a cell of the wrong type or a wrong cell count rejects its line only', () => {
    const out = lines('csv', `${header}\ne-1,sale,12.5,yes,x,p\ne-2,sale,1\ne-3,sale,99999999999999999999,false,,\n`);
    expect(out[0]).toMatchObject({ line: 2, eventId: 'e-1', errors: [{ error: 'invalid_net_amount_minor' }, { error: 'invalid_excise_goods' }, { error: 'invalid_integration_id' }] });
    expect(out[1]).toMatchObject({ line: 3, errors: [{ error: 'invalid_csv', detail: expect.stringContaining('6 columns') }] });
    expect(out[2]).toMatchObject({ line: 4, eventId: 'e-3', errors: [{ field: 'net_amount_minor', error: 'invalid_net_amount_minor' }] });
  });

  it('refuses a header with an unknown or repeated column, or no header at all', () => {
    expect(() => lines('csv', 'event_id,colour\ne,red\n')).toThrow(ImportFileError);
    expect(() => lines('csv', 'event_id,event_id\n')).toThrow(/twice/);
    expect(() => lines('csv', '')).toThrow(/no header/);
    expect(() => lines('csv', 'constructor,__proto__\n')).toThrow(ImportFileError);
  });

  it('NDJSON lines go through the same mapping as the REST API', () => {
    const out = lines('ndjson', '{"event_id":"n-1","net_amount_minor":5,"vat_rate_bps":null}\n{"event_id":"n-2","colour":"red"}\n7\n');
    expect(out[0]).toEqual({ line: 1, eventId: 'n-1', input: expect.objectContaining({ eventId: 'n-1', netAmountMinor: 5n }) });
    expect(out[1]).toMatchObject({ line: 2, eventId: 'n-2', errors: [{ field: 'colour', error: 'unknown_field' }] });
    expect(out[2]).toMatchObject({ line: 3, errors: [{ error: 'invalid_request' }] });
  });
});
