import { isUtf8 } from 'node:buffer';

/**
 * Incremental readers for bulk-import files: bytes go in as they arrive (chunks split anywhere),
 * records come out with the physical line number they start on. Nothing is ever held beyond the
 * record being read, so a file of any size streams. Malformed input becomes an error record (the
 * line is rejected), never an exception.
 */

/** A record longer than this (without its end in sight) is rejected and skipped to the next line. */
export const MAX_RECORD_BYTES = 1024 * 1024;

export type RecordError = { line: number; error: string; detail: string };
export type CsvRecord = { line: number; fields: string[] } | RecordError;
export type NdjsonRecord = { line: number; value: unknown } | RecordError;

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
/** Separators a header row may use: comma (RFC 4180), semicolon (spreadsheets in German and other locales), tab, pipe. */
export const CSV_DELIMITERS: Readonly<Record<string, number>> = { ',': COMMA, ';': 0x3b, '\t': 0x09, '|': 0x7c };

/** The separator of a header line: the candidate it contains most (outside quotes); comma when none. */
export function detectDelimiter(header: Buffer): number {
  let best = COMMA;
  let bestCount = 0;
  for (const d of Object.values(CSV_DELIMITERS)) {
    let count = 0;
    let quoted = false;
    for (const b of header) {
      if (b === QUOTE) quoted = !quoted;
      else if (b === d && !quoted) count++;
    }
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}
const BOM = [0xef, 0xbb, 0xbf];

function countLf(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(LF, from); i !== -1 && i < to; i = buf.indexOf(LF, i + 1)) n++;
  return n;
}

/** Bytes in, whole records out; shared by both formats (carry-over, BOM, over-long records). */
abstract class ChunkedReader<R extends { line: number }> {
  protected buf: Buffer = Buffer.alloc(0);
  protected pos = 0;
  protected line = 1;
  private started = false;
  private skipping = false;

  /** Feeds the next chunk; returns every record completed by it. */
  push(chunk: Uint8Array): (R | RecordError)[] {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.buf = this.pos < this.buf.length ? Buffer.concat([this.buf.subarray(this.pos), bytes]) : bytes;
    this.pos = 0;
    this.bufferChanged();
    return this.drain(false);
  }

  /** Called when `buf` is replaced (positions cached by a subclass are void). */
  protected bufferChanged(): void {}

  /** The end of the input: the last record may lack its line break. */
  end(): (R | RecordError)[] {
    const out = this.drain(true);
    this.buf = Buffer.alloc(0);
    this.pos = 0;
    return out;
  }

  private drain(eof: boolean): (R | RecordError)[] {
    const out: (R | RecordError)[] = [];
    if (!this.started) {
      if (this.buf.length < BOM.length && !eof) return out;
      if (BOM.every((b, i) => this.buf[i] === b)) this.pos = BOM.length;
      this.started = true;
    }
    while (this.pos < this.buf.length) {
      if (this.skipping && !this.skipLine()) break;
      const start = this.pos;
      const line = this.line;
      const rec = this.next(eof);
      if (rec !== undefined) {
        // Whatever the chunk boundaries were, an over-long record is refused the same way.
        if (this.pos - start > MAX_RECORD_BYTES + 2) out.push(this.tooLong(line));
        else if (rec !== null) out.push(rec);
        continue;
      }
      if (this.buf.length - start > MAX_RECORD_BYTES) {
        // Everything buffered is dropped, then the rest up to the next line break.
        out.push(this.tooLong(this.line));
        this.line += countLf(this.buf, start, this.buf.length);
        this.pos = this.buf.length;
        this.skipping = true;
        continue;
      }
      break;
    }
    return out;
  }

  /** Discards up to and including the next line break; false when none is buffered yet. */
  private skipLine(): boolean {
    const nl = this.buf.indexOf(LF, this.pos);
    const to = nl === -1 ? this.buf.length : nl + 1;
    this.line += countLf(this.buf, this.pos, to);
    this.pos = to;
    if (nl === -1) return false;
    this.skipping = false;
    return true;
  }

  private tooLong(line: number): RecordError {
    return { line, error: 'record_too_long', detail: `A record is longer than ${MAX_RECORD_BYTES} bytes; skipped to the next line.` };
  }

  /**
   * The record at `pos`: a record (pos advanced past it), null for a blank line (skipped), or
   * undefined when more bytes are needed (pos unchanged).
   */
  protected abstract next(eof: boolean): R | null | undefined;
}

/**
 * RFC 4180 CSV: `"` quoting with `""` escapes, CRLF or LF line ends, UTF-8. The separator is `delimiter`
 * (a byte of CSV_DELIMITERS; a comma by default) or, with `'detect'`, the one the first line (the header) uses.
 */
export class CsvReader extends ChunkedReader<CsvRecord> {
  /** The next quote at or after `pos` in `buf` (-1: none), so quote-free files are scanned once. */
  private quoteAt = -2;
  private sep: number | undefined;

  constructor(delimiter: number | 'detect' = COMMA) {
    super();
    this.sep = delimiter === 'detect' ? undefined : delimiter;
  }

  /** The separator in use (after the header, when detected). */
  get delimiter(): number | undefined {
    return this.sep;
  }

  protected override bufferChanged(): void {
    this.quoteAt = -2;
  }

  protected next(eof: boolean): CsvRecord | null | undefined {
    const { buf, pos } = this;
    const nl = buf.indexOf(LF, pos);
    if (this.sep === undefined) {
      if (nl === -1 && !eof) return undefined;
      this.sep = detectDelimiter(buf.subarray(pos, nl === -1 ? buf.length : nl));
    }
    if (this.quoteAt === -2 || (this.quoteAt !== -1 && this.quoteAt < pos)) this.quoteAt = buf.indexOf(QUOTE, pos);
    const quote = this.quoteAt;
    if (nl !== -1 && (quote === -1 || quote > nl)) return this.plainLine(pos, nl);
    if (quote === -1) return eof ? this.plainLine(pos, buf.length) : undefined;
    return this.quotedRecord(eof);
  }

  /** A line without quotes: split on commas. */
  private plainLine(start: number, nl: number): CsvRecord | null {
    const line = this.line;
    const end = nl > start && this.buf[nl - 1] === CR ? nl - 1 : nl;
    this.pos = nl + 1;
    this.line++;
    if (end === start) return null;
    if (!isUtf8(this.buf.subarray(start, end))) return { line, error: 'invalid_encoding', detail: 'The line is not valid UTF-8.' };
    const fields: string[] = [];
    let from = start;
    for (let c = this.buf.indexOf(this.sep!, from); c !== -1 && c < end; c = this.buf.indexOf(this.sep!, from)) {
      fields.push(this.buf.toString('utf8', from, c));
      from = c + 1;
    }
    fields.push(this.buf.toString('utf8', from, end));
    return { line, fields };
  }

  /** A record with quoted cells, which may span lines; byte by byte. */
  private quotedRecord(eof: boolean): CsvRecord | undefined {
    const buf = this.buf;
    const start = this.pos;
    const fields: string[] = [];
    let i = start;
    let lfs = 0;
    let problem: string | undefined;
    for (;;) {
      // At the start of a cell.
      if (i < buf.length && buf[i] === QUOTE) {
        const open = i + 1;
        let j = open;
        for (;;) {
          const q = buf.indexOf(QUOTE, j);
          if (q === -1) {
            if (!eof) return undefined;
            lfs += countLf(buf, j, buf.length);
            return this.finish(start, buf.length, lfs, undefined, 'A quoted cell is not closed before the end of the file.');
          }
          lfs += countLf(buf, j, q);
          if (q + 1 >= buf.length && !eof) return undefined;
          if (buf[q + 1] === QUOTE) {
            j = q + 2;
            continue;
          }
          fields.push(buf.toString('utf8', open, q).replaceAll('""', '"'));
          i = q + 1;
          break;
        }
        if (i >= buf.length) return this.finish(start, i, lfs, fields);
        const b = buf[i];
        if (b === this.sep) {
          i++;
          continue;
        }
        if (b === LF) return this.finish(start, i + 1, lfs + 1, fields);
        if (b === CR) {
          if (i + 1 >= buf.length && !eof) return undefined;
          if (i + 1 >= buf.length) return this.finish(start, i + 1, lfs, fields);
          if (buf[i + 1] === LF) return this.finish(start, i + 2, lfs + 1, fields);
        }
        problem = `Text follows the closing quote of cell ${fields.length}.`;
        break;
      }
      // An unquoted cell: up to the next separator or line break; a quote inside it is malformed.
      let j = i;
      while (j < buf.length && buf[j] !== this.sep && buf[j] !== LF && buf[j] !== QUOTE) j++;
      if (j >= buf.length) {
        if (!eof) return undefined;
        fields.push(buf.toString('utf8', i, j));
        return this.finish(start, j, lfs, fields);
      }
      if (buf[j] === QUOTE) {
        problem = `A quote inside the unquoted cell ${fields.length + 1} (quote the whole cell and double the quote).`;
        i = j;
        break;
      }
      const cellEnd = buf[j] === LF && j > i && buf[j - 1] === CR ? j - 1 : j;
      fields.push(buf.toString('utf8', i, cellEnd));
      if (buf[j] === LF) return this.finish(start, j + 1, lfs + 1, fields);
      i = j + 1;
    }
    // Malformed: the record ends at the next line break.
    const nl = buf.indexOf(LF, i);
    if (nl === -1 && !eof) return undefined;
    const end = nl === -1 ? buf.length : nl + 1;
    return this.finish(start, end, lfs + countLf(buf, i, end), undefined, problem);
  }

  private finish(start: number, end: number, lfs: number, fields: string[] | undefined, problem?: string): CsvRecord {
    const line = this.line;
    this.pos = end;
    this.line += lfs;
    if (problem !== undefined || !fields) return { line, error: 'invalid_csv', detail: problem ?? 'Malformed CSV record.' };
    if (!isUtf8(this.buf.subarray(start, end))) return { line, error: 'invalid_encoding', detail: 'The record is not valid UTF-8.' };
    return { line, fields };
  }
}

/** Newline-delimited JSON: one value per line (LF or CRLF), blank lines skipped, UTF-8. */
export class NdjsonReader extends ChunkedReader<NdjsonRecord> {
  protected next(eof: boolean): NdjsonRecord | null | undefined {
    const { buf, pos } = this;
    let nl = buf.indexOf(LF, pos);
    if (nl === -1) {
      if (!eof) return undefined;
      nl = buf.length;
    }
    const line = this.line;
    const end = nl > pos && buf[nl - 1] === CR ? nl - 1 : nl;
    this.pos = nl + 1;
    this.line++;
    const text = buf.toString('utf8', pos, end);
    if (text.trim() === '') return null;
    if (!isUtf8(buf.subarray(pos, end))) return { line, error: 'invalid_encoding', detail: 'The line is not valid UTF-8.' };
    try {
      return { line, value: JSON.parse(text) };
    } catch (err) {
      return { line, error: 'invalid_json', detail: `The line is not JSON: ${(err as Error).message.slice(0, 200)}` };
    }
  }
}
