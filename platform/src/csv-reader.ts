import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import { Parser, type Options } from 'csv-parse';

/**
 * The one CSV reader: RFC 4180 (`,` separator, `"` quoting with `""` inside, CRLF or LF line ends, line
 * breaks inside quoted cells, UTF-8) read by csv-parse. It adds what every file import here needs: the
 * physical line each record starts on (the first line is 1), and malformed records as error records
 * instead of an end to the reading.
 */

/** Separators a file may use: comma (RFC 4180), semicolon (spreadsheets in German and other locales), tab, pipe. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** The separator of a header line: the candidate it holds most often outside quotes; a comma when none. */
export function detectDelimiter(header: Buffer): CsvDelimiter {
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  for (const d of CSV_DELIMITERS) {
    const code = d.charCodeAt(0);
    let count = 0;
    let quoted = false;
    for (const b of header) {
      if (b === 0x22) quoted = !quoted;
      else if (b === code && !quoted) count++;
    }
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

/** A record longer than this is rejected and reading goes on at the next line break. */
const MAX_CSV_RECORD_BYTES = 1024 * 1024;

type CsvRecordError = { line: number; error: 'invalid_csv' | 'invalid_encoding' | 'record_too_long'; detail: string };
export type CsvRecord = { line: number; fields: string[] } | CsvRecordError;

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ASCII = /^[\x00-\x7f]*$/;

// latin1 maps each byte to one character, so cells come out byte for byte (checked and decoded as UTF-8 here).
const OPTIONS: Options = {
  encoding: 'latin1',
  record_delimiter: ['\r\n', '\n'],
  skip_empty_lines: true,
  relax_column_count: true,
};

/** What a csv-parse error says, in this service's words. */
function problemOf(err: Error): string {
  switch ((err as { code?: string }).code) {
    case 'INVALID_OPENING_QUOTE':
      return 'A quote inside an unquoted cell (quote the whole cell and double the quote).';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'Text after a closing quote.';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'A quoted cell is not closed before the end of the file.';
    default:
      return `Malformed CSV record: ${err.message}`;
  }
}

/** The cells as UTF-8 text, or undefined when a cell is not UTF-8. */
function decodeCells(cells: string[]): string[] | undefined {
  const out: string[] = [];
  for (const cell of cells) {
    if (ASCII.test(cell)) {
      out.push(cell);
      continue;
    }
    const bytes = Buffer.from(cell, 'latin1');
    if (!isUtf8(bytes)) return undefined;
    out.push(bytes.toString('utf8'));
  }
  return out;
}

function countLf(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(LF, from); i !== -1 && i < to; i = buf.indexOf(LF, i + 1)) n++;
  return n;
}

/** The offset after the blank lines (`\n`, `\r\n`) at `from`. */
function skipBlankLines(buf: Buffer, from: number): number {
  let i = from;
  for (;;) {
    if (buf[i] === LF) i += 1;
    else if (buf[i] === CR && buf[i + 1] === LF) i += 2;
    else return i;
  }
}

/**
 * Streaming reader: bytes go in as they arrive (chunks split anywhere), records come out with the line they
 * start on. A leading byte-order mark and blank lines are skipped. A malformed record (bad quoting, not
 * UTF-8, longer than `maxRecordBytes`) becomes an error record, and reading goes on at the line break
 * after the fault. Nothing beyond the record being read is held, and no input makes it throw.
 */
export class CsvReader {
  private parser!: Parser;
  /** Global offset where the current parser's input starts. */
  private base = 0;
  /** Bytes since the end of the last record (blank lines, then the record being read), from global offset `heldAt` on line `heldLine`. */
  private held: Buffer = Buffer.alloc(0);
  private heldAt = 0;
  private heldLine = 1;
  private out: CsvRecord[] = [];
  private failure: Error | undefined;
  /** Bytes are dropped up to the next line break (the rest of a refused record). */
  private skipping = false;
  /** The first bytes, until it is known whether they start with a byte-order mark. */
  private head: Buffer | undefined = Buffer.alloc(0);
  private lastByte: number | undefined;
  /** The separator; undefined until the header line has shown it (`'detect'`). */
  private sep: CsvDelimiter | undefined;
  /** Bytes held until the header line is complete, when the separator is detected from it. */
  private undetected: Buffer | undefined;

  /** `delimiter`: one of CSV_DELIMITERS, or `'detect'` for the one the first line (the header) uses. */
  constructor(
    private readonly maxRecordBytes = MAX_CSV_RECORD_BYTES,
    delimiter: CsvDelimiter | 'detect' = ',',
  ) {
    if (delimiter === 'detect') this.undetected = Buffer.alloc(0);
    else this.sep = delimiter;
    this.restart(0);
  }

  /** The separator in use (once the header line was read, when detected). */
  get delimiter(): CsvDelimiter | undefined {
    return this.sep;
  }

  /** Feeds the next chunk; returns every record completed by it. */
  push(chunk: Uint8Array): CsvRecord[] {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.head) {
      this.head = Buffer.concat([this.head, bytes]);
      if (this.head.length >= BOM.length) this.feedHead();
    } else this.feed(bytes);
    return this.take();
  }

  /** The end of the input: the last record may lack its line break; a quote still open is an error. */
  end(): CsvRecord[] {
    if (this.head) this.feedHead();
    if (this.undetected) this.settleDelimiter(this.undetected);
    // A last line ending in a bare CR ends there, as one ending in CRLF would.
    if (this.lastByte === CR) this.feed(Buffer.from([LF]));
    while (!this.skipping) {
      this.parser.end();
      if (!this.failure) break;
      this.feed(this.recover());
    }
    return this.take();
  }

  private feedHead(): void {
    let bytes: Buffer = this.head!;
    this.head = undefined;
    if (bytes.subarray(0, BOM.length).equals(BOM)) {
      bytes = bytes.subarray(BOM.length);
      this.heldAt = this.base = BOM.length;
    }
    this.feed(bytes);
  }

  private take(): CsvRecord[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  /** A fresh parser for the input from global offset `at`. */
  private restart(at: number): void {
    this.base = at;
    this.failure = undefined;
    const parser = new Parser({
      ...OPTIONS,
      delimiter: this.sep ?? ',',
      max_record_size: this.maxRecordBytes,
      skip_records_with_error: true,
      on_record: (cells: string[], info: { bytes: number }) => {
        if (this.parser === parser && !this.failure) this.onRecord(cells, this.base + info.bytes);
        return null;
      },
      on_skip: (err: Error | undefined) => {
        if (this.parser === parser) this.failure ??= err ?? new Error('malformed record');
        return undefined;
      },
    } as Options);
    parser.on('error', () => undefined);
    this.parser = parser;
  }

  /** Detects the separator from `header`'s first line, then reads what was held with a parser that uses it. */
  private settleDelimiter(held: Buffer): void {
    const nl = held.indexOf(LF);
    this.sep = detectDelimiter(held.subarray(0, nl === -1 ? held.length : nl));
    this.undetected = undefined;
    this.restart(this.base);
    this.feed(held);
  }

  private feed(chunk: Buffer): void {
    if (this.undetected) {
      this.undetected = Buffer.concat([this.undetected, chunk]);
      if (this.undetected.indexOf(LF) !== -1 || this.undetected.length > this.maxRecordBytes) this.settleDelimiter(this.undetected);
      return;
    }
    let bytes: Buffer = chunk;
    if (bytes.length > 0) this.lastByte = bytes[bytes.length - 1];
    while (bytes.length > 0) {
      if (this.skipping) {
        const nl = bytes.indexOf(LF);
        if (nl === -1) {
          this.heldAt += bytes.length;
          return;
        }
        this.heldAt += nl + 1;
        this.heldLine += 1;
        this.skipping = false;
        this.restart(this.heldAt);
        bytes = bytes.subarray(nl + 1);
        continue;
      }
      this.held = this.held.length ? Buffer.concat([this.held, bytes]) : bytes;
      this.parser.write(bytes);
      bytes = this.failure ? this.recover() : Buffer.alloc(0);
    }
    this.dropBlankLines();
  }

  /** A record of the current parser ended at global offset `end`. */
  private onRecord(cells: string[], end: number): void {
    const line = this.recordLine();
    const fields = decodeCells(cells);
    this.out.push(fields ? { line, fields } : { line, error: 'invalid_encoding', detail: 'The record is not valid UTF-8.' });
    this.forget(end - this.heldAt);
  }

  /** Drops the first `n` held bytes (read and done with). */
  private forget(n: number): void {
    this.heldLine += countLf(this.held, 0, n);
    this.held = this.held.subarray(n);
    this.heldAt += n;
  }

  /** The line the record being read starts on (after any blank lines). */
  private recordLine(): number {
    return this.heldLine + countLf(this.held, 0, skipBlankLines(this.held, 0));
  }

  /** Blank lines before the next record need not be held (a trailing CR may still begin a CRLF). */
  private dropBlankLines(): void {
    const at = skipBlankLines(this.held, 0);
    if (at > 0) this.forget(at);
  }

  /**
   * The current parser refused the record being read: reports it, drops it up to the line break after the
   * fault, and returns the bytes after that break (already pushed) for a fresh parser.
   */
  private recover(): Buffer {
    const err = this.failure!;
    const code = (err as { code?: string }).code;
    const line = this.recordLine();
    const start = skipBlankLines(this.held, 0);
    let resume: number;
    if (code === 'CSV_MAX_RECORD_SIZE') {
      this.out.push({ line, error: 'record_too_long', detail: `A record is longer than ${this.maxRecordBytes} bytes; skipped to the next line.` });
      resume = this.held.indexOf(LF, start + this.maxRecordBytes);
    } else {
      this.out.push({ line, error: 'invalid_csv', detail: problemOf(err) });
      resume = code === 'CSV_QUOTE_NOT_CLOSED' ? -1 : this.faultLineEnd(start);
    }
    if (resume === -1) {
      this.forget(this.held.length);
      this.skipping = true;
      return Buffer.alloc(0);
    }
    const rest = this.held.subarray(resume + 1);
    this.forget(resume + 1);
    this.held = Buffer.alloc(0);
    this.restart(this.heldAt);
    return rest;
  }

  /**
   * The line break ending the line of the fault in the record held from `start` (-1: not yet pushed). The
   * record is read again line by line; csv-parse looks a few bytes ahead, so a fault seen while reading a
   * line may also be at the very end of the line before, which one more read of the record up to there tells.
   */
  private faultLineEnd(start: number): number {
    let failed = false;
    const probe = new Parser({
      ...OPTIONS,
      delimiter: this.sep ?? ',',
      max_record_size: this.maxRecordBytes,
      skip_records_with_error: true,
      on_record: () => null,
      on_skip: () => {
        failed = true;
        return undefined;
      },
    } as Options);
    probe.on('error', () => undefined);
    const refusedUpTo = (nl: number) => {
      try {
        parse(this.held.subarray(start, nl + 1), { ...OPTIONS, max_record_size: this.maxRecordBytes });
        return false;
      } catch (err) {
        return (err as { code?: string }).code !== 'CSV_QUOTE_NOT_CLOSED';
      }
    };
    let from = start;
    let previous = -1;
    for (;;) {
      const nl = this.held.indexOf(LF, from);
      probe.write(this.held.subarray(from, nl === -1 ? this.held.length : nl + 1));
      if (failed || nl === -1) return previous !== -1 && refusedUpTo(previous) ? previous : nl;
      previous = nl;
      from = nl + 1;
    }
  }
}

/** A malformed record, for readers that stop at the first one. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly detail: string,
  ) {
    super(`line ${line}: ${detail}`);
  }
}

/** The records of a whole CSV text, in order; the first malformed record throws `CsvSyntaxError`. */
export function* csvRecords(text: string | Uint8Array): Generator<{ line: number; cells: string[] }> {
  const reader = new CsvReader();
  for (const rec of [...reader.push(typeof text === 'string' ? Buffer.from(text, 'utf8') : text), ...reader.end()]) {
    if ('error' in rec) throw new CsvSyntaxError(rec.line, rec.detail);
    yield { line: rec.line, cells: rec.fields };
  }
}
