/**
 * Streaming CSV writer (RFC 4180) with spreadsheet formula-injection neutralisation.
 *
 * - Line terminator: CRLF (`\r\n`, as RFC 4180 §2 prescribes) after EVERY row, including the last.
 * - Field separator `,`; a field is wrapped in double quotes when it contains `,`, `"`, CR or LF,
 *   and embedded quotes are doubled. Other fields are written bare.
 * - `null` / `undefined` become an empty field in both kinds.
 * - TEXT cells whose first character is `=`, `+`, `-`, `@`, TAB (0x09) or CR (0x0D) are prefixed
 *   with an apostrophe `'` so spreadsheets do not evaluate them (then quoted if needed).
 *   `-5` as TEXT is therefore written `'-5`.
 * - NUMBER cells are written as-is and never neutralised: a safe-integer `number`, a `bigint`,
 *   or a decimal string matching /^-?\d+(\.\d+)?$/. Anything else throws `TypeError` (decimal
 *   fractions must be given as strings, so no float formatting can leak into an export).
 * - No byte-order mark is emitted.
 */

export type CsvKind = 'text' | 'number';
export type CsvValue = string | number | bigint | null | undefined;

export interface CsvColumn {
  readonly name: string;
  readonly kind: CsvKind;
}

export const CSV_LINE_TERMINATOR = '\r\n';

/** Default target size of a chunk yielded by `csvStream` (UTF-16 code units, ~64 KiB). */
const DEFAULT_CSV_CHUNK_SIZE = 64 * 1024;

const NEEDS_QUOTING = /[",\r\n]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function quoteIfNeeded(s: string): string {
  return NEEDS_QUOTING.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function needsNeutralising(s: string): boolean {
  switch (s.charCodeAt(0)) {
    case 0x3d: // =
    case 0x2b: // +
    case 0x2d: // -
    case 0x40: // @
    case 0x09: // TAB
    case 0x0d: // CR
      return true;
    default:
      return false;
  }
}

/** One CSV field (without separator or terminator). */
export function csvCell(value: CsvValue, kind: CsvKind): string {
  if (value === null || value === undefined) return '';
  if (kind === 'number') {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) {
        throw new TypeError(`csvCell: number cell must be a safe integer, got ${String(value)}`);
      }
      return String(value); // -0 prints as "0"
    }
    if (typeof value === 'string' && DECIMAL.test(value)) return value;
    throw new TypeError(`csvCell: invalid number cell ${JSON.stringify(String(value))}`);
  }
  if (kind !== 'text') throw new TypeError(`csvCell: unknown cell kind ${String(kind)}`);
  const s = typeof value === 'string' ? value : String(value);
  return quoteIfNeeded(needsNeutralising(s) ? `'${s}` : s);
}

/**
 * One CSV record INCLUDING the CRLF terminator. `kinds` gives the kind per column (same length
 * as `values`), or one kind for every cell.
 */
export function csvRow(values: readonly CsvValue[], kinds: readonly CsvKind[] | CsvKind = 'text'): string {
  if (typeof kinds !== 'string' && kinds.length !== values.length) {
    throw new RangeError(`csvRow: ${values.length} values but ${kinds.length} kinds`);
  }
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    line += csvCell(values[i], typeof kinds === 'string' ? kinds : kinds[i]!);
  }
  return line + CSV_LINE_TERMINATOR;
}

/** The header record (column names are TEXT cells) including CRLF. */
export function csvHeader(columns: readonly CsvColumn[]): string {
  return csvRow(
    columns.map((c) => c.name),
    'text',
  );
}

interface CsvStreamOptions {
  /** Yield a chunk once at least this many characters are buffered. Default 64 KiB. */
  readonly chunkSize?: number;
  /**
   * Maximum number of data rows. When the source has more, the remaining rows are not read
   * (the source iterator is closed) and a final comment row `# <truncationComment>` is written
   * as a single TEXT cell.
   */
  readonly maxRows?: number;
  readonly truncationComment?: string;
}

/**
 * Streams a CSV document: the header record, then one record per row, as string chunks of
 * roughly `chunkSize` characters (many rows per chunk). Every row must have one value per
 * column; the column kinds decide how each value is written. Rows may come from an async or a
 * sync iterable. Errors from the source or from a bad cell propagate to the consumer.
 */
export async function* csvStream(
  columns: readonly CsvColumn[],
  rows: AsyncIterable<readonly CsvValue[]> | Iterable<readonly CsvValue[]>,
  options: CsvStreamOptions = {},
): AsyncGenerator<string, void, undefined> {
  const chunkSize = options.chunkSize ?? DEFAULT_CSV_CHUNK_SIZE;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  if (!(chunkSize >= 1)) throw new RangeError('csvStream: chunkSize must be >= 1');
  if (!(maxRows >= 0)) throw new RangeError('csvStream: maxRows must be >= 0');
  const kinds = columns.map((c) => c.kind);
  const width = kinds.length;

  let buffer = csvHeader(columns);
  let count = 0;
  let truncated = false;
  for await (const row of rows) {
    if (count >= maxRows) {
      truncated = true;
      break; // closes the source iterator
    }
    if (row.length !== width) {
      throw new RangeError(`csvStream: row ${count + 1} has ${row.length} values, expected ${width}`);
    }
    buffer += csvRow(row, kinds);
    count++;
    if (buffer.length >= chunkSize) {
      const out = buffer;
      buffer = '';
      yield out;
    }
  }
  if (truncated) {
    buffer += csvRow([`# ${options.truncationComment ?? `output truncated after ${count} rows`}`], 'text');
  }
  if (buffer.length > 0) yield buffer;
}
