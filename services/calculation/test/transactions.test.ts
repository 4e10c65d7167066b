import { minorToMajor } from '@vat/platform/money';
import { minorUnits } from '@vat/platform/currencies';
import { readFileSync } from 'node:fs';
import { createClient, createRouterTransport } from '@connectrpc/connect';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalculationService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { principalHeaders, principalInterceptor } from '@vat/platform/principal';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';
import { ALGORITHM_MANIFEST_DIGEST, EXECUTION_DIGEST } from '../src/domain/algorithm-manifest';

const backends = await requireBackends(['postgres']);

type Key = { key: string; id: string; accountId: string };
type Json = Record<string, any>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;
const UNKNOWN_ID = '0b7e5c1e-8c1f-4d9e-9a55-3f1f9d6c2b10';

const body = (over: Record<string, unknown> = {}) => ({
  country: 'DE',
  currency: 'EUR',
  tax_class_id: 'standard',
  gross_amount_minor: 10000,
  price_includes_vat: false,
  transaction_date: '2024-06-01',
  ...over,
});

// ---- independent ECB lookup from the shipped CSV -----------------------------------------------------
const ECB_LINES = readFileSync(new URL('../../../seeds/ecb/eurofxref-hist.csv', import.meta.url), 'utf8').trim().split(/\r?\n/);
const ECB_HEADER = ECB_LINES[0]!.split(',');
const ECB_ROWS = ECB_LINES.slice(1)
  .map((l) => l.split(','))
  .sort((a, b) => (a[0]! < b[0]! ? 1 : -1)); // newest first

/** The rate of the latest publication day on or before `date`; undefined when the ECB did not quote it that day. */
function ecbRate(currency: string, date: string): string | undefined {
  const col = ECB_HEADER.indexOf(currency);
  const row = ECB_ROWS.find((r) => r[0]! <= date);
  if (col < 0 || !row) return undefined;
  const v = row[col];
  return v && v !== 'N/A' ? v : undefined;
}

/** amount (minor units of a currency with `mu` decimals) / rate, in euro cents, halves away from zero. */
function toEurCents(amount: bigint, rate: string, mu: number): bigint {
  const [i, f = ''] = rate.split('.');
  const mant = BigInt(i! + f);
  const num = amount * 10n ** BigInt(f.length) * 100n;
  const den = 10n ** BigInt(mu) * mant;
  const q = num / den;
  return 2n * (num % den) >= den ? q + 1n : q;
}

function parseCsv(text: string): string[][] {
  // the fields used here never contain quotes, commas or line breaks
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((l) => l.split(','));
}

describe.skipIf(!backends.ok)('transactions (REST, PostgreSQL)', () => {
  let h: Harness;
  let db: pg.Client;

  const calc = async (key: string, over: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const r = await h.inject({ method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': key, ...headers }, payload: body(over) });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Json;
  };
  const get = (key: string, url: string) => h.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  const list = async (key: string, qs = '') => {
    const r = await get(key, `/v1/transactions${qs ? `?${qs}` : ''}`);
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { items: Json[]; next_cursor: string | null };
  };
  const ids = (items: Json[]) => items.map((i) => i.id as string);

  beforeAll(async () => {
    h = await startHarness();
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  describe('list', () => {
    let k: Key;
    beforeAll(async () => {
      k = await h.key('tx-list', 'full');
    });

    it('lists newest first', async () => {
      const made: string[] = [];
      for (let i = 0; i < 4; i++) made.push((await calc(k.key, { gross_amount_minor: 100 + i, transaction_date: `2024-0${4 - i}-01` })).calculation_id);
      const page = await list(k.key, 'limit=4');
      // newest stored first, whatever the transaction dates
      expect(ids(page.items)).toEqual([...made].reverse());
      const created = page.items.map((i) => Date.parse(i.created_at));
      expect([...created].sort((a, b) => b - a)).toEqual(created);
    });

    it('a row carries the summary fields with rate_evidence_status', async () => {
      const c = await calc(k.key, { gross_amount_minor: 5000 }, { 'x-source-id': 'row-shape' });
      const [row] = (await list(k.key, 'limit=1')).items;
      expect(row).toEqual({
        id: c.calculation_id,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        transaction_date: '2024-06-01T00:00:00.000Z',
        country: 'DE',
        currency: 'EUR',
        tax_class_id: 'standard',
        vat_rate_bps: 1900,
        net_amount_minor: 5000,
        vat_amount_minor: 950,
        gross_amount_minor: 5950,
        price_includes_vat: false,
        source_id: 'row-shape',
        api_key_id: Number(k.id),
        rate_evidence_status: c.rate_provenance.evidence_status,
        replay_status: 'available',
      });
      expect(['verified', 'legacy_unverifiable', 'unavailable']).toContain(row!.rate_evidence_status);
    });

    it('limit 1..500; default 50', async () => {
      for (let i = 0; i < 50; i++) await calc(k.key, { gross_amount_minor: i });
      expect((await list(k.key, 'limit=1')).items).toHaveLength(1);
      const def = await list(k.key);
      expect(def.items).toHaveLength(50);
      expect(def.next_cursor).toEqual(expect.any(String));
      const max = await list(k.key, 'limit=500');
      expect(max.items.length).toBeGreaterThan(50);
      expect(max.next_cursor).toBeNull();
    });

    it.each(['0', '501', 'x', '-1', '1.5', '', '1000'])('limit=%j gives 400 invalid_limit', async (v) => {
      const r = await get(k.key, `/v1/transactions?limit=${v}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_limit');
    });

    it.each(['garbage!!', 'czo', 'czotMQ', 'eDox', 'a'.repeat(60)])('cursor=%j gives 400 invalid_cursor', async (v) => {
      const r = await get(k.key, `/v1/transactions?cursor=${v}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_cursor');
    });

    it('an unknown query parameter is rejected', async () => {
      const r = await get(k.key, '/v1/transactions?sort=asc');
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('unknown_parameter');
    });
  });

  describe('cursor paging while rows are being added', () => {
    it('pages over ~120 rows without duplicates or gaps among the rows that existed at the first page', async () => {
      const k = await h.key('tx-paging', 'full');
      for (let b = 0; b < 12; b++) await Promise.all(Array.from({ length: 10 }, (_, i) => calc(k.key, { gross_amount_minor: b * 10 + i })));
      const existing = ids((await list(k.key, 'limit=500')).items);
      expect(existing).toHaveLength(120);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      let added = 0;
      do {
        const page = await list(k.key, `limit=25${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...ids(page.items));
        cursor = page.next_cursor;
        pages++;
        // new calculations land between page fetches
        for (let i = 0; i < 3; i++) await calc(k.key, { gross_amount_minor: 90000 + added++ });
      } while (cursor && pages < 20);

      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(existing);
      expect(pages).toBe(5);
      // and the newer rows are at the head of a fresh listing
      const head = await list(k.key, `limit=${added}`);
      expect(head.items.every((i) => i.gross_amount_minor >= 90000 * 1.19 - 1)).toBe(true);
    });
  });

  describe('filters', () => {
    let f1: Key;
    let f2: Key;
    const made: Record<string, string> = {};
    beforeAll(async () => {
      f1 = await h.key('tx-filters', 'full');
      f2 = await h.key('tx-filters', 'calculate-only');
      // r1 is 2024-03-02 00:30 in Berlin but 2024-03-01 in UTC
      made.r1 = (await calc(f1.key, { transaction_date: '2024-03-02T00:30:00+01:00' }, { 'x-source-id': 'shop-a' })).calculation_id;
      made.r2 = (await calc(f1.key, { transaction_date: '2024-03-02T00:00:00Z' }, { 'x-source-id': 'shop-b' })).calculation_id;
      made.r3 = (await calc(f2.key, { country: 'AT', currency: 'USD', transaction_date: '2024-03-03T23:59:59.999Z' }, { 'x-source-id': '-abc' })).calculation_id;
      made.r4 = (await calc(f1.key, { country: 'FR', tax_class_id: 'books', transaction_date: '2024-03-04' })).calculation_id;
      made.r5 = (await calc(f2.key, { tax_class_id: 'food', transaction_date: '2024-03-03T12:00:00+02:00' }, { 'x-source-id': 'shop-a' })).calculation_id;
    });
    const pick = (...names: string[]) => names.map((n) => made[n]!).sort();
    const q = async (qs: string) => ids((await list(f1.key, qs)).items).sort();

    it('from/to are inclusive UTC dates', async () => {
      expect(await q('from=2024-03-02&to=2024-03-03')).toEqual(pick('r2', 'r3', 'r5'));
      expect(await q('from=2024-03-01&to=2024-03-01')).toEqual(pick('r1'));
      expect(await q('from=2024-03-04')).toEqual(pick('r4'));
      expect(await q('to=2024-03-02')).toEqual(pick('r1', 'r2'));
      expect(await q('from=2024-03-05')).toEqual([]);
    });

    it('country, currency, tax_class_id', async () => {
      expect(await q('country=AT')).toEqual(pick('r3'));
      expect(await q('country=DE')).toEqual(pick('r1', 'r2', 'r5'));
      expect(await q('currency=USD')).toEqual(pick('r3'));
      expect(await q('currency=EUR&tax_class_id=books')).toEqual(pick('r4'));
      expect(await q('tax_class_id=food')).toEqual(pick('r5'));
      expect(await q('country=DE&tax_class_id=food&currency=EUR')).toEqual(pick('r5'));
    });

    it('well-formed but unknown filter values are refused, not answered with an empty page', async () => {
      for (const [query, code] of [
        ['tax_class_id=no_such_class', 'invalid_tax_class_id'],
        ['currency=ZZZ', 'invalid_currency'],
        ['country=US', 'invalid_country'],
        ['api_key_id=0', 'invalid_api_key_id'],
      ]) {
        // the aggregation has no tax_class_id filter (its own unknown_parameter case is tested elsewhere)
        const paths = ['/v1/transactions', '/v1/transactions/export', ...(query!.startsWith('tax_class_id') ? [] : ['/v1/transactions/aggregated'])];
        for (const path of paths) {
          const r = await h.inject({ method: 'GET', url: `${path}?from=2024-01-01&to=2024-12-31&${query}`, headers: { 'x-api-key': f1.key } });
          expect(r.statusCode, `${path} ${query}: ${r.body}`).toBe(400);
          expect(r.json().error).toBe(code);
        }
      }
    });

    it('source_id matches the raw tag, also one that starts with "-" and one with a profile', async () => {
      expect(await q('source_id=shop-a')).toEqual(pick('r1', 'r5'));
      expect(await q('source_id=-abc')).toEqual(pick('r3'));
      expect(await q('source_id=nobody')).toEqual([]);
      const created = await h.inject({ method: 'POST', url: '/v1/sources', headers: { 'x-api-key': f1.key }, payload: { source_key: 'shop-b', display_name: 'Shop B', channel_type: 'owned_store' } });
      expect(created.statusCode).toBe(201);
      expect(await q('source_id=shop-b')).toEqual(pick('r2'));
    });

    it('api_key_id', async () => {
      expect(await q(`api_key_id=${f2.id}`)).toEqual(pick('r3', 'r5'));
      expect(await q(`api_key_id=${f1.id}`)).toEqual(pick('r1', 'r2', 'r4'));
      expect(await q('api_key_id=999999999')).toEqual([]);
    });

    it('filters combine with paging', async () => {
      const p1 = await list(f1.key, 'country=DE&limit=2');
      expect(p1.items).toHaveLength(2);
      const p2 = await list(f1.key, `country=DE&limit=2&cursor=${p1.next_cursor}`);
      expect(p2.next_cursor).toBeNull();
      expect([...ids(p1.items), ...ids(p2.items)].sort()).toEqual(pick('r1', 'r2', 'r5'));
    });

    it.each([
      ['from=2024-02-30', 'invalid_date'],
      ['from=2024/03/01', 'invalid_date'],
      ['to=24-03-01', 'invalid_date'],
      ['from=2024-03-05&to=2024-03-01', 'invalid_date_range'],
      ['country=XX', 'invalid_country'],
      ['country=de', 'invalid_country'],
      ['currency=eur', 'invalid_currency'],
      ['tax_class_id=Bad-Class', 'invalid_tax_class_id'],
      ['source_id=a%20b', 'invalid_source_id'],
      [`source_id=${'s'.repeat(101)}`, 'invalid_source_id'],
      ['api_key_id=abc', 'invalid_api_key_id'],
      ['api_key_id=-1', 'invalid_api_key_id'],
    ])('%s gives 400 %s', async (qs, code) => {
      const r = await get(f1.key, `/v1/transactions?${qs}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(code);
    });
  });

  describe('detail', () => {
    let k: Key;
    let other: Key;
    beforeAll(async () => {
      k = await h.key('tx-detail', 'full');
      other = await h.key('tx-detail-other', 'full');
    });

    it('returns the evidence detail of a stored calculation', async () => {
      const c = await calc(k.key, { gross_amount_minor: 11900, price_includes_vat: true }, { 'x-source-id': 'detail-src', 'idempotency-key': 'detail-key-1' });
      const r = await get(k.key, `/v1/transactions/${c.calculation_id}`);
      expect(r.statusCode).toBe(200);
      const d = r.json();
      expect(d).toMatchObject({
        id: c.calculation_id,
        transaction_date: '2024-06-01T00:00:00.000Z',
        country: 'DE',
        currency: 'EUR',
        tax_class_id: 'standard',
        vat_rate_bps: 1900,
        net_amount_minor: 10000,
        vat_amount_minor: 1900,
        gross_amount_minor: 11900,
        price_includes_vat: true,
        source_id: 'detail-src',
        api_key_id: Number(k.id),
        replay_status: 'available',
        rate_effective_from: '2021-01-01',
        rate_effective_to: null,
        calculation_version: 'vat-calculator-half-up/v1',
        execution_digest: EXECUTION_DIGEST,
        algorithm_manifest_digest: ALGORITHM_MANIFEST_DIGEST,
        evidence_status: 'captured',
      });
      expect(d.rate_evidence_status).toBe(c.rate_provenance.evidence_status);
      expect(typeof d.rate_source).toBe('string');
      expect(typeof d.rate_release_version).toBe('string');
      expect(d.rate_release_digest).toMatch(DIGEST_RE);
      expect(typeof d.mapping_version).toBe('string');
      expect(d.snapshot_references.map((s: Json) => s.kind)).toEqual(['canonical_request', 'rate_window', 'rate_release', 'algorithm_manifest']);
      for (const s of d.snapshot_references) expect(s.digest).toMatch(DIGEST_RE);
      expect(d.snapshot_references[2].digest).toBe(d.rate_release_digest);
      expect(d.snapshot_references[3].digest).toBe(ALGORITHM_MANIFEST_DIGEST);
      // the key itself is never shown, only a digest of it
      expect(d.idempotency_key_digest).toMatch(DIGEST_RE);
      expect(r.body).not.toContain('detail-key-1');
      expect(d.rate_provenance).toEqual(c.rate_provenance);
    });

    it('an unkeyed calculation has no idempotency_key_digest; an upper-case id finds the row', async () => {
      const c = await calc(k.key);
      const r = await get(k.key, `/v1/transactions/${c.calculation_id.toUpperCase()}`);
      expect(r.statusCode).toBe(200);
      expect(r.json().id).toBe(c.calculation_id);
      expect(r.json().idempotency_key_digest).toBeNull();
    });

    it.each(['abc', '00000000-0000-0000-0000-000000000000', `${UNKNOWN_ID}x`, UNKNOWN_ID.replace(/-/g, '')])('400 invalid_transaction_id for %j', async (id) => {
      const r = await get(k.key, `/v1/transactions/${id}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_transaction_id');
    });

    it('an unknown id and another account\'s id give the identical 404 transaction_not_found', async () => {
      const theirs = await calc(other.key);
      const unknown = await get(k.key, `/v1/transactions/${UNKNOWN_ID}`);
      const foreign = await get(k.key, `/v1/transactions/${theirs.calculation_id}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe('transaction_not_found');
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(unknown.body);
      expect((await get(other.key, `/v1/transactions/${theirs.calculation_id}`)).statusCode).toBe(200);
    });
  });

  describe('replay', () => {
    let k: Key;
    let other: Key;
    const replay = (key: string, id: string, payload?: unknown) =>
      h.inject({ method: 'POST', url: `/v1/transactions/${id}/replay`, headers: { 'x-api-key': key }, ...(payload === undefined ? {} : { payload: payload as object }) });
    beforeAll(async () => {
      k = await h.key('tx-replay', 'full');
      other = await h.key('tx-replay-other', 'full');
    });

    it.each([
      ['excl', { gross_amount_minor: 12345, price_includes_vat: false }],
      ['incl', { gross_amount_minor: 12345, price_includes_vat: true }],
      ['offset date', { gross_amount_minor: 50, transaction_date: '2020-12-31T23:30:00-01:00', country: 'DE' }],
      ['USD', { currency: 'USD', country: 'FI', transaction_date: '2024-09-01', gross_amount_minor: 100 }],
    ])('reproduces the stored amounts exactly (%s)', async (_n, over) => {
      const c = await calc(k.key, over, { 'x-source-id': 'replay-src' });
      const r = await replay(k.key, c.calculation_id);
      expect(r.statusCode).toBe(200);
      const p = r.json();
      expect(p).toEqual({
        exact_match: true,
        calculation_id: c.calculation_id,
        country: c.country,
        currency: c.currency,
        vat_rate_bps: c.vat_rate_bps,
        gross_amount_minor: c.gross_amount_minor,
        net_amount_minor: c.net_amount_minor,
        vat_amount_minor: c.vat_amount_minor,
        transaction_date: c.transaction_date,
        rate_provenance: c.rate_provenance,
        calculation_provenance: c.calculation_provenance,
      });
    });

    it('a read-only key may replay', async () => {
      const c = await calc(k.key);
      const ro = await h.key('tx-replay', 'read-only');
      expect((await replay(ro.key, c.calculation_id)).statusCode).toBe(200);
    });

    it('unknown, malformed and other-account ids give the identical 404 calculation_not_found', async () => {
      const theirs = await calc(other.key);
      const answers = await Promise.all([UNKNOWN_ID, 'abc', '00000000-0000-0000-0000-000000000000', theirs.calculation_id, 'x'.repeat(64)].map((id) => replay(k.key, id)));
      for (const a of answers) {
        expect(a.statusCode).toBe(404);
        expect(a.body).toBe(answers[0]!.body);
      }
      expect(answers[0]!.json().error).toBe('calculation_not_found');
      expect((await replay(other.key, theirs.calculation_id)).statusCode).toBe(200);
    });

    it('an over-long malformed id (65+ characters) gives the same 404 calculation_not_found as an unknown id', async () => {
      const unknown = await replay(k.key, UNKNOWN_ID);
      for (const id of ['x'.repeat(65), `${UNKNOWN_ID}-${UNKNOWN_ID}`]) {
        const r = await replay(k.key, id);
        expect({ status: r.statusCode, body: r.body }).toEqual({ status: 404, body: unknown.body });
      }
    });

    it('takes no body: an object with members, null, an array, a number or a string is 400 unexpected_body', async () => {
      const c = await calc(k.key);
      for (const payload of ['{"rate_bps":1}', 'null', '[]', '[{}]', '0', '"x"', 'true']) {
        const r = await h.inject({ method: 'POST', url: `/v1/transactions/${c.calculation_id}/replay`, headers: { 'x-api-key': k.key, 'content-type': 'application/json' }, payload });
        expect(r.statusCode, payload).toBe(400);
        expect(r.json().error, payload).toBe('unexpected_body');
      }
      for (const payload of ['{}', undefined]) {
        const r = await h.inject({ method: 'POST', url: `/v1/transactions/${c.calculation_id}/replay`, headers: { 'x-api-key': k.key, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload } : {}) });
        expect(r.statusCode, String(payload)).toBe(200);
      }
    });

    // The rate evidence is its window's document (append-only); tampering puts an altered copy inline in the row.
    const evidence = `coalesce(rate_evidence, (select doc from "calculation".rate_evidence_doc where digest = rate_evidence_digest))`;
    const tampers: [string, string][] = [
      ['the pinned rate in rate_evidence', `update "calculation".calculation set rate_evidence = jsonb_set(${evidence}, '{window,rate_bps}', '2000'), rate_evidence_digest = null where id = $1`],
      ['the release digest in rate_evidence', `update "calculation".calculation set rate_evidence = jsonb_set(${evidence}, '{release_digest}', '"sha256:0000"'), rate_evidence_digest = null where id = $1`],
      ['rate_evidence and the stored rate together', `update "calculation".calculation set rate_evidence = jsonb_set(${evidence}, '{window,rate_bps}', '2000'), rate_evidence_digest = null, vat_rate_bps = 2000 where id = $1`],
      ['the canonical request amount', `update "calculation".calculation set canonical_request = jsonb_set(canonical_request, '{amount_minor}', '"1"') where id = $1`],
      ['the stored VAT amount', `update "calculation".calculation set vat_minor = vat_minor + 1 where id = $1`],
      ['the calculation version', `update "calculation".calculation set calculation_version = 'vat-calculator-half-up/v0' where id = $1`],
      ['the replay status', `update "calculation".calculation set replay_status = 'ineligible' where id = $1`],
    ];
    it.each(tampers)('tampering with %s gives the same 404 calculation_not_found', async (_what, sql) => {
      const c = await calc(k.key, { gross_amount_minor: 4321 });
      expect((await replay(k.key, c.calculation_id)).statusCode).toBe(200);
      const unknown = await replay(k.key, UNKNOWN_ID);
      const res = await db.query(sql, [c.calculation_id]);
      expect(res.rowCount).toBe(1);
      const r = await replay(k.key, c.calculation_id);
      expect(r.statusCode).toBe(404);
      expect(r.body).toBe(unknown.body);
      expect(r.body).not.toContain('4321');
    });
  });

  describe('export', () => {
    let k: Key;
    let rows: Json[];
    const V1 = ['id', 'created_at', 'transaction_date', 'country', 'currency', 'tax_class_id', 'price_includes_vat', 'vat_rate_bps', 'net_amount', 'vat_amount', 'gross_amount', 'source_id', 'api_key_id'];
    const V2_EXTRA = ['rate_evidence_status', 'replay_status', 'calculation_version', 'execution_digest', 'algorithm_manifest_digest', 'rate_release_digest', 'rate_window_digest', 'snapshot_digests'];
    const exp = (qs: string, key = k.key) => get(key, `/v1/transactions/export?${qs}`);
    // Exports use major-unit decimal strings at the currency's scale (the spec's conventions).
    const major = (minor: number, currency: string) => minorToMajor(BigInt(minor), minorUnits(currency)!);

    beforeAll(async () => {
      k = await h.key('tx-export', 'full');
      await calc(k.key, { transaction_date: '2024-02-01' }, { 'x-source-id': '-abc' });
      await calc(k.key, { transaction_date: '2024-02-02', price_includes_vat: true, gross_amount_minor: 999 }, { 'x-source-id': 'plain/tag_1' });
      await calc(k.key, { transaction_date: '2024-02-03', country: 'AT', currency: 'USD' });
      await calc(k.key, { transaction_date: '2024-02-04', tax_class_id: 'food' }, { 'x-source-id': '-' });
      await calc(k.key, { transaction_date: '2024-02-05' });
      await calc(k.key, { transaction_date: '2024-02-06' });
      await calc(k.key, { transaction_date: '2024-02-07' });
      rows = (await list(k.key, 'limit=500')).items.reverse(); // oldest first, like the export
    });

    it('v1: header, CRLF, one row per transaction oldest first, values as in the list', async () => {
      const r = await exp('from=2024-02-01&to=2024-02-07');
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/csv/);
      expect(r.body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
      const csv = parseCsv(r.body);
      expect(csv[0]).toEqual(V1);
      expect(csv).toHaveLength(1 + 7);
      csv.slice(1).forEach((line, i) => {
        const t = rows[i]!;
        const neutral = (s: string | null) => (s === null ? '' : /^[=+\-@]/.test(s) ? `'${s}` : s);
        expect(line).toEqual([
          t.id,
          t.created_at,
          t.transaction_date,
          t.country,
          t.currency,
          t.tax_class_id,
          String(t.price_includes_vat),
          String(t.vat_rate_bps),
          major(t.net_amount_minor, t.currency),
          major(t.vat_amount_minor, t.currency),
          major(t.gross_amount_minor, t.currency),
          neutral(t.source_id),
          String(t.api_key_id),
        ]);
      });
    });

    it('amounts are major-unit decimals, other numeric columns bare integers; a source tag starting with "-" is neutralised', async () => {
      const text = (await exp('from=2024-02-01&to=2024-02-07')).body;
      const csv = parseCsv(text);
      for (const line of csv.slice(1)) for (const i of [7, 12]) expect(line[i]).toMatch(/^\d+$/);
      for (const line of csv.slice(1)) for (const i of [8, 9, 10]) expect(line[i]).toMatch(/^\d+\.\d{2}$/);
      expect(text).not.toContain('"');
      expect(csv[1]![11]).toBe("'-abc");
      expect(csv[4]![11]).toBe("'-");
      expect(csv[2]![11]).toBe('plain/tag_1');
      expect(csv[3]![11]).toBe('');
    });

    it('v2 adds the evidence columns; snapshot digests match the detail record', async () => {
      const r = await exp('from=2024-02-01&to=2024-02-07&export_version=2');
      expect(r.statusCode).toBe(200);
      const csv = parseCsv(r.body);
      expect(csv[0]).toEqual([...V1, ...V2_EXTRA]);
      const line = csv[1]!;
      const detail = (await get(k.key, `/v1/transactions/${line[0]}`)).json();
      const at = (name: string) => line[csv[0]!.indexOf(name)];
      expect(at('rate_evidence_status')).toBe(detail.rate_evidence_status);
      expect(at('replay_status')).toBe('available');
      expect(at('calculation_version')).toBe('vat-calculator-half-up/v1');
      expect(at('execution_digest')).toBe(EXECUTION_DIGEST);
      expect(at('algorithm_manifest_digest')).toBe(ALGORITHM_MANIFEST_DIGEST);
      expect(at('rate_release_digest')).toBe(detail.rate_release_digest);
      expect(at('rate_window_digest')).toBe(detail.snapshot_references[1].digest);
      expect(at('snapshot_digests')).toBe(detail.snapshot_references.map((s: Json) => s.digest).join(';'));
    });

    it('filters apply to the export', async () => {
      const csv = parseCsv((await exp('from=2024-02-01&to=2024-02-07&country=AT')).body);
      expect(csv).toHaveLength(2);
      expect(csv[1]![3]).toBe('AT');
      const bySource = parseCsv((await exp('from=2024-02-01&to=2024-02-07&source_id=-abc')).body);
      expect(bySource).toHaveLength(2);
      const empty = await exp('from=2023-01-01&to=2023-01-31');
      expect(empty.statusCode).toBe(200);
      expect(parseCsv(empty.body)).toEqual([V1]);
    });

    it('the range is at most 367 days', async () => {
      expect((await exp('from=2024-01-01&to=2025-01-01')).statusCode).toBe(200); // 367 days
      const r = await exp('from=2024-01-01&to=2025-01-02'); // 368 days
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_date_range');
    });

    it.each([
      ['to=2024-02-07', 'missing_from', '"from" is required'],
      ['from=2024-02-01', 'missing_to', '"to" is required'],
      ['', 'missing_from', '"from" is required'],
    ])('missing from/to (%j) gives 400 naming the missing parameter, not a range error', async (qs, code, detail) => {
      const r = await exp(qs);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(code);
      expect(r.json().detail).toContain(detail);
    });

    it.each(['3', '0', 'x', '', '01'])('export_version=%j gives 400 invalid_export_version', async (v) => {
      const r = await exp(`from=2024-02-01&to=2024-02-07&export_version=${v}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_export_version');
    });

    it('at the row cap the download completes and ends with a truncation comment row', async () => {
      const svc = h.built.services.find((s) => s.module.name === 'calculation')!;
      const client = createClient(CalculationService, createRouterTransport(svc.routes, { router: { interceptors: [principalInterceptor(undefined)] } }));
      const headers = principalHeaders({ accountId: BigInt(k.accountId), apiKeyId: BigInt(k.id), keyKind: 'v2', scope: 'read-only' });
      const collect = async (maxRows: bigint) => {
        let text = '';
        for await (const chunk of client.exportTransactions({ filter: { from: '2024-02-01', to: '2024-02-07' }, exportVersion: 1, maxRows }, { headers })) text += chunk.csvChunk;
        return text.slice(0, -2).split('\r\n');
      };
      const lines = await collect(5n);
      expect(lines).toHaveLength(1 + 5 + 1);
      expect(lines[0]).toBe(V1.join(','));
      expect(lines[6]).toMatch(/^#.*truncat/i);
      expect(lines.slice(1, 6).map((l) => l.split(',')[0])).toEqual(rows.slice(0, 5).map((r) => r.id));
      // exactly at the cap nothing is cut, so no comment
      const exact = await collect(7n);
      expect(exact).toHaveLength(8);
      expect(exact.some((l) => l.startsWith('#'))).toBe(false);
    });
  });

  describe('aggregated', () => {
    let k: Key;
    type Made = { country: string; currency: string; tax_class_id: string; day: string; gross: bigint; net: bigint; vat: bigint };
    const made: Made[] = [];
    const add = async (over: Record<string, unknown>) => {
      const c = await calc(k.key, over);
      made.push({ country: c.country, currency: c.currency, tax_class_id: (over.tax_class_id as string) ?? 'standard', day: c.transaction_date.slice(0, 10), gross: BigInt(c.gross_amount_minor), net: BigInt(c.net_amount_minor), vat: BigInt(c.vat_amount_minor) });
    };
    const MINOR: Record<string, number> = { EUR: 2, USD: 2, JPY: 0, ALL: 2, RUB: 2 };

    /** Independent expectation: sum per (group, currency, day), convert once with the ECB rate of the day (or the previous publication). */
    function expected(groupKey: (m: Made) => string, filter: (m: Made) => boolean = () => true) {
      const buckets = new Map<string, Made[]>();
      for (const m of made.filter(filter)) {
        const b = `${groupKey(m)}|${m.currency}|${m.day}`;
        buckets.set(b, [...(buckets.get(b) ?? []), m]);
      }
      const out = new Map<string, { transaction_count: number; gross: bigint; net: bigint; vat: bigint; converted: Set<string>; unconverted: Set<string> }>();
      for (const [b, ms] of buckets) {
        const [key, cur, day] = b.split('|') as [string, string, string];
        const row = out.get(key) ?? { transaction_count: 0, gross: 0n, net: 0n, vat: 0n, converted: new Set<string>(), unconverted: new Set<string>() };
        out.set(key, row);
        const sum = (f: 'gross' | 'net' | 'vat') => ms.reduce((s, m) => s + m[f], 0n);
        let conv: ((v: bigint) => bigint) | undefined;
        if (cur === 'EUR') conv = (v) => v;
        else {
          const rate = ecbRate(cur, day);
          if (rate) conv = (v) => toEurCents(v, rate, MINOR[cur]!);
        }
        if (!conv) {
          row.unconverted.add(cur);
          continue;
        }
        if (cur !== 'EUR') row.converted.add(cur);
        row.transaction_count += ms.length;
        row.gross += conv(sum('gross'));
        row.net += conv(sum('net'));
        row.vat += conv(sum('vat'));
      }
      return [...out.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, r]) => ({
          key,
          transaction_count: r.transaction_count,
          gross_amount_minor: Number(r.gross),
          net_amount_minor: Number(r.net),
          vat_amount_minor: Number(r.vat),
          converted_currencies: [...r.converted].sort(),
          unconverted_currencies: [...r.unconverted].sort(),
        }));
    }
    const agg = async (qs: string) => {
      const r = await get(k.key, `/v1/transactions/aggregated?${qs}`);
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as Json;
    };

    beforeAll(async () => {
      k = await h.key('tx-agg', 'full');
      await add({ transaction_date: '2024-06-03', gross_amount_minor: 10000 });
      await add({ transaction_date: '2024-06-03', gross_amount_minor: 333, price_includes_vat: true });
      await add({ country: 'AT', transaction_date: '2024-07-15', gross_amount_minor: 3333, price_includes_vat: true });
      await add({ tax_class_id: 'food', transaction_date: '2024-07-16', gross_amount_minor: 1999 });
      // USD on a Saturday (rate of Friday 2024-05-31) twice, and on a Tuesday
      await add({ currency: 'USD', transaction_date: '2024-06-01T10:00:00Z', gross_amount_minor: 12345 });
      await add({ currency: 'USD', transaction_date: '2024-06-01T11:00:00Z', gross_amount_minor: 1 });
      await add({ currency: 'USD', country: 'AT', transaction_date: '2024-06-04', gross_amount_minor: 99999 });
      await add({ currency: 'JPY', transaction_date: '2024-06-04', gross_amount_minor: 123457 });
    });

    it('the shipped ECB history has the rates this suite relies on', () => {
      expect(ecbRate('USD', '2024-06-01')).toBe(ecbRate('USD', '2024-05-31'));
      expect(ecbRate('USD', '2024-06-04')).toMatch(/^\d+\.\d+$/);
      expect(ecbRate('ALL', '2024-06-04')).toBeUndefined();
      expect(ecbRate('RUB', '2024-06-04')).toBeUndefined();
      expect(ecbRate('RUB', '2021-06-04')).toMatch(/^\d+\.\d+$/);
    });

    it('group_by country sums EUR exactly and converts USD/JPY with the ECB rate of the day', async () => {
      const r = await agg('from=2024-01-01&to=2024-12-31&group_by=country');
      expect(r.group_by).toBe('country');
      expect(r.period).toEqual({ from: '2024-01-01', to: '2024-12-31' });
      expect(r.rows).toEqual(expected((m) => m.country));
      expect(r.converted_currencies).toEqual(['JPY', 'USD']);
      expect(r.unconverted_currencies).toEqual([]);
      expect(r.eur_only).toBe(false);
      expect(typeof r.disclaimer).toBe('string');
      expect(r.disclaimer.length).toBeGreaterThan(0);
      // EUR-only sanity: DE EUR rows are the plain sums of the stored amounts
      const eur = await agg('from=2024-01-01&to=2024-12-31&currency=EUR');
      const de = eur.rows.find((x: Json) => x.key === 'DE');
      const deEur = made.filter((m) => m.country === 'DE' && m.currency === 'EUR');
      expect(de).toMatchObject({
        transaction_count: deEur.length,
        gross_amount_minor: Number(deEur.reduce((s, m) => s + m.gross, 0n)),
        net_amount_minor: Number(deEur.reduce((s, m) => s + m.net, 0n)),
        vat_amount_minor: Number(deEur.reduce((s, m) => s + m.vat, 0n)),
        converted_currencies: [],
      });
      expect(eur.converted_currencies).toEqual([]);
    });

    it('a USD amount is converted with the rate of its day, independently computed', async () => {
      const r = await agg('from=2024-06-04&to=2024-06-04&currency=USD');
      const rate = ecbRate('USD', '2024-06-04')!;
      const usd = made.find((m) => m.currency === 'USD' && m.day === '2024-06-04')!;
      expect(r.rows).toEqual([
        {
          key: 'AT',
          transaction_count: 1,
          gross_amount_minor: Number(toEurCents(usd.gross, rate, 2)),
          net_amount_minor: Number(toEurCents(usd.net, rate, 2)),
          vat_amount_minor: Number(toEurCents(usd.vat, rate, 2)),
          converted_currencies: ['USD'],
          unconverted_currencies: [],
        },
      ]);
    });

    it('group_by tax_class and month', async () => {
      const t = await agg('from=2024-01-01&to=2024-12-31&group_by=tax_class');
      expect(t.group_by).toBe('tax_class');
      expect(t.rows).toEqual(expected((m) => m.tax_class_id));
      const m = await agg('from=2024-01-01&to=2024-12-31&group_by=month');
      expect(m.rows).toEqual(expected((x) => x.day.slice(0, 7)));
      expect(m.rows.map((x: Json) => x.key)).toEqual(['2024-06', '2024-07']);
    });

    it('filters: country and a date window', async () => {
      const r = await agg('from=2024-06-01&to=2024-06-03&country=DE');
      expect(r.rows).toEqual(expected((m) => m.country, (m) => m.country === 'DE' && m.day >= '2024-06-01' && m.day <= '2024-06-03'));
    });

    it('currencies the ECB does not quote are excluded and listed, with eur_only true', async () => {
      await add({ currency: 'ALL', transaction_date: '2024-08-01', gross_amount_minor: 5000 });
      await add({ currency: 'RUB', transaction_date: '2024-08-02', gross_amount_minor: 7000 });
      const r = await agg('from=2024-01-01&to=2024-12-31');
      expect(r.group_by).toBe('country');
      expect(r.unconverted_currencies).toEqual(['ALL', 'RUB']);
      expect(r.eur_only).toBe(true);
      expect(r.rows).toEqual(expected((m) => m.country));
      const de = r.rows.find((x: Json) => x.key === 'DE');
      expect(de.unconverted_currencies).toEqual(['ALL', 'RUB']);
      expect(de.transaction_count).toBe(made.filter((m) => m.country === 'DE' && m.currency !== 'ALL' && m.currency !== 'RUB').length);
    });

    it('defaults to 1 January of this year until today', async () => {
      const today = new Date().toISOString().slice(0, 10);
      await calc(k.key, { transaction_date: undefined, gross_amount_minor: 100 });
      const r = await agg('');
      expect(r.period).toEqual({ from: `${today.slice(0, 4)}-01-01`, to: today });
      expect(r.rows).toEqual([expect.objectContaining({ key: 'DE', transaction_count: 1, gross_amount_minor: 119 })]);
    });

    it.each([
      ['group_by=day', 'invalid_group_by'],
      ['group_by=', 'invalid_group_by'],
      ['from=2024-13-01', 'invalid_date'],
      ['from=2024-06-02&to=2024-06-01', 'invalid_date_range'],
      ['country=EL', 'invalid_country'],
      ['tax_class_id=standard', 'unknown_parameter'],
    ])('%s gives 400 %s', async (qs, code) => {
      const r = await get(k.key, `/v1/transactions/aggregated?${qs}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(code);
    });
  });
});
