import type { CsvDelimiter } from '@vat/platform/csv-reader';
import { createReadStream, statSync } from 'node:fs';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';
import { SupplyEventRejectionsSchema, type SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { isRowId } from '@vat/platform/http-inputs';
import { FIELD_PATH_METADATA, guardedItem } from '@vat/platform/input-guard';
import { ImportLineReader, type ImportFormat, type ImportLine, type LineError } from './supply-import-records';

/** Sends one batch to the ledger; resolves with `created` per event, in order. */
export type CommitBatch = (events: SupplyEventInput[]) => Promise<{ created: boolean }[]>;

export type ImportStats = {
  /** Data records read (header and blank lines excluded). */
  read: number;
  committed: number;
  skipped: number;
  rejected: number;
  /** Valid lines not committed because the ledger stayed unreachable (a re-run resumes them). */
  failed: number;
  bytesRead: number;
  bytesTotal: number;
  elapsedMs: number;
  /** Transient errors that were retried. */
  retries: number;
};

export type Rejection = { line: number; event_id: string | null; errors: LineError[] };

type ImportOptions = {
  file: string;
  format: ImportFormat;
  /** CSV separator (a key of CSV_DELIMITERS); undefined = detected from the header. */
  delimiter?: CsvDelimiter;
  commit: CommitBatch;
  /**
   * Checks events without storing them (the ledger's validate-only commit): resolves when all pass,
   * throws the ledger's refusal otherwise. Lines with a mistyped cell are checked this way, so their
   * other faults are listed too; without it only the type errors are.
   */
  validate?: (events: SupplyEventInput[]) => Promise<void>;
  /** Whether an integration id belongs to the importing account (the gateway's data). */
  integrationOwned: (id: bigint) => Promise<boolean>;
  batchSize?: number;
  /** Batches in flight at once. */
  concurrency?: number;
  /** How long one batch is retried on transient errors before the import stops. */
  retryForMs?: number;
  /** How many rejected lines the summary lists (all are counted). */
  listLimit?: number;
  onProgress?: (s: ImportStats) => void;
};

type ImportResult = { stats: ImportStats; rejections: Rejection[]; error?: string };

const TRANSIENT_CODES = new Set([Code.Unavailable, Code.DeadlineExceeded, Code.ResourceExhausted, Code.Aborted]);
/** Connection-level failures that surface as other codes (a reset stream, a refused or dropped connection). */
const TRANSIENT_TEXT = /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ERR_HTTP2|NGHTTP2|GOAWAY|socket hang up|stream (?:was )?(?:closed|reset|destroyed)|Connection terminated|connection (?:error|closed|refused|reset)|ECONNABORTED|57P01|53300/i;

/** Whether a failed call may succeed when simply sent again (the ledger deduplicates by event_id). */
export function isTransient(err: unknown): boolean {
  const e = ConnectError.from(err);
  if (TRANSIENT_CODES.has(e.code)) return true;
  const cause = e.cause as { code?: string; message?: string } | undefined;
  return TRANSIENT_TEXT.test(`${e.message} ${cause?.code ?? ''} ${cause?.message ?? ''}`);
}

/** The items a refused batch names (invalid items, or event_ids committed with other content). */
function refusedItems(err: unknown): { index: number; error: LineError }[] | undefined {
  if (!(err instanceof ConnectError) || (err.code !== Code.InvalidArgument && err.code !== Code.AlreadyExists)) return undefined;
  // The input guard names the item by its path (events[3].product_reference).
  const info = err.findDetails(ErrorInfoSchema)[0];
  const guarded = guardedItem(info?.metadata[FIELD_PATH_METADATA], 'events');
  if (guarded) return [{ index: guarded.index, error: { field: guarded.field, error: info?.reason ?? `invalid_${guarded.field}`, detail: `${guarded.field} must not contain control characters.` } }];
  const items = err.findDetails(SupplyEventRejectionsSchema).flatMap((d) => d.items);
  if (!items.length) return undefined;
  return items.map((i) => ({ index: i.index, error: { field: i.field ?? null, error: i.error, detail: i.detail } }));
}

/** A refusal of the request as a whole that names no item (bisected down to its line). */
function refusedWithoutItems(err: unknown): LineError | undefined {
  if (!(err instanceof ConnectError) || err.code !== Code.InvalidArgument) return undefined;
  const reason = err.findDetails(ErrorInfoSchema)[0]?.reason ?? 'invalid_request';
  return { field: reason.startsWith('invalid_') ? reason.slice('invalid_'.length) : null, error: reason, detail: err.rawMessage };
}

function describe(err: unknown): string {
  const e = ConnectError.from(err);
  const reason = e.findDetails(ErrorInfoSchema)[0]?.reason;
  return `${Code[e.code] ?? e.code}${reason ? ` ${reason}` : ''}: ${e.rawMessage}`;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

type Pending = { line: number; eventId: string | null; input: SupplyEventInput };

/**
 * Streams a bulk file into the ledger in batches. The ledger commits a batch all-or-nothing, so
 * when it refuses some items the batch is sent again without them: one bad line never holds back
 * its neighbours (a refusal that names no item, such as a control character caught before the
 * handler, is narrowed down by halving the batch). Transient failures are retried with backoff for `retryForMs`; a repeat of an
 * event already committed comes back as "skipped" (same content), which is what makes a re-run
 * resume. Nothing is counted committed before the ledger acknowledged it.
 */
export async function importSupplyEvents(o: ImportOptions): Promise<ImportResult> {
  const batchSize = o.batchSize ?? 1000;
  const concurrency = Math.max(1, o.concurrency ?? 2);
  const retryForMs = o.retryForMs ?? 120_000;
  const listLimit = o.listLimit ?? 1000;
  const started = Date.now();
  const stats: ImportStats = { read: 0, committed: 0, skipped: 0, rejected: 0, failed: 0, bytesRead: 0, bytesTotal: statSync(o.file).size, elapsedMs: 0, retries: 0 };
  let rejections: Rejection[] = [];
  let fatal: string | undefined;
  const owned = new Map<string, Promise<boolean>>();
  const inflight = new Set<Promise<void>>();
  let pending: Pending[] = [];

  const progress = () => {
    stats.elapsedMs = Date.now() - started;
    o.onProgress?.(stats);
  };
  const reject = (line: number, eventId: string | null, errors: LineError[]) => {
    stats.rejected++;
    rejections.push({ line, event_id: eventId, errors });
    // Keep the lowest line numbers (batches finish out of order).
    if (rejections.length >= 2 * listLimit) rejections = rejections.sort((a, b) => a.line - b.line).slice(0, listLimit);
  };

  const withRetry = async (events: SupplyEventInput[]) => {
    const deadline = Date.now() + retryForMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await o.commit(events);
      } catch (err) {
        if (!isTransient(err) || Date.now() >= deadline) throw err;
        stats.retries++;
        const backoff = Math.min(5000, 200 * 2 ** Math.min(attempt, 5));
        await sleep(Math.min(backoff * (0.5 + Math.random() / 2), Math.max(0, deadline - Date.now())));
      }
    }
  };

  const checkIntegrations = async (batch: Pending[]): Promise<Pending[]> => {
    const kept: Pending[] = [];
    for (const p of batch) {
      const id = p.input.integrationId;
      if (id !== undefined && isRowId(id)) {
        if (!owned.has(id)) owned.set(id, o.integrationOwned(BigInt(id)));
        if (!(await owned.get(id))) {
          reject(p.line, p.eventId, [{ field: 'integration_id', error: 'integration_not_found', detail: 'No integration of this account has this id.' }]);
          continue;
        }
      }
      kept.push(p);
    }
    return kept;
  };

  const send = async (batch: Pending[]) => {
    let items: Pending[];
    try {
      items = await checkIntegrations(batch);
    } catch (err) {
      fatal ??= `the account's integrations could not be read: ${(err as Error).message}`;
      stats.failed += batch.length;
      return;
    }
    await commitAll(items);
  };

  /** Commits `items`, leaving out what the ledger refuses; a refusal naming no item is bisected down to its line. */
  const commitAll = async (items: Pending[]): Promise<void> => {
    while (items.length) {
      if (fatal) {
        stats.failed += items.length;
        return;
      }
      try {
        const result = await withRetry(items.map((i) => i.input));
        for (const r of result) r.created ? stats.committed++ : stats.skipped++;
        return;
      } catch (err) {
        const refused = refusedItems(err);
        const whole = refused ? undefined : refusedWithoutItems(err);
        if (whole) {
          if (items.length === 1) {
            reject(items[0]!.line, items[0]!.eventId, [whole]);
            return;
          }
          const half = Math.ceil(items.length / 2);
          await commitAll(items.slice(0, half));
          await commitAll(items.slice(half));
          return;
        }
        if (!refused || !refused.some((r) => items[r.index])) {
          fatal ??= `the ledger refused a batch (lines ${items[0]!.line}-${items.at(-1)!.line}): ${describe(err)}`;
          stats.failed += items.length;
          return;
        }
        const byIndex = new Map<number, LineError[]>();
        for (const r of refused) if (items[r.index]) byIndex.set(r.index, [...(byIndex.get(r.index) ?? []), r.error]);
        for (const [index, errors] of byIndex) reject(items[index]!.line, items[index]!.eventId, errors);
        items = items.filter((_, index) => !byIndex.has(index));
      }
    }
  };

  const dispatch = async () => {
    const batch = pending;
    pending = [];
    if (!batch.length) return;
    while (inflight.size >= concurrency) await Promise.race(inflight);
    const p: Promise<void> = send(batch)
      .catch((err: Error) => {
        fatal ??= err.message;
      })
      .finally(() => {
        inflight.delete(p);
        progress();
      });
    inflight.add(p);
  };

  /** Lines with mistyped cells: the ledger checks the rest, and the line is rejected with every fault. */
  let mistyped: { line: number; eventId: string | null; errors: LineError[]; partial: SupplyEventInput }[] = [];
  const checkMistyped = async () => {
    const batch = mistyped;
    mistyped = [];
    if (!batch.length) return;
    let found: { index: number; error: LineError }[] = [];
    try {
      await o.validate!(batch.map((m) => m.partial));
    } catch (err) {
      found = refusedItems(err) ?? [];
    }
    batch.forEach((m, index) => {
      // A mistyped cell was left out: the ledger's "is required" for it says nothing new.
      const own = new Set(m.errors.map((e) => e.field));
      const more = found.filter((f) => f.index === index && !own.has(f.error.field)).map((f) => f.error);
      reject(m.line, m.eventId, [...m.errors, ...more]);
    });
  };

  const take = async (lines: ImportLine[]) => {
    for (const l of lines) {
      stats.read++;
      if ('errors' in l) {
        if (l.partial && o.validate) {
          mistyped.push({ line: l.line, eventId: l.eventId, errors: l.errors, partial: l.partial });
          if (mistyped.length >= batchSize) await checkMistyped();
        } else reject(l.line, l.eventId, l.errors);
      } else {
        pending.push(l);
        if (pending.length >= batchSize) await dispatch();
      }
    }
  };

  const reader = new ImportLineReader(o.format, o.delimiter);
  const stream = createReadStream(o.file, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      stats.bytesRead += chunk.length;
      await take(reader.push(chunk));
      if (fatal) break;
    }
    if (!fatal) {
      await take(reader.end());
      await dispatch();
      await checkMistyped();
    }
  } finally {
    stream.destroy();
    await Promise.all(inflight);
  }
  if (fatal) stats.failed += pending.length;
  progress();
  return { stats, rejections: rejections.sort((a, b) => a.line - b.line).slice(0, listLimit), error: fatal };
}
