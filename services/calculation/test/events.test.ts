import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalculationRecordedSchema } from '@vat/gen/vat/calculation/v1/events_pb';
import { decodeEvent, subjectOf } from '@vat/platform/events';
import { calculationsRecorded } from '@vat/platform/calculation-recorded';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';

const backends = await requireBackends(['postgres']);

type Json = Record<string, any>;
type OutboxRow = { id: string; subject: string; payload: Buffer; published_at: Date | null };

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  let v = await probe();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25));
    v = await probe();
  }
  return v;
}

describe.skipIf(!backends.ok)('CalculationRecorded events (outbox -> bus -> gateway usage counter)', () => {
  let h: Harness;
  let db: pg.Client;
  let k: { key: string; id: string; accountId: string };

  const calc = (key: string, over: Json = {}, headers: Record<string, string> = {}) =>
    h.inject({
      method: 'POST',
      url: '/v1/vat/calculate',
      headers: { 'x-api-key': key, ...headers },
      payload: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 10000, price_includes_vat: false, transaction_date: '2024-06-01', ...over },
    });
  const outbox = async () => (await db.query('select id, subject, payload, published_at from "calculation".outbox order by created_at, id')).rows as OutboxRow[];
  /** Every calculation's event in the outbox with its row (a group row holds several: platform/src/calculation-recorded.ts). */
  const recorded = async () =>
    // The outbox also holds calculation's other events (its reference data for the projections): only CalculationRecorded rows are decoded.
    (await outbox()).filter((r) => r.subject === subjectOf(CalculationRecordedSchema)).flatMap((row) => calculationsRecorded([{ id: row.id, subject: row.subject, data: new Uint8Array(row.payload) }]).map((e) => ({ row, ...e })));
  const eventsFor = async (calculationId: string) => (await recorded()).filter((e) => e.event.calculationId === calculationId).map((e) => e.row);
  const usage = async (account: string, keyId: string) => (await h.built.gateway!.keys.list(account)).find((x) => x.id === keyId)!;
  const countFor = async (account: string, keyId: string) => Number((await usage(account, keyId)).calculation_count);

  beforeAll(async () => {
    h = await startHarness();
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
    k = await h.key('ev-acme', 'full');
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  it('a stored calculation puts exactly one CalculationRecorded event in the outbox, which gets published', async () => {
    const res = await calc(k.key, { gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2024-06-01T12:00:00+02:00' }, { 'x-source-id': 'ev-shop' });
    expect(res.statusCode).toBe(200);
    const c = res.json();
    const rows = await eventsFor(c.calculation_id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.subject).toBe(subjectOf(CalculationRecordedSchema));
    const ev = decodeEvent(CalculationRecordedSchema, new Uint8Array(row.payload));
    expect(ev.eventId).toBe(row.id);
    expect({
      calculationId: ev.calculationId,
      accountId: ev.accountId,
      apiKeyId: ev.apiKeyId,
      country: ev.country,
      currency: ev.currency,
      taxClassId: ev.taxClassId,
      vatRateBps: ev.vatRateBps,
      net: ev.netAmountMinor,
      vat: ev.vatAmountMinor,
      gross: ev.grossAmountMinor,
      transactionDate: ev.transactionDate,
      sourceId: ev.sourceId,
    }).toEqual({
      calculationId: c.calculation_id,
      accountId: BigInt(k.accountId),
      apiKeyId: BigInt(k.id),
      country: 'DE',
      currency: 'EUR',
      taxClassId: 'standard',
      vatRateBps: 1900,
      net: 10000n,
      vat: 1900n,
      gross: 11900n,
      transactionDate: '2024-06-01T10:00:00.000Z',
      sourceId: 'ev-shop',
    });
    expect(Number.isNaN(Date.parse(ev.recordedAt))).toBe(false);
    const published = await until(
      async () => (await eventsFor(c.calculation_id))[0]!.published_at,
      (v) => v !== null,
    );
    expect(published).toBeInstanceOf(Date);
  });

  it('the gateway usage consumer counts each stored calculation once', async () => {
    const key = await h.key('ev-count', 'calculate-only');
    expect(await countFor('ev-count', key.id)).toBe(0);
    for (let i = 0; i < 3; i++) expect((await calc(key.key, { gross_amount_minor: i })).statusCode).toBe(200);
    const n = await until(() => countFor('ev-count', key.id), (v) => v >= 3);
    expect(n).toBe(3);
    // and it stays at 3: no double counting after the relay has drained
    await new Promise((r) => setTimeout(r, 300));
    expect(await countFor('ev-count', key.id)).toBe(3);
    expect((await usage('ev-count', key.id)).last_calculation_at).not.toBeNull();
    const unpublished = await db.query('select count(*)::int as n from "calculation".outbox where published_at is null');
    expect(unpublished.rows[0].n).toBe(0);
  });

  it('concurrent calculations stored by one statement travel as one group event of their account: each once, counted once', async () => {
    const key = await h.key('ev-group', 'full');
    const other = await h.key('ev-group-other', 'full');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => calc(i % 4 === 3 ? other.key : key.key, { gross_amount_minor: 500 + i })));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const ids = new Set(answers.map((r) => r.json().calculation_id as string));
    const mine = (await recorded()).filter((e) => ids.has(e.event.calculationId));
    // Each calculation exactly once, under an event id of its own.
    expect(mine.map((e) => e.event.calculationId).sort()).toEqual([...ids].sort());
    expect(new Set(mine.map((e) => e.id)).size).toBe(40);
    const rows = [...new Map(mine.map((e) => [e.row.id, e.row])).values()];
    expect(rows.length).toBeLessThan(40);
    for (const row of rows) {
      const group = decodeEvent(CalculationRecordedSchema, new Uint8Array(row.payload));
      if (group.calculations.length === 0) continue;
      // A group row: named by its own event id, one account, the calculations in storage (position) order.
      expect(group.eventId).toBe(row.id);
      expect(new Set(group.calculations.map((c) => c.accountId))).toEqual(new Set([group.accountId]));
      const seqs = await db.query('select id, seq from "calculation".calculation where id = any($1::uuid[])', [group.calculations.map((c) => c.calculationId)]);
      const seqOf = new Map(seqs.rows.map((r) => [r.id as string, BigInt(r.seq)]));
      const order = group.calculations.map((c) => seqOf.get(c.calculationId)!);
      expect(order).toEqual([...order].sort((a, b) => (a < b ? -1 : 1)));
    }
    expect(rows.some((row) => decodeEvent(CalculationRecordedSchema, new Uint8Array(row.payload)).calculations.length > 1)).toBe(true);
    expect(await until(() => countFor('ev-group', key.id), (v) => v >= 30)).toBe(30);
    expect(await until(() => countFor('ev-group-other', other.id), (v) => v >= 10)).toBe(10);
    await new Promise((r) => setTimeout(r, 300));
    expect(await countFor('ev-group', key.id)).toBe(30);
    expect(await countFor('ev-group-other', other.id)).toBe(10);
  });

  it('an idempotent retry and 25 concurrent retries add no event and no count', async () => {
    const key = await h.key('ev-idem', 'full');
    const first = await calc(key.key, {}, { 'idempotency-key': 'ev-1' });
    expect(first.statusCode).toBe(200);
    const burst = await Promise.all(Array.from({ length: 25 }, () => calc(key.key, {}, { 'idempotency-key': 'ev-1' })));
    expect(burst.every((r) => r.statusCode === 200 && r.json().calculation_id === first.json().calculation_id)).toBe(true);
    const burst2 = await Promise.all(Array.from({ length: 25 }, () => calc(key.key, { gross_amount_minor: 7 }, { 'idempotency-key': 'ev-2' })));
    const id2 = burst2[0]!.json().calculation_id;
    expect(burst2.every((r) => r.json().calculation_id === id2)).toBe(true);
    expect(await eventsFor(first.json().calculation_id)).toHaveLength(1);
    expect(await eventsFor(id2)).toHaveLength(1);
    expect(await until(() => countFor('ev-idem', key.id), (v) => v >= 2)).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(await countFor('ev-idem', key.id)).toBe(2);
  });

  it('rejected requests emit nothing', async () => {
    const key = await h.key('ev-rejected', 'full');
    const before = (await outbox()).length;
    expect((await calc(key.key, { country: 'XX' })).statusCode).toBe(400);
    expect((await calc(key.key, { transaction_date: '2010-01-01' })).statusCode).toBe(422);
    const ok = await calc(key.key, {}, { 'idempotency-key': 'rej' });
    expect((await calc(key.key, { gross_amount_minor: 1 }, { 'idempotency-key': 'rej' })).statusCode).toBe(409);
    expect((await outbox()).length).toBe(before + 1);
    expect(await eventsFor(ok.json().calculation_id)).toHaveLength(1);
    expect(await until(() => countFor('ev-rejected', key.id), (v) => v >= 1)).toBe(1);
  });

  it('legacy (unowned) calculations emit nothing and count nothing', async () => {
    const legacy = await h.key('ev-legacy', 'full', true);
    const before = (await outbox()).length;
    for (let i = 0; i < 3; i++) {
      const r = await calc(legacy.key, { gross_amount_minor: 100 + i });
      expect(r.statusCode).toBe(200);
      expect(r.json().calculation_id).toBeNull();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect((await outbox()).length).toBe(before);
    expect(await countFor('ev-legacy', legacy.id)).toBe(0);
  });

  it('a redelivered event (same event id, new message id) is counted once', async () => {
    const key = await h.key('ev-redeliver', 'full');
    const c = (await calc(key.key)).json();
    expect(await until(() => countFor('ev-redeliver', key.id), (v) => v >= 1)).toBe(1);
    const [row] = await eventsFor(c.calculation_id);
    const bus = h.built.services.find((s) => s.module.name === 'calculation')!.deps.bus;
    await bus.publish([{ id: `${row!.id}-again`, subject: row!.subject, data: new Uint8Array(row!.payload) }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(await countFor('ev-redeliver', key.id)).toBe(1);
  });

  it('every stored calculation has exactly one event: totals agree across the whole database', async () => {
    const calcs = Number((await db.query('select count(*) from "calculation".calculation')).rows[0].count);
    const events = await recorded();
    expect(events.length).toBe(calcs);
    const ids = new Set(events.map((e) => e.event.calculationId));
    expect(ids.size).toBe(calcs);
    expect(new Set(events.map((e) => e.id)).size).toBe(calcs);
    const stored = (await db.query('select id from "calculation".calculation')).rows.map((r) => r.id as string);
    for (const id of stored) expect(ids.has(id)).toBe(true);
  });
});
