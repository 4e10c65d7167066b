import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';
import type { CalculationDeps } from '../src/context';

const backends = await requireBackends(['postgres']);

const body = (over: Record<string, unknown> = {}) => ({
  country: 'DE',
  currency: 'EUR',
  tax_class_id: 'standard',
  gross_amount_minor: 10000,
  price_includes_vat: false,
  transaction_date: '2024-06-01',
  ...over,
});

describe.skipIf(!backends.ok)('v1 calculation idempotency (PostgreSQL)', () => {
  let h: Harness;
  let db: pg.Client;
  let a: { key: string; accountId: string };
  let b: { key: string; accountId: string };

  const calc = (key: string, payload: unknown, headers: Record<string, string> = {}) =>
    h.inject({ method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  const rowsWithKey = async (accountId: string, idemKey: string) =>
    (await db.query('select id from "calculation".calculation where account_id = $1 and idempotency_key = $2', [accountId, idemKey])).rows as { id: string }[];
  const storedCount = async (accountId: string) => Number((await db.query('select count(*) from "calculation".calculation where account_id = $1', [accountId])).rows[0].count);

  beforeAll(async () => {
    h = await startHarness();
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
    a = await h.key('idem-a', 'full');
    b = await h.key('idem-b', 'full');
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  it('the same key and body return the same calculation and an identical body, stored once', async () => {
    const first = await calc(a.key, body(), { 'idempotency-key': 'order-1' });
    expect(first.statusCode).toBe(200);
    const before = await storedCount(a.accountId);
    const again = await calc(a.key, body(), { 'idempotency-key': 'order-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json().calculation_id).toBe(first.json().calculation_id);
    expect(again.body).toBe(first.body);
    expect(await storedCount(a.accountId)).toBe(before);
    expect(await rowsWithKey(a.accountId, 'order-1')).toEqual([{ id: first.json().calculation_id }]);
  });

  it('the comparison is on the canonical request: key order and an equivalent date form do not matter', async () => {
    const first = await calc(a.key, body({ gross_amount_minor: 500 }), { 'idempotency-key': 'order-canon' });
    expect(first.statusCode).toBe(200);
    const reordered = '{"transaction_date":"2024-06-01T00:00:00Z","price_includes_vat":false,"gross_amount_minor":500,"tax_class_id":"standard","currency":"EUR","country":"DE"}';
    const again = await calc(a.key, reordered, { 'idempotency-key': 'order-canon' });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    // an offset that names the same instant is the same canonical request too
    const offset = await calc(a.key, body({ gross_amount_minor: 500, transaction_date: '2024-06-01T02:00:00+02:00' }), { 'idempotency-key': 'order-canon' });
    expect(offset.body).toBe(first.body);
  });

  it.each([
    ['amount', { gross_amount_minor: 10001 }],
    ['price_includes_vat', { price_includes_vat: true }],
    ['transaction_date', { transaction_date: '2024-06-02' }],
    ['transaction_date (a later instant on the same day)', { transaction_date: '2024-06-01T00:00:01Z' }],
    ['currency', { currency: 'USD' }],
    ['country', { country: 'AT' }],
    ['tax class', { tax_class_id: 'books' }],
  ])('the same key with a different %s gives 409 idempotency_conflict and stores nothing', async (_what, change) => {
    const key = `conflict-${_what.replace(/[^A-Za-z0-9_]+/g, '-')}`;
    const first = await calc(a.key, body(), { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    const before = await storedCount(a.accountId);
    const res = await calc(a.key, body(change), { 'idempotency-key': key });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('idempotency_conflict');
    expect(res.json().calculation_id).toBeUndefined();
    expect(await storedCount(a.accountId)).toBe(before);
    // the original is still what the key answers
    const orig = await calc(a.key, body(), { 'idempotency-key': key });
    expect(orig.body).toBe(first.body);
  });

  it('X-Source-ID is part of the identity: a different, an added or a dropped tag gives 409', async () => {
    const first = await calc(a.key, body(), { 'idempotency-key': 'src-1', 'x-source-id': 'shop-de' });
    expect(first.statusCode).toBe(200);
    for (const headers of [{ 'x-source-id': 'shop-at' }, {}, { 'x-source-id': 'SHOP-DE' }] as Record<string, string>[]) {
      const res = await calc(a.key, body(), { 'idempotency-key': 'src-1', ...headers });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('idempotency_conflict');
    }
    const same = await calc(a.key, body(), { 'idempotency-key': 'src-1', 'x-source-id': 'shop-de' });
    expect(same.body).toBe(first.body);

    const untagged = await calc(a.key, body(), { 'idempotency-key': 'src-2' });
    const tagged = await calc(a.key, body(), { 'idempotency-key': 'src-2', 'x-source-id': 'shop-de' });
    expect(untagged.statusCode).toBe(200);
    expect(tagged.statusCode).toBe(409);
  });

  it('the same key in another account is independent', async () => {
    const ra = await calc(a.key, body({ gross_amount_minor: 4242 }), { 'idempotency-key': 'shared-key' });
    const rb = await calc(b.key, body({ gross_amount_minor: 9999 }), { 'idempotency-key': 'shared-key' });
    expect(ra.statusCode).toBe(200);
    expect(rb.statusCode).toBe(200);
    expect(rb.json().calculation_id).not.toBe(ra.json().calculation_id);
    expect(rb.json().gross_amount_minor).toBe(11899);
    expect((await rowsWithKey(a.accountId, 'shared-key')).map((r) => r.id)).toEqual([ra.json().calculation_id]);
    expect((await rowsWithKey(b.accountId, 'shared-key')).map((r) => r.id)).toEqual([rb.json().calculation_id]);
    // B's replay with the same body as A's is a new calculation in B, not A's answer
    const rb2 = await calc(b.key, body({ gross_amount_minor: 4242 }), { 'idempotency-key': 'shared-key' });
    expect(rb2.statusCode).toBe(409);
  });

  it('another key of the same account shares the key space', async () => {
    const second = await h.key('idem-a', 'calculate-only');
    const first = await calc(a.key, body({ gross_amount_minor: 31 }), { 'idempotency-key': 'account-wide' });
    const other = await calc(second.key, body({ gross_amount_minor: 31 }), { 'idempotency-key': 'account-wide' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(first.body);
  });

  it('25 concurrent requests with one key store exactly one row and answer identically', async () => {
    const before = await storedCount(a.accountId);
    const results = await Promise.all(Array.from({ length: 25 }, () => calc(a.key, body({ gross_amount_minor: 2525 }), { 'idempotency-key': 'burst', 'x-source-id': 'burst-src' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(25).fill(200));
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    expect(await rowsWithKey(a.accountId, 'burst')).toHaveLength(1);
    expect(await storedCount(a.accountId)).toBe(before + 1);
    const outbox = await db.query('select count(*) from "calculation".outbox o where exists (select 1 from "calculation".calculation c where c.account_id = $1 and c.idempotency_key = $2)', [a.accountId, 'burst']);
    expect(Number(outbox.rows[0].count)).toBeGreaterThanOrEqual(1);
  });

  it('25 concurrent requests with one key but different bodies: one wins, the rest conflict', async () => {
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => calc(a.key, body({ gross_amount_minor: 3000 + i }), { 'idempotency-key': 'burst-mixed' })));
    const ok = results.filter((r) => r.statusCode === 200);
    const conflicts = results.filter((r) => r.statusCode === 409);
    expect(ok.length + conflicts.length).toBe(25);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body)).size).toBe(1);
    for (const c of conflicts) expect(c.json().error).toBe('idempotency_conflict');
    const rows = await rowsWithKey(a.accountId, 'burst-mixed');
    expect(rows).toEqual([{ id: ok[0]!.json().calculation_id }]);
  });

  it('a rejected request does not consume the key', async () => {
    const rejected = await calc(a.key, body({ country: 'XX' }), { 'idempotency-key': 'after-reject' });
    expect(rejected.statusCode).toBe(400);
    const noRate = await calc(a.key, body({ transaction_date: '2010-01-01' }), { 'idempotency-key': 'after-reject' });
    expect(noRate.statusCode).toBe(422);
    const ok = await calc(a.key, body({ gross_amount_minor: 1 }), { 'idempotency-key': 'after-reject' });
    expect(ok.statusCode).toBe(200);
  });

  it('a legacy key cannot use Idempotency-Key', async () => {
    const legacy = await h.key('idem-legacy', 'full', true);
    const res = await calc(legacy.key, body(), { 'idempotency-key': 'legacy-1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('idempotency_requires_v2_key');
  });

  it('a retry after the rate data changed still returns the stored original', async () => {
    const first = await calc(a.key, body({ gross_amount_minor: 20000 }), { 'idempotency-key': 'before-rate-change' });
    expect(first.json().vat_rate_bps).toBe(1900);
    const svc = h.built.services.find((s) => s.module.name === 'calculation')!;
    const rates = (svc.deps as CalculationDeps).rates;
    const prev = await db.query(`select id from "calculation".reference_release where kind = 'vat_rates' order by id desc limit 1`);
    const rel = await db.query(
      `insert into "calculation".reference_release (kind, digest, version, row_count, loaded_at) values ('vat_rates', 'sha256:test-release-idempotency', 'test-2099', 0, now()) returning id`,
    );
    const newId = rel.rows[0].id as string;
    try {
      await db.query(
        `insert into "calculation".vat_rate (release_id, country, tax_class_id, rate_bps, valid_from, valid_to, rate_type, conditional, conditions, sources, legal_ref, tedb_category, review_status, note, row_digest)
         select $1, country, tax_class_id, case when country = 'DE' and tax_class_id = 'standard' then rate_bps + 100 else rate_bps end, valid_from, valid_to, rate_type, conditional, conditions, sources, legal_ref, tedb_category, review_status, note, row_digest || '-t'
         from "calculation".vat_rate where release_id = $2`,
        [newId, prev.rows[0].id],
      );
      await rates.refresh();
      // the new data is live: an unkeyed request now sees the changed rate
      const fresh = await calc(a.key, body({ gross_amount_minor: 20000 }));
      expect(fresh.json().vat_rate_bps).toBe(2000);
      // the keyed retry answers from the stored calculation
      const retry = await calc(a.key, body({ gross_amount_minor: 20000 }), { 'idempotency-key': 'before-rate-change' });
      expect(retry.statusCode).toBe(200);
      expect(retry.body).toBe(first.body);
      // and the stored calculation still replays exactly with its pinned rate
      const replay = await h.inject({ method: 'POST', url: `/v1/transactions/${first.json().calculation_id}/replay`, headers: { 'x-api-key': a.key } });
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toMatchObject({ exact_match: true, vat_rate_bps: 1900, vat_amount_minor: 3800 });
    } finally {
      await db.query('delete from "calculation".vat_rate where release_id = $1', [newId]);
      await db.query('delete from "calculation".reference_release where id = $1', [newId]);
      await rates.refresh();
    }
    expect((await calc(a.key, body())).json().vat_rate_bps).toBe(1900);
  });
});
