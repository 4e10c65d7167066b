import { isUtf8 } from 'node:buffer';

/**
 * The incremental NDJSON reader for bulk-import files (CSV files are read by platform/src/csv-reader.ts):
 * bytes go in as they arrive (chunks split anywhere), records come out with the physical line number they
 * start on. Nothing is ever held beyond the record being read, so a file of any size streams. Malformed
 * input becomes an error record (the line is rejected), never an exception.
 */

/** A record longer than this (without its end in sight) is rejected and skipped to the next line. */
export const MAX_RECORD_BYTES = 1024 * 1024;

type RecordError = { line: number; error: string; detail: string };
export type NdjsonRecord = { line: number; value: unknown } | RecordError;

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];

function countLf(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(LF, from); i !== -1 && i < to; i = buf.indexOf(LF, i + 1)) n++;
  return n;
}

/** Bytes in, whole records out (carry-over, BOM, over-long records). */
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
