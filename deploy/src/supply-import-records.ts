import type { SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { SUPPLY_EVENT_FIELDS, supplyEventInput, type SupplyEventItemError, type SupplyEventFieldKind } from '@vat/platform/supply-event-json';
import { CSV_DELIMITERS, CsvReader, type CsvDelimiter, type CsvRecord } from '@vat/platform/csv-reader';
import { MAX_RECORD_BYTES, NdjsonReader, type NdjsonRecord } from './supply-import-reader';

/** Why one line of a bulk file was not (or could not be) committed. */
export type LineError = { field: string | null; error: string; detail: string };

/**
 * One data line of a bulk file: the RPC input to commit, or why the line is rejected. A line whose
 * cells have the wrong type keeps the rest (`partial`), so the ledger can still name its other faults.
 */
export type ImportLine = { line: number; eventId: string | null; input: SupplyEventInput } | { line: number; eventId: string | null; errors: LineError[]; partial?: SupplyEventInput };

export type ImportFormat = 'csv' | 'ndjson';

/** A file the import refuses as a whole (e.g. an unknown CSV column): nothing is sent. */
export class ImportFileError extends Error {}

const INTEGER = /^-?[0-9]+$/;

/** A CSV cell as the JSON value the API would receive: empty = absent, integers and booleans typed. */
function cellValue(kind: SupplyEventFieldKind, cell: string): unknown {
  if (kind === 'integer' && INTEGER.test(cell)) return BigInt(cell);
  if (kind === 'boolean' && (cell === 'true' || cell === 'false')) return cell === 'true';
  // Anything else stays text: the shared mapping reports a wrong type as invalid_<field>.
  return cell;
}

function toLine(line: number, raw: unknown): ImportLine {
  const errors: SupplyEventItemError[] = [];
  const input = supplyEventInput(raw, 0, errors);
  const eventId = typeof input.eventId === 'string' ? input.eventId : null;
  if (errors.length) return { line, eventId, errors: errors.map(({ field, error, detail }) => ({ field, error, detail })), partial: input };
  return { line, eventId, input };
}

function rejectedRecord(r: { line: number; error: string; detail: string }): ImportLine {
  return { line: r.line, eventId: null, errors: [{ field: null, error: r.error, detail: r.detail }] };
}

/** Turns records into import lines; the first CSV record is the header (the API's field names). */
export class ImportLineReader {
  private readonly reader: CsvReader | NdjsonReader;
  private columns: { name: string; kind: SupplyEventFieldKind }[] | undefined;

  /** `delimiter`: one of CSV_DELIMITERS; undefined = the one the header uses. */
  constructor(readonly format: ImportFormat, delimiter?: CsvDelimiter) {
    this.reader = format === 'csv' ? new CsvReader(MAX_RECORD_BYTES, delimiter ?? 'detect') : new NdjsonReader();
  }

  push(chunk: Uint8Array): ImportLine[] {
    return this.lines(this.reader.push(chunk));
  }

  end(): ImportLine[] {
    const out = this.lines(this.reader.end());
    if (this.format === 'csv' && !this.columns) throw new ImportFileError('The CSV file has no header row.');
    return out;
  }

  private lines(records: (CsvRecord | NdjsonRecord)[]): ImportLine[] {
    const out: ImportLine[] = [];
    for (const r of records) {
      if ('error' in r) {
        if (this.format === 'csv' && !this.columns) throw new ImportFileError(`The CSV header (line ${r.line}) is malformed: ${r.detail}`);
        out.push(rejectedRecord(r));
      } else if ('value' in r) out.push(toLine(r.line, r.value));
      else if (!this.columns) this.columns = header(r.fields, (this.reader as CsvReader).delimiter);
      else out.push(this.csvLine(r.line, r.fields));
    }
    return out;
  }

  private csvLine(line: number, fields: string[]): ImportLine {
    const columns = this.columns!;
    if (fields.length !== columns.length) {
      // The event_id cell is named whenever the record has it, so a short row can be found.
      const at = columns.findIndex((c) => c.name === 'event_id');
      const eventId = at >= 0 && fields[at] ? fields[at]! : null;
      return { line, eventId, errors: [{ field: null, error: 'invalid_csv', detail: `The header has ${columns.length} columns; this record has ${fields.length} cells.` }] };
    }
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const cell = fields[i]!;
      if (cell !== '') obj[columns[i]!.name] = cellValue(columns[i]!.kind, cell);
    }
    return toLine(line, obj);
  }
}

/** The header row: every name must be a field of the API, each once. */
function header(fields: string[], delimiter: CsvDelimiter | undefined): { name: string; kind: SupplyEventFieldKind }[] {
  const unknown = fields.filter((f) => !Object.hasOwn(SUPPLY_EVENT_FIELDS, f));
  if (unknown.length) {
    const shown = unknown.slice(0, 5).map((f) => JSON.stringify(f.slice(0, 60))).join(', ');
    const other = CSV_DELIMITERS.find((d) => d !== delimiter && unknown.some((f) => f.includes(d)));
    const hint = other ? ` The header looks separated by ${JSON.stringify(other)}: give --delimiter '${other === '\t' ? 'tab' : other}'.` : '';
    throw new ImportFileError(`Unknown CSV column(s) ${shown}; the header row names the fields of the API: ${Object.keys(SUPPLY_EVENT_FIELDS).join(', ')}.${hint}`);
  }
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f)) throw new ImportFileError(`The CSV column "${f}" appears twice in the header.`);
    seen.add(f);
  }
  return fields.map((name) => ({ name, kind: SUPPLY_EVENT_FIELDS[name]!.kind }));
}

/** The format named by the file's extension, if it names one. */
export function formatOf(file: string): ImportFormat | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  return undefined;
}
