import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';
import { SupplyEventRejectionsSchema, type SupplyEventInput } from '@vat/gen/vat/ledger/v1/resources_pb';
import { importSupplyEvents, isTransient, type CommitBatch } from '../src/supply-import-pipeline';

const dir = mkdtempSync(join(tmpdir(), 'vat-import-pipeline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An NDJSON file of `n` minimal events `e-1..e-n` (the fake ledger checks nothing else). */
function file(n: number, extra: (i: number) => string | undefined = () => undefined): string {
  const path = join(dir, `f-${Math.random().toString(36).slice(2)}.ndjson`);
  const lines = Array.from({ length: n }, (_, k) => extra(k + 1) ?? JSON.stringify({ event_id: `e-${k + 1}`, net_amount_minor: k + 1 }));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function refusal(code: Code, items: { index: number; error: string; field?: string }[]): ConnectError {
  return new ConnectError('refused', code, undefined, [{ desc: SupplyEventRejectionsSchema, value: create(SupplyEventRejectionsSchema, { items: items.map((i) => ({ ...i, detail: i.error })) }) }]);
}

/** A ledger in memory with the real one's batch semantics: all-or-nothing, idempotent by event_id. */
function fakeLedger(opts: { bad?: Set<string>; conflicting?: Set<string>; failFirst?: number; failWith?: () => Error } = {}) {
  const stored = new Set<string>();
  const batches: string[][] = [];
  let failures = opts.failFirst ?? 0;
  const commit: CommitBatch = async (events: SupplyEventInput[]) => {
    const ids = events.map((e) => e.eventId!);
    batches.push(ids);
    if (failures > 0) {
      failures--;
      throw opts.failWith?.() ?? new ConnectError('connect ECONNREFUSED 127.0.0.1:9105', Code.Unavailable);
    }
    const invalid = ids.flatMap((id, index) => (opts.bad?.has(id) ? [{ index, error: 'invalid_currency', field: 'currency' }] : []));
    if (invalid.length) throw refusal(Code.InvalidArgument, invalid);
    const conflicts = ids.flatMap((id, index) => (opts.conflicting?.has(id) ? [{ index, error: 'supply_event_conflict', field: 'event_id' }] : []));
    if (conflicts.length) throw refusal(Code.AlreadyExists, conflicts);
    return ids.map((id) => {
      const created = !stored.has(id);
      stored.add(id);
      return { created };
    });
  };
  return { commit, stored, batches };
}

const owned = async () => true;

describe('importSupplyEvents (a fake ledger)', () => {
  it('commits in batches; a refused item is left out and its batch sent again; counts add up', async () => {
    const ledger = fakeLedger({ bad: new Set(['e-5', 'e-17']), conflicting: new Set(['e-18']) });
    const f = file(25, (i) => (i === 3 ? '{"event_id":"e-3","colour":"red"}' : i === 9 ? 'not json' : undefined));
    const r = await importSupplyEvents({ file: f, format: 'ndjson', commit: ledger.commit, integrationOwned: owned, batchSize: 10, concurrency: 1 });
    expect(r.error).toBeUndefined();
    expect(r.stats).toMatchObject({ read: 25, committed: 20, skipped: 0, rejected: 5, failed: 0 });
    expect(r.rejections.map((x) => [x.line, x.errors[0]!.error])).toEqual([
      [3, 'unknown_field'],
      [5, 'invalid_currency'],
      [9, 'invalid_json'],
      [17, 'invalid_currency'],
      [18, 'supply_event_conflict'],
    ]);
    // The second batch (e-13..e-22) is refused for e-17 (invalid), then for e-18 (conflict), then committed.
    expect(ledger.batches.map((b) => b.length)).toEqual([10, 9, 10, 9, 8, 3]);
    expect(ledger.stored.size).toBe(20);
  });

  it('narrows a refusal that names no item (the input guard) down to its line by halving the batch', async () => {
    const inner = fakeLedger();
    const commit: CommitBatch = async (events) => {
      if (events.some((e) => e.eventId === 'e-13')) throw new ConnectError('product_reference must not contain control characters.', Code.InvalidArgument, undefined, [{ desc: ErrorInfoSchema, value: { reason: 'invalid_product_reference', domain: 'vat', metadata: {} } }]);
      return inner.commit(events);
    };
    const r = await importSupplyEvents({ file: file(40), format: 'ndjson', commit, integrationOwned: owned, batchSize: 16 });
    expect(r.error).toBeUndefined();
    expect(r.stats).toMatchObject({ committed: 39, rejected: 1, failed: 0 });
    expect(r.rejections).toEqual([{ line: 13, event_id: 'e-13', errors: [{ field: 'product_reference', error: 'invalid_product_reference', detail: expect.stringContaining('control') }] }]);
  });

  it('a refusal naming the item by its path (the input guard) rejects that line without halving', async () => {
    const inner = fakeLedger();
    const sizes: number[] = [];
    const commit: CommitBatch = async (events) => {
      sizes.push(events.length);
      const at = events.findIndex((e) => e.eventId === 'e-13');
      if (at >= 0) throw new ConnectError(`events[${at}].product_reference must not contain control characters.`, Code.InvalidArgument, undefined, [{ desc: ErrorInfoSchema, value: { reason: 'invalid_product_reference', domain: 'vat', metadata: { field_path: `events[${at}].product_reference` } } }]);
      return inner.commit(events);
    };
    const r = await importSupplyEvents({ file: file(40), format: 'ndjson', commit, integrationOwned: owned, batchSize: 16 });
    expect(r.stats).toMatchObject({ committed: 39, rejected: 1, failed: 0 });
    expect(r.rejections).toEqual([{ line: 13, event_id: 'e-13', errors: [{ field: 'product_reference', error: 'invalid_product_reference', detail: expect.stringContaining('control') }] }]);
    // 16 refused, the same 15 without line 13 committed; then 16 and 8: no halving
    expect([...sizes].sort((a, b) => a - b)).toEqual([8, 15, 16, 16]);
  });

  it('a second run reports everything it committed before as skipped', async () => {
    const ledger = fakeLedger();
    const f = file(30);
    await importSupplyEvents({ file: f, format: 'ndjson', commit: ledger.commit, integrationOwned: owned, batchSize: 7 });
    const again = await importSupplyEvents({ file: f, format: 'ndjson', commit: ledger.commit, integrationOwned: owned, batchSize: 7, concurrency: 3 });
    expect(again.stats).toMatchObject({ read: 30, committed: 0, skipped: 30, rejected: 0 });
  });

  it('retries transient failures (unavailable, a reset stream) until the ledger answers', async () => {
    const ledger = fakeLedger({ failFirst: 3, failWith: () => new ConnectError('stream closed with error code NGHTTP2_REFUSED_STREAM', Code.Internal) });
    const r = await importSupplyEvents({ file: file(12), format: 'ndjson', commit: ledger.commit, integrationOwned: owned, batchSize: 5, retryForMs: 30_000 });
    expect(r.error).toBeUndefined();
    expect(r.stats).toMatchObject({ committed: 12, retries: 3, failed: 0 });
  });

  it('stops when the ledger stays unreachable past the retry window; nothing is counted committed that was not acknowledged', async () => {
    const ledger = fakeLedger({ failFirst: 1_000 });
    const r = await importSupplyEvents({ file: file(40), format: 'ndjson', commit: ledger.commit, integrationOwned: owned, batchSize: 10, concurrency: 1, retryForMs: 300 });
    expect(r.error).toMatch(/Unavailable/);
    expect(r.stats.committed).toBe(0);
    expect(r.stats.failed).toBeGreaterThan(0);
    expect(r.stats.read).toBe(r.stats.committed + r.stats.skipped + r.stats.rejected + r.stats.failed);
  });

  it('stops at once on a refusal that names no item (e.g. a wrong internal token)', async () => {
    const ledger = fakeLedger({ failFirst: 1, failWith: () => new ConnectError('caller is not the gateway', Code.Unauthenticated) });
    const r = await importSupplyEvents({ file: file(5), format: 'ndjson', commit: ledger.commit, integrationOwned: owned, retryForMs: 60_000 });
    expect(r.error).toMatch(/Unauthenticated/);
    expect(r.stats).toMatchObject({ committed: 0, failed: 5 });
  });

  it("refuses an integration id that is not the account's, like the REST gateway", async () => {
    const ledger = fakeLedger();
    const f = file(3, (i) => (i === 2 ? '{"event_id":"e-2","integration_id":42}' : i === 3 ? '{"event_id":"e-3","integration_id":7}' : undefined));
    const r = await importSupplyEvents({ file: f, format: 'ndjson', commit: ledger.commit, integrationOwned: async (id) => id === 7n });
    expect(r.stats).toMatchObject({ committed: 2, rejected: 1 });
    expect(r.rejections).toEqual([{ line: 2, event_id: 'e-2', errors: [expect.objectContaining({ field: 'integration_id', error: 'integration_not_found' })] }]);
  });

  it('lists at most listLimit rejections (the lowest lines) and counts them all', async () => {
    const ledger = fakeLedger();
    const r = await importSupplyEvents({ file: file(50, (i) => (i % 2 ? 'x' : undefined)), format: 'ndjson', commit: ledger.commit, integrationOwned: owned, listLimit: 4, batchSize: 3, concurrency: 4 });
    expect(r.stats.rejected).toBe(25);
    expect(r.rejections.map((x) => x.line)).toEqual([1, 3, 5, 7]);
  });

  it('classifies errors: connection failures are transient, refusals are not', () => {
    expect(isTransient(new ConnectError('x', Code.Unavailable))).toBe(true);
    expect(isTransient(new ConnectError('x', Code.DeadlineExceeded))).toBe(true);
    expect(isTransient(new Error('read ECONNRESET'))).toBe(true);
    expect(isTransient(new ConnectError('Connection terminated unexpectedly', Code.Internal))).toBe(true);
    expect(isTransient(new ConnectError('x', Code.InvalidArgument))).toBe(false);
    expect(isTransient(new ConnectError('x', Code.AlreadyExists))).toBe(false);
    expect(isTransient(new ConnectError('caller is not the gateway', Code.Unauthenticated))).toBe(false);
  });
});
