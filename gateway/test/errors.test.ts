import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';

const backends = await requireBackends(['postgres']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CALC = { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true };

/**
 * Every error body is exactly `{ error, detail }` plus the documented extras: `retry_after_seconds`
 * on 429 `rate_limited`, and on a v1 calculation 422 the `guidance` towards `/v2/vat/calculate`.
 */
function expectErrorShape(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status?: number, code?: string) {
  if (status !== undefined) expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(typeof body.error).toBe('string');
  expect(body.error).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(typeof body.detail).toBe('string');
  expect((body.detail as string).length).toBeGreaterThan(0);
  const extras = Object.keys(body).filter((k) => k !== 'error' && k !== 'detail').sort();
  if (body.error === 'rate_limited') expect(extras).toEqual(['retry_after_seconds']);
  else if (res.statusCode === 422 && extras.length > 0) {
    expect(extras).toEqual(['guidance']);
    expect(body.guidance).toBe('/v2/vat/calculate');
  } else expect(extras, res.body).toEqual([]);
  if (code !== undefined) expect(body.error).toBe(code);
  return body;
}

describe.skipIf(!backends.ok)('gateway error answers', () => {
  let h: Harness;
  let full: string;
  beforeAll(async () => {
    h = await startHarness();
    full = (await h.key('errors-acct', 'full')).key;
  });
  afterAll(async () => h?.close());

  const json = (url: string, payload: string, extra: Record<string, string> = {}, method: 'POST' | 'PATCH' = 'POST') =>
    h.inject({ method, url, headers: { 'x-api-key': full, 'content-type': 'application/json', ...extra }, payload });

  describe('request bodies', () => {
    it.each([
      ['POST /v1/vat/calculate', '/v1/vat/calculate', 'POST'],
      ['POST /v1/vat/sme-eligibility', '/v1/vat/sme-eligibility', 'POST'],
      ['POST /v1/sources', '/v1/sources', 'POST'],
      ['PATCH /v1/sources/1', '/v1/sources/1', 'PATCH'],
      ['POST /v1/tax-class/resolve', '/v1/tax-class/resolve', 'POST'],
    ] as const)('%s with malformed JSON answers 400 invalid_json', async (_n, url, method) => {
      for (const payload of ['{', '{"country": "DE",}', "{'a':1}", 'undefined', '{"a":1}{"b":2}', '\u0000']) {
        expectErrorShape(await json(url, payload, {}, method), 400, 'invalid_json');
      }
    });

    it('answers an empty JSON body with 400 invalid_json', async () => {
      expectErrorShape(await json('/v1/vat/calculate', ''), 400, 'invalid_json');
      expectErrorShape(await json('/v1/vat/sme-eligibility', ''), 400, 'invalid_json');
    });

    it('answers a body over the 65536-byte default limit with 413 payload_too_large', async () => {
      const big = JSON.stringify({ ...CALC, tax_class_id: 'x'.repeat(65536) });
      const res = await json('/v1/vat/calculate', big);
      const body = expectErrorShape(res, 413, 'payload_too_large');
      expect(body.detail).toContain('65536');
      expectErrorShape(await h.inject({ method: 'POST', url: '/v1/vat/sme-eligibility', headers: { 'content-type': 'application/json' }, payload: big }), 413, 'payload_too_large');
    });

    it('accepts a body just under the limit (the limit is not lower than configured)', async () => {
      const pad = 65536 - JSON.stringify({ ...CALC, tax_class_id: '' }).length - 100;
      const res = await json('/v1/vat/calculate', JSON.stringify({ ...CALC, tax_class_id: 'y'.repeat(pad) }));
      // Parsed and validated (too long for a class id), not refused for size.
      expectErrorShape(res, 400, 'unknown_tax_class');
    });

    it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'text/json'])(
      'answers a %s body with 415 unsupported_media_type',
      async (ct) => {
        for (const url of ['/v1/vat/calculate', '/v1/vat/sme-eligibility']) {
          const res = await h.inject({ method: 'POST', url, headers: { 'x-api-key': full, 'content-type': ct }, payload: JSON.stringify(CALC) });
          expectErrorShape(res, 415, 'unsupported_media_type');
        }
      },
    );

    it('accepts application/json with a charset parameter', async () => {
      const res = await h.inject({ method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': full, 'content-type': 'application/json; charset=utf-8' }, payload: JSON.stringify(CALC) });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('routing', () => {
    it.each([
      ['GET', '/nope'],
      ['GET', '/v1'],
      ['GET', '/v1/transaction'],
      ['POST', '/v1/tax-classes'],
      ['DELETE', '/v1/sources/1'],
      ['GET', '/v1/tax-classes/standard/extra'],
      ['GET', '/V1/TAX-CLASSES'],
      ['GET', '/v1/sources/1'],
      ['PUT', '/v1/sources/1'],
    ] as const)('%s %s answers 404 not_found', async (method, url) => {
      const res = await h.inject({ method, url });
      const body = expectErrorShape(res, 404, 'not_found');
      expect(body.detail).not.toContain('?');
    });

    it('answers an unknown route the same with or without a key (no auth oracle)', async () => {
      const a = await h.inject({ method: 'GET', url: '/v1/secret-thing' });
      const b = await h.inject({ method: 'GET', url: '/v1/secret-thing', headers: { 'x-api-key': 'garbage' } });
      expect(a.statusCode).toBe(404);
      expect(b.json()).toEqual(a.json());
    });
  });

  describe('x-request-id', () => {
    it('echoes a well-formed X-Request-ID on success and on errors', async () => {
      for (const req of [
        { method: 'GET', url: '/health' },
        { method: 'GET', url: '/nope' },
        { method: 'GET', url: '/v1/transactions' },
        { method: 'POST', url: '/v1/vat/sme-eligibility', headers: { 'content-type': 'application/json' }, payload: '{' },
        { method: 'POST', url: '/v1/vat/sme-eligibility', headers: { 'content-type': 'text/csv' }, payload: 'a,b' },
      ] as InjectOptions[]) {
        const id = `req-${Math.random().toString(36).slice(2)}.A_1`;
        const res = await h.inject({ ...req, headers: { ...(req.headers ?? {}), 'x-request-id': id } });
        expect(res.headers['x-request-id'], `${req.method} ${req.url}`).toBe(id);
      }
    });

    it('generates a UUID when the header is absent or not acceptable', async () => {
      const seen = new Set<string>();
      for (const given of [undefined, '', 'has space', 'a'.repeat(101), 'semi;colon', 'ünïcode']) {
        const res = await h.inject({ method: 'GET', url: '/health', headers: given === undefined ? {} : { 'x-request-id': given } });
        const id = String(res.headers['x-request-id']);
        expect(id, `given ${given}`).toMatch(UUID);
        seen.add(id);
      }
      expect(seen.size).toBe(6);
    });

    it('accepts the longest allowed id (100 characters)', async () => {
      const id = 'a'.repeat(100);
      expect((await h.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': id } })).headers['x-request-id']).toBe(id);
    });
  });

  describe('error body shape', () => {
    it('every error answer is exactly { error, detail }', async () => {
      const reqs: InjectOptions[] = [
        { method: 'GET', url: '/v1/transactions' },
        { method: 'GET', url: '/v1/transactions', headers: { 'x-api-key': 'vat_0123456789abcdef_' + 'x'.repeat(43) } },
        { method: 'GET', url: '/v1/transactions?limit=0', headers: { 'x-api-key': full } },
        { method: 'GET', url: '/v1/transactions?bogus=1', headers: { 'x-api-key': full } },
        { method: 'GET', url: '/v1/transactions/not-a-uuid', headers: { 'x-api-key': full } },
        { method: 'GET', url: '/v1/transactions/00000000-0000-4000-8000-000000000000', headers: { 'x-api-key': full } },
        { method: 'POST', url: '/v1/transactions/nope/replay', headers: { 'x-api-key': full } },
        { method: 'GET', url: '/v1/transactions/export?from=2024-01-01&to=2024-01-02&export_version=3', headers: { 'x-api-key': full } },
        { method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': full }, payload: { ...CALC, price_includes_vat: null } },
        { method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': full }, payload: { ...CALC, extra: 1 } },
        { method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': full, 'x-source-id': 'bad id' }, payload: CALC },
        { method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': full, 'idempotency-key': 'k1' }, payload: CALC },
        { method: 'POST', url: '/v1/vat/sme-eligibility', payload: { country: 'GR', currency: 'EUR', annual_turnover_nac: 1 } },
        { method: 'POST', url: '/v1/vat/sme-eligibility', payload: { country: 'LT', currency: 'EUR', annual_turnover_nac: 1, reference_date: '2020-01-01' } },
        { method: 'GET', url: '/v1/tax-classes/nope' },
        { method: 'GET', url: '/v1/tax-classes?q=' + 'q'.repeat(121) },
        { method: 'GET', url: '/v1/classification-codes/cn/01012100' },
        { method: 'PATCH', url: '/v1/sources/1', headers: { 'x-api-key': full }, payload: { source_key: 'x' } },
      ];
      for (const r of reqs) {
        const res = await h.inject(r);
        expect(res.statusCode, `${r.method} ${r.url}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBeLessThan(500);
        expectErrorShape(res);
      }
    });
  });

  describe('control characters in strings', () => {
    // PostgreSQL text cannot hold U+0000; a NUL that reaches a query must be refused as bad input, not a 500.
    it.each([
      ['POST', '/v1/sources', { source_key: 'nul-1', display_name: 'Shop\u0000', channel_type: 'pos' }],
      ['POST', '/v1/sources', { source_key: 'nul-2', display_name: 'Shop', channel_type: 'pos', platform: 'Shopify\u0000' }],
      ['POST', '/v1/vat/calculate', { ...CALC, tax_class_id: 'standard\u0000' }],
      ['POST', '/v1/vat/calculate', { ...CALC, transaction_date: '2024-06-01\u0000' }],
      ['POST', '/v1/vat/sme-eligibility', { country: 'DE\u0000', currency: 'EUR', annual_turnover_nac: 1 }],
    ] as const)('%s %s with a NUL byte in a string answers 400, not 5xx', async (method, url, payload) => {
      const res = await h.inject({ method, url, headers: { 'x-api-key': full }, payload });
      expectErrorShape(res, 400);
    });

    it('PATCH /v1/sources/{id} with a NUL byte in display_name answers 400, not 5xx', async () => {
      const created = await h.inject({ method: 'POST', url: '/v1/sources', headers: { 'x-api-key': full }, payload: { source_key: 'nul-patch', display_name: 'Shop', channel_type: 'pos' } });
      expect(created.statusCode, created.body).toBe(201);
      const res = await h.inject({ method: 'PATCH', url: `/v1/sources/${created.json().id}`, headers: { 'x-api-key': full }, payload: { display_name: 'Renamed\u0000' } });
      expectErrorShape(res, 400);
    });
  });

  describe('no 5xx for any input (property)', () => {
    const RUNS = Number(process.env.GATEWAY_FC_RUNS ?? 60);
    // Strings that reach the services: printable, unicode, control characters and NUL included.
    const awkward = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '/', '\u0000', '\u0007', '\n', 'é', '\u2028', '\ud83d\ude00', '\ufffd'), maxLength: 12 });
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), awkward, fc.constantFrom('', ' ', '\u0000', 'DE', 'EUR', 'standard', '2024-06-01', '2024-02-30', '9999-12-31T23:59:59Z', '0000-01-01'));
    const anyValue = fc.oneof(fc.jsonValue(), text, fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e15, 1e16, 2 ** 53, -0, null, true, false));
    /** Mostly a plausible value, sometimes anything: one bad field at a time gets past the others. */
    const field = <T,>(plausible: fc.Arbitrary<T>) => fc.oneof({ arbitrary: plausible, weight: 3 }, { arbitrary: anyValue, weight: 1 });
    /** Random JSON (any top-level type), or an object of the endpoint's fields, each present or not. */
    const bodyOf = (model: Record<string, fc.Arbitrary<unknown>>, fixed: Record<string, unknown> = {}) =>
      fc.oneof(
        { arbitrary: fc.jsonValue(), weight: 1 },
        { arbitrary: fc.record(model, { requiredKeys: [] }).map((o) => ({ ...fixed, ...o })), weight: 4 },
        { arbitrary: fc.tuple(fc.record(model, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 2 })).map(([o, extra]) => ({ ...extra, ...o })), weight: 1 },
      );
    const dates = fc.oneof(
      fc.constantFrom('2019-01-01', '2020-08-01', '2024-06-01', '2025-12-31', '2026-01-01', '1900-01-01', '1899-12-31', '9999-12-31', '2024-06-01T12:00:00Z', '2024-06-01T23:30:00-02:00', '2024-06-01T00:00:00.123456789Z'),
      fc.date({ min: new Date('1800-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.date({ min: new Date('1800-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    );
    const countries = fc.constantFrom('DE', 'FR', 'GR', 'EL', 'BG', 'HR', 'ES', 'SE', 'XX', 'de', 'US', '');
    const currencies = fc.constantFrom('EUR', 'BGN', 'HRK', 'SEK', 'HUF', 'USD', 'XXX', 'eur', '');

    async function check(method: 'POST' | 'PATCH', url: string, body: unknown, headers: Record<string, string> = {}) {
      const res = await h.inject({ method, url, headers: { 'x-api-key': full, 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) ?? 'null' });
      if (res.statusCode >= 500) throw new Error(`${method} ${url} ${JSON.stringify(body)} -> ${res.statusCode} ${res.body}`);
      if (res.statusCode >= 400) expectErrorShape(res);
    }

    it('POST /v1/vat/calculate', async () => {
      const body = bodyOf(
        {
          country: field(countries),
          currency: field(currencies),
          tax_class_id: field(fc.oneof(fc.constantFrom('standard', 'food', 'books', 'electricity', 'zero', ''), awkward)),
          gross_amount_minor: field(fc.oneof(fc.integer({ min: 0, max: 1e15 }), fc.constantFrom(0, 1, 1e15))),
          price_includes_vat: field(fc.boolean()),
          transaction_date: field(dates),
        },
        CALC,
      );
      const source = fc.option(fc.oneof(fc.constantFrom('shop/1', 'a'.repeat(100)), fc.stringMatching(/^[A-Za-z0-9_\-/]{1,100}$/), awkward), { nil: undefined });
      await fc.assert(fc.asyncProperty(body, source, async (b, s) => check('POST', '/v1/vat/calculate', b, s === undefined ? {} : { 'x-source-id': s.replace(/[^\x20-\x7e]/g, '') })), { numRuns: RUNS });
    });

    it('POST /v1/vat/sme-eligibility', async () => {
      const body = bodyOf({
        country: field(countries),
        currency: field(currencies),
        annual_turnover_nac: field(fc.oneof(fc.integer({ min: 0 }), fc.maxSafeNat(), fc.constantFrom(0, 5_113_000, 5_113_001, 10_000_000, Number.MAX_SAFE_INTEGER))),
        reference_date: field(dates),
      });
      await fc.assert(fc.asyncProperty(body, async (b) => check('POST', '/v1/vat/sme-eligibility', b)), { numRuns: RUNS });
    });

    const optionalText = fc.oneof(fc.constantFrom('', null, 'Shopify'), awkward);
    const sourceModel = {
      display_name: field(fc.oneof(fc.constantFrom('Shop', 'x'.repeat(200), 'x'.repeat(201), ' ', ''), awkward)),
      channel_type: field(fc.constantFrom('owned_store', 'marketplace', 'subscription', 'pos', 'wholesale', 'test', 'other', 'POS', null)),
      platform: field(optionalText),
      default_country: field(fc.oneof(countries, fc.constant(null))),
      default_currency: field(fc.oneof(currencies, fc.constant(null))),
      supplier_establishment_country: field(fc.oneof(countries, fc.constant(null))),
      dispatch_country: field(fc.oneof(countries, fc.constant(null))),
      marketplace_deemed_supplier: field(fc.oneof(fc.boolean(), fc.constant(null))),
      active: field(fc.oneof(fc.boolean(), fc.constant(null))),
    };

    it('POST /v1/sources', async () => {
      let n = 0;
      const key = fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_\-/]{1,100}$/), awkward, anyValue), weight: 1 });
      const body = fc.tuple(bodyOf(sourceModel, { display_name: 'Shop', channel_type: 'pos' }), key).map(([b, k]) =>
        b !== null && typeof b === 'object' && !Array.isArray(b) ? { source_key: k === undefined ? `fc-${n++}` : k, ...b } : b,
      );
      await fc.assert(fc.asyncProperty(body, async (b) => check('POST', '/v1/sources', b)), { numRuns: RUNS });
    });

    it('PATCH /v1/sources/1 (and an existing profile of the account)', async () => {
      const created = await h.inject({ method: 'POST', url: '/v1/sources', headers: { 'x-api-key': full }, payload: { source_key: 'patch-target', display_name: 'Target', channel_type: 'test' } });
      expect(created.statusCode, created.body).toBe(201);
      const ids = ['1', String(created.json().id)];
      const body = bodyOf({ ...sourceModel, source_key: fc.constantFrom('patch-target', 'other') });
      await fc.assert(fc.asyncProperty(body, fc.constantFrom(...ids), async (b, id) => check('PATCH', `/v1/sources/${id}`, b)), { numRuns: RUNS });
    });

    const queryValue = fc.oneof(text, fc.constantFrom('DE', 'GR', 'EUR', 'standard', 'true', 'false', '0', '500', '501', '2024-01-01', '2024-13-45', '1900-01-01', '9999-12-31'));
    const rawQuery = fc.stringMatching(/^[A-Za-z0-9=&%_.~+\-[\]]{0,40}$/);
    async function checkQuery(path: string, params: string[], q: { kind: 'params'; entries: [string, string][] } | { kind: 'raw'; raw: string }) {
      const qs = q.kind === 'raw' ? q.raw : new URLSearchParams(q.entries).toString();
      const url = qs ? `${path}?${qs}` : path;
      const res = await h.inject({ method: 'GET', url, headers: { 'x-api-key': full } });
      if (res.statusCode >= 500) throw new Error(`GET ${url} -> ${res.statusCode} ${res.body}`);
      if (res.statusCode >= 400) expectErrorShape(res);
      void params;
    }
    const queryOf = (params: string[]) =>
      fc.oneof(
        { arbitrary: fc.array(fc.tuple(fc.oneof({ arbitrary: fc.constantFrom(...params), weight: 4 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 }), queryValue), { maxLength: 5 }).map((entries) => ({ kind: 'params' as const, entries })), weight: 4 },
        { arbitrary: rawQuery.map((raw) => ({ kind: 'raw' as const, raw })), weight: 1 },
      );

    it.each([
      ['/v1/transactions', ['from', 'to', 'country', 'currency', 'tax_class_id', 'source_id', 'api_key_id', 'cursor', 'limit']],
      ['/v1/tax-classes', ['q', 'group', 'tag', 'country', 'at']],
      ['/v1/vat/rates', ['country', 'tax_class_id', 'at', 'history']],
    ] as const)('GET %s with random query strings', async (path, params) => {
      await fc.assert(fc.asyncProperty(queryOf([...params]), async (q) => checkQuery(path, [...params], q)), { numRuns: RUNS });
    });
  });
});

describe.skipIf(!backends.ok)('gateway limits from configuration', () => {
  let h: Harness;
  let full: string;
  beforeAll(async () => {
    h = await startHarness({ env: { BODY_LIMIT_BYTES: '2048', RATE_LIMIT_PER_MINUTE: '3' } });
    full = (await h.key('limits-acct', 'full')).key;
  });
  afterAll(async () => h?.close());

  it('applies BODY_LIMIT_BYTES to every JSON route', async () => {
    const big = JSON.stringify({ country: 'DE', pad: 'x'.repeat(2100) });
    const res = await h.inject({ method: 'POST', url: '/v1/vat/sme-eligibility', headers: { 'content-type': 'application/json' }, payload: big });
    const body = expectErrorShape(res, 413, 'payload_too_large');
    expect(body.detail).toContain('2048');
  });

  it('answers over the per-key quota with 429 rate_limited, retry_after_seconds and the same Retry-After header', async () => {
    const statuses: number[] = [];
    let limited;
    // Fixed one-minute windows: with 8 requests at most one boundary can fall inside the loop, and
    // either window then sees more than 3.
    for (let i = 0; i < 8; i++) {
      const res = await h.inject({ method: 'GET', url: '/v1/transactions', headers: { 'x-api-key': full } });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) limited = res;
    }
    expect(limited, statuses.join(',')).toBeDefined();
    const body = expectErrorShape(limited!, 429, 'rate_limited');
    expect(Number.isInteger(body.retry_after_seconds)).toBe(true);
    expect(body.retry_after_seconds as number).toBeGreaterThanOrEqual(1);
    expect(body.retry_after_seconds as number).toBeLessThanOrEqual(60);
    expect(limited!.headers['retry-after']).toBe(String(body.retry_after_seconds));
  });
});
