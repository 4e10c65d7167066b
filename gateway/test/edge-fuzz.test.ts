import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import pg from 'pg';
import type { RouteDef } from '../src/route';
import { documentedCodes, propsOf, queryReadBy, rawRequest, startEdgeServer, STUBBED_TABLE, TABLE, urlOf, type Answer, type EdgeServer } from './edge-support';

const backends = await requireBackends(['postgres']);
const RUNS = Number(process.env.GATEWAY_FC_RUNS ?? 150);

/** Every status the documentation (README and docs/) names; no 5xx may come from any input. */
const STATUSES = new Set([200, 201, 302, 400, 401, 403, 404, 405, 408, 409, 413, 414, 415, 417, 422, 429, 431]);
const CODES = documentedCodes();

/** An answer is a documented status; an error has the `{ error, detail }` body with a documented code. */
function checkAnswer(what: string, res: Answer, head: boolean): void {
  expect(STATUSES.has(res.statusCode), `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBe(true);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  // A C1 control character is never accepted or stored, so no success ever carries one.
  if (res.statusCode < 400) expect(/[\u0080-\u009f]/.test(res.body), `${what} -> ${res.body.slice(0, 300)}`).toBe(false);
  if (res.statusCode < 400 || head) return;
  expect(String(res.headers['content-type']), what).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(typeof body.detail, `${what} -> ${res.body}`).toBe('string');
  expect(CODES.has(String(body.error)), `${what} -> undocumented code ${res.body}`).toBe(true);
  // The documented extras: retry_after_seconds on rate_limited, guidance on a 422, the blocking registrations of a
  // Union OSS eligibility refusal, per-item errors of a batch, the last day of a quarter not ended.
  const extras = Object.keys(body).filter((k) => k !== 'error' && k !== 'detail');
  const blocking = (k: string) => k === 'blocking_registration_ids' && res.statusCode === 422 && ['registration_required', 'registration_conflict'].includes(String(body.error)) && Array.isArray(body[k]);
  // A quarter that has not ended names its last day (docs/filing-edges.md).
  const notEnded = (k: string) => k === 'period_end' && res.statusCode === 409 && body.error === 'period_not_ended' && /^\d{4}-\d{2}-\d{2}$/.test(String(body[k]));
  const allowed = (k: string) => (k === 'retry_after_seconds' && body.error === 'rate_limited') || (k === 'guidance' && res.statusCode === 422) || (k === 'errors' && Array.isArray(body.errors)) || blocking(k) || notEnded(k);
  expect(extras.every(allowed), `${what} -> ${res.body}`).toBe(true);
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/**
 * Inputs some routes once got wrong: C1 control characters (U+0080–U+009F, NEL and CSI among them) are
 * control characters like C0 and DEL; 9999-Q4 is past the last quarter served (9999-Q3); tax class ids
 * that look plausible but are not classes; status and state, one route's filter and not another's.
 */
const C1_STRINGS = ['a\u0085b', '\u009b', 'x\u0080', '\u009f', 'sku\u0085'];
const TAX_CLASS_LOOKALIKES = ['no_such_thing', 'de', 'null'];
const EDGE_STRINGS = [...C1_STRINGS, ...TAX_CLASS_LOOKALIKES, '9999-Q4', '9999-Q3', 'a\u0000b', 'a\u007fb'];
const EDGE_QUERY_NAMES = ['status', 'state'];
const PATHS = [...new Set([...TABLE.map((d) => urlOf(d)), '/', '/docs', '/docs/', '/docs/json', '/openapi.json', '/nope', '/v1/tax-classes/standard', '/v1/transactions/00000000-0000-4000-8000-000000000000'])];

/** A path segment that breaks something: encoding, length, control characters, raw bytes, unicode. */
const badSegment = fc.oneof(
  fc.constantFrom('%zz', '%', '%4', '%c3%28', '%e2%82', '%ed%a0%80', '%00', '%0a', '%0d%0a', '%7f', '%c2%85', '%e2%80%a8', '%F0%9F%98%80', '..', '%2e%2e', '', '%2F', ';', '*'),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map(encodeURIComponent),
  fc.integer({ min: 400, max: 20_000 }).map((n) => 'a'.repeat(n)),
  fc.uint8Array({ minLength: 1, maxLength: 6 }).map(latin1),
);

const queryName = fc.oneof(
  { arbitrary: fc.constantFrom(...new Set(TABLE.flatMap((d) => Object.keys(propsOf(d.schema?.querystring))))), weight: 8 },
  { arbitrary: fc.constantFrom('api_key', 'key', 'x', '__proto__', 'constructor', ...EDGE_QUERY_NAMES), weight: 1 },
  { arbitrary: fc.string({ maxLength: 6 }).map(encodeURIComponent), weight: 1 },
);
const queryValue = fc.oneof(fc.constantFrom('DE', 'EUR', '2024-01-01', '1', '500', 'true', ''), fc.constantFrom(...EDGE_STRINGS).map(encodeURIComponent), fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent), badSegment);
/** A JSON value for a body field: any JSON, or one of the edge strings. */
const fieldValue = fc.oneof({ arbitrary: fc.jsonValue({ maxDepth: 1 }), weight: 3 }, { arbitrary: fc.constantFrom(...EDGE_STRINGS), weight: 1 });
const query = fc.oneof(
  fc.constant(''),
  fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 }).map((kv) => `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}`),
  fc.integer({ min: 8_000, max: 20_000 }).map((n) => `?q=${'q'.repeat(n)}`),
  fc.stringMatching(/^[?][A-Za-z0-9=&%_.~+\-[\]]{0,30}$/),
);
const target = fc.oneof(
  { arbitrary: fc.tuple(fc.constantFrom(...PATHS), query).map(([p, q]) => p + q), weight: 2 },
  { arbitrary: fc.tuple(fc.constantFrom(...PATHS), badSegment, query).map(([p, s, q]) => `${p.replace(/[^/]*$/, '')}${s}${q}`), weight: 3 },
  { arbitrary: fc.constantFrom('*', 'http://localhost/health', 'example.com:443', ''), weight: 1 },
);
const method = fc.oneof(
  { arbitrary: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT'), weight: 8 },
  { arbitrary: fc.constantFrom('get', 'PRI', 'PROPFIND', 'FOO', ''), weight: 1 },
  { arbitrary: fc.string({ maxLength: 5 }), weight: 1 },
);

/** JSON-ish bodies: any JSON, duplicated keys, invalid UTF-8, random bytes. */
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.tuple(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), fc.jsonValue({ maxDepth: 1 })).map(([k, a, b]) => Buffer.from(`{"x":{${JSON.stringify(k)}:${JSON.stringify(a)},${JSON.stringify(k)}:${JSON.stringify(b)}}}`)),
  fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom([0xff], [0xc3, 0x28], [0x80], [0xed, 0xa0, 0x80])).map(([v, bad]) => Buffer.concat([Buffer.from(`{"s":"`), Buffer.from(bad), Buffer.from(`","v":${JSON.stringify(v)}}`)])),
  fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
);

/** A route's body fields: its schema's properties, or those of each form it takes (one event or a batch). */
function bodyFieldsOf(def: RouteDef): string[] {
  const schema = def.schema?.body as { properties?: object; oneOf?: { properties?: object }[] } | undefined;
  return [...new Set([schema, ...(schema?.oneOf ?? [])].flatMap((s) => Object.keys(s?.properties ?? {})))];
}

const header = (name: string, values: fc.Arbitrary<string>) => fc.option(values.map((v) => `${name}: ${v}\r\n`), { nil: '' });

describe.skipIf(!backends.ok)('gateway fuzz: every answer is documented, never a 5xx, never silence', () => {
  let server: EdgeServer;
  beforeAll(async () => {
    server = await startEdgeServer({ RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => server?.close());

  it('raw HTTP/1.1 requests: malformed URLs, oversize paths and queries, control characters, odd methods and headers, bad bodies', async () => {
    const request = fc.record({
      method,
      target,
      version: fc.oneof({ arbitrary: fc.constant('HTTP/1.1'), weight: 8 }, { arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', ''), weight: 1 }),
      host: fc.option(fc.constantFrom('localhost', 'x', ''), { nil: undefined, freq: 8 }),
      headers: fc.tuple(
        header('Expect', fc.constantFrom('100-continue', 'bogus', '')),
        header('Content-Type', fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', '', 'application/json;;', 'multipart/form-data; boundary=x')),
        header('X-API-Key', fc.constantFrom('KEY', 'garbage', '', 'vat_0123456789abcdef_' + 'x'.repeat(43))),
        header('X-Pad', fc.integer({ min: 0, max: 20_000 }).map((n) => 'p'.repeat(n))),
        header('Transfer-Encoding', fc.constantFrom('bogus', 'gzip', 'identity', 'chunked, gzip')),
        header('X-Request-ID', fc.string({ maxLength: 8 }).filter((s) => !/[\r\n]/.test(s))),
      ),
      body: fc.option(body, { nil: undefined }),
      chunked: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers = r.headers.join('').replace('KEY', server.key);
        // A body is framed so the server can tell where it ends (a body shorter than its
        // Content-Length would, correctly, be waited for).
        const framed = r.body === undefined || /Transfer-Encoding/.test(headers) ? '' : r.chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${r.body.length}\r\n`;
        const payload = r.body === undefined || framed === '' ? Buffer.alloc(0) : r.chunked ? Buffer.concat([Buffer.from(`${r.body.length.toString(16)}\r\n`), r.body, Buffer.from('\r\n0\r\n\r\n')]) : r.body;
        const head = `${r.method} ${r.target} ${r.version}\r\n${r.host === undefined ? '' : `Host: ${r.host}\r\n`}${headers}${framed}Connection: close\r\n\r\n`;
        const what = JSON.stringify(head.slice(0, 300));
        const res = await rawRequest(server.port, Buffer.concat([Buffer.from(head, 'latin1'), payload]), { head: r.method === 'HEAD' });
        checkAnswer(what, res, r.method === 'HEAD');
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('random JSON bodies, queries and methods on every route of the table', async () => {
    const call = fc.record({
      def: fc.constantFrom(...TABLE),
      method: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS') as fc.Arbitrary<InjectOptions['method']>, weight: 1 }),
      fields: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      known: fc.array(fc.tuple(fc.nat(), fieldValue), { maxLength: 4 }),
      raw: fc.option(body, { nil: undefined }),
      query: fc.oneof(fc.constant<[string, string][]>([]), fc.array(fc.tuple(queryName, queryValue), { maxLength: 3 })),
      key: fc.constantFrom<'full' | 'none' | 'bad'>('full', 'full', 'full', 'none', 'bad'),
      sourceId: fc.option(fc.oneof(fc.constantFrom('shop/1', ''), fc.string({ maxLength: 8 }).filter((s) => /^[\x20-\x7e]*$/.test(s))), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        const names = bodyFieldsOf(c.def);
        const json: Record<string, unknown> = { ...c.fields };
        for (const [i, v] of c.known) if (names.length) json[names[i % names.length]!] = v;
        const payload = c.raw ?? Buffer.from(JSON.stringify(json));
        const method = c.method ?? c.def.method;
        const url = `${urlOf(c.def)}${c.query.length ? `?${c.query.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (c.key !== 'none') headers['x-api-key'] = c.key === 'full' ? server.key : 'vat_0123456789abcdef_' + 'y'.repeat(43);
        if (c.sourceId !== undefined) headers['x-source-id'] = c.sourceId;
        const res = await server.built.gateway!.app.inject({ method, url, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { payload }) });
        checkAnswer(`${method} ${url} ${payload.toString('latin1').slice(0, 200)}`, { statusCode: res.statusCode, headers: res.headers as Record<string, string>, body: res.body }, method === 'HEAD');
      }),
      { numRuns: RUNS * 2 },
    );
  }, 120_000);

  describe('every operation, the inputs that once slipped through: C1 control characters, 9999-Q4, tax class look-alikes, status/state', () => {
    let integration: string;
    let db: pg.Pool;
    const SAMPLE_EVENT = {
      event_id: 'edge-1', event_type: 'sale', occurred_at: '2026-02-10', supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: 'DE', dispatch_country: 'FR',
      supplier_establishment_country: 'FR', currency: 'EUR', net_amount_minor: 10000, vat_amount_minor: 1900, vat_rate_bps: 1900, rate_category: 'standard',
      classification_status: 'classified', tax_class_id: 'standard', product_reference: 'sku-1', variant_reference: 'blue', order_reference: 'order-1', source_id: 'shop/1',
      calculation_id: '01900000-0000-7000-8000-000000000001',
    };
    const REGISTRATION = { member_state_identification: 'DE', vat_registration_number: 'IM2760000001', ioss_intermediary_name: 'Agent', ioss_intermediary_number: 'IN2760000001', effective_from: '2025-01-01', effective_to: '2025-12-31', status: 'ended' };
    const SOURCE = { display_name: 'Edge shop', channel_type: 'owned_store', platform: 'Shopify', default_country: 'DE', default_currency: 'EUR', supplier_establishment_country: 'DE', dispatch_country: 'DE', marketplace_deemed_supplier: false, active: true };
    /** A well-formed request body (and headers) for every route that takes a body; each of its strings is spoiled in turn below. */
    const SAMPLES: Record<string, { body: unknown; headers?: Record<string, string> }> = {
      'POST /v1/vat/sme-eligibility': { body: { country: 'DE', annual_turnover_nac: 1000, currency: 'EUR', reference_date: '2025-01-01' } },
      'POST /v1/tax-class/resolve': { body: { scheme: 'cn', exact_code: '01012100', catalog_version: '2022', jurisdiction: 'DE', legal_date: '2022-06-01' } },
      'POST /v1/integrations/:integration_id/product-code-assignments': { body: { scheme: 'cn', exact_code: '01012100', product_reference: 'sku-1', variant_reference: 'blue', requested_valid_from: '2022-03-01', attestation: { statement: 'Sold since 2022.', attested_by: 'Jane Doe' } } },
      'POST /v1/classification/correction-reviews/:id/resolve': { body: { action: 'dismiss', note: 'checked' } },
      'POST /v1/vat/calculate': { body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2025-03-01' } },
      'POST /v2/vat/calculate': {
        body: { country: 'DE', currency: 'EUR', amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-03-01', tax_class_id: 'standard', classification: { scheme: 'cn', code: '01012100', catalog_version: '2022' }, treatment_context: { customer_type: 'b2c', supplier_establishment_country: 'DE', dispatch_country: 'DE', destination_country: 'DE' }, supersedes_decision_id: '01900000-0000-7000-8000-000000000002' },
        headers: { 'idempotency-key': 'edge-sweep' },
      },
      'POST /v1/sources': { body: { source_key: 'shop/edge', ...SOURCE } },
      'PATCH /v1/sources/:id': { body: SOURCE },
      'POST /v1/tax-registrations': { body: { scheme_type: 'ioss', ...REGISTRATION } },
      'PATCH /v1/tax-registrations/:id': { body: REGISTRATION },
      'POST /v1/supply-events': { body: { events: [SAMPLE_EVENT, { ...SAMPLE_EVENT, event_id: 'edge-2' }] } },
      'POST /v1/sessions': { body: { api_key: `vat_0000000000000000_${'A'.repeat(43)}` } },
      'POST /v1/vat/threshold-check': { body: { threshold_type: 'ioss', from: '2025-01-01', to: '2025-12-31', amount_minor: 1000 } },
      // A wrong check digit: answered offline (format_invalid), VIES is never asked.
      'POST /v1/vat-numbers/check': { body: { vat_number: 'DE136695977' } },
      // The sweep's quarter (REQUIRED_QUERY) is never locked: a well-formed filing would be 409 period_not_locked.
      'POST /v1/reports/locked-return-periods/union-oss/filed': { body: { submission_reference: 'OSS-DE-2025-Q3-0001', filed_on: '2025-10-20', note: 'Submitted in the portal' } },
    };
    /** Good values for the query parameters a route requires, so that only the spoiled one is wrong. */
    const REQUIRED_QUERY: Record<string, string> = { period: '2025-Q3', format: 'json', from: '2025-01-01', to: '2025-01-31' };
    const keyOf = (def: RouteDef) => `${def.method} ${def.url}`;
    type Path = (string | number)[];
    const stringLeaves = (v: unknown, at: Path = []): Path[] =>
      typeof v === 'string' ? [at] : Array.isArray(v) ? v.flatMap((x, i) => stringLeaves(x, [...at, i])) : v !== null && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => stringLeaves(x, [...at, k])) : [];
    const spoiled = (v: unknown, at: Path, value: string): unknown => {
      const copy = structuredClone(v) as Record<string | number, unknown>;
      let o = copy;
      for (const k of at.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
      o[at.at(-1)!] = value;
      return copy;
    };
    const send = async (def: RouteDef, query: Record<string, string>, opts: { params?: Record<string, string>; body?: unknown } = {}) => {
      const qs = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const url = `${urlOf(def, { integration_id: integration, ...opts.params })}${qs ? `?${qs}` : ''}`;
      const sample = SAMPLES[keyOf(def)];
      const payload = opts.body === undefined ? sample?.body : opts.body;
      const headers: Record<string, string> = { 'x-api-key': server.key, ...sample?.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) };
      const res = await server.built.gateway!.app.inject({ method: def.method, url, headers, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
      const answer = { statusCode: res.statusCode, headers: res.headers as Record<string, string>, body: res.body };
      const what = `${def.method} ${url} ${JSON.stringify(payload ?? '').slice(0, 200)}`;
      checkAnswer(what, answer, false);
      return { ...answer, what, json: () => JSON.parse(res.body) as { error?: string; errors?: { field: string; error: string }[] } };
    };
    const requiredQuery = (def: RouteDef) => Object.fromEntries(((def.schema?.querystring as { required?: string[] } | undefined)?.required ?? []).map((n) => [n, REQUIRED_QUERY[n] ?? '1']));
    const stored = async () => (await db.query(`select (select count(*) from ledger.supply_event)::int as events, (select count(*) from classification.assignment_revision)::int as assignments, (select count(*) from ledger.classification_correction_resolution)::int as resolutions`)).rows[0];

    beforeAll(async () => {
      integration = (await server.built.gateway!.keys.createIntegration('edge-acct', 'edge shop')).id;
      db = new pg.Pool({ connectionString: server.built.databaseUrl, max: 1 });
      db.on('error', () => undefined);
    });
    afterAll(async () => db?.end());

    it('every route that takes a body has a well-formed sample here (so the sweep covers every operation)', () => {
      const withBody = TABLE.filter((d) => d.schema?.body).map(keyOf).sort();
      expect(Object.keys(SAMPLES).sort()).toEqual(withBody);
    });

    it.each(TABLE.map((d) => [keyOf(d), d] as const))('%s', async (_name, def) => {
      const before = await stored();
      const base = requiredQuery(def);
      const declared = Object.keys(propsOf(def.schema?.querystring));
      // a parameter the route does not declare: 400 unknown_parameter, whatever it is called elsewhere
      for (const name of EDGE_QUERY_NAMES.filter((n) => !declared.includes(n))) expect((await send(def, { ...base, [name]: 'open' })).json().error).toBe('unknown_parameter');
      for (const name of declared) {
        for (const value of C1_STRINGS) {
          const r = await send(def, { ...base, [name]: value });
          expect(r.statusCode, r.what).toBe(400);
        }
        if (name === 'period') {
          const r = await send(def, { ...base, period: '9999-Q4' });
          expect([r.statusCode, r.json().error], r.what).toEqual([400, 'invalid_period']);
          await send(def, { ...base, period: '9999-Q3' });
        }
        if (name === 'tax_class_id') {
          for (const value of TAX_CLASS_LOOKALIKES) expect((await send(def, { ...base, tax_class_id: value })).statusCode).toBeGreaterThanOrEqual(400);
        }
      }
      for (const name of [...def.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!)) {
        for (const value of C1_STRINGS) {
          const r = await send(def, base, { params: { [name]: encodeURIComponent(value) } });
          expect(r.statusCode, r.what).toBe(400);
        }
      }
      const sample = SAMPLES[keyOf(def)]?.body;
      for (const at of stringLeaves(sample)) {
        const field = String(at.findLast((k) => typeof k === 'string'));
        for (const value of C1_STRINGS) {
          const r = await send(def, base, { body: spoiled(sample, at, value) });
          expect(r.statusCode, r.what).toBe(400);
          if (def.url === '/v1/supply-events') expect(r.json().errors, r.what).toEqual([expect.objectContaining({ field, error: `invalid_${field}` })]);
        }
        if (field === 'tax_class_id') {
          for (const value of TAX_CLASS_LOOKALIKES) {
            const r = await send(def, base, { body: spoiled(sample, at, value) });
            expect(r.statusCode, r.what).toBe(400);
            const body = r.json();
            expect([body.error, ...(body.errors ?? []).map((e) => e.error)], r.what).toContain('unknown_tax_class');
          }
        }
      }
      // bad input stores nothing
      expect(await stored()).toEqual(before);
    });

    /**
     * Another account's resources, made through the API with that account's key: every route that takes
     * an id is sent the other account's id with this account's key, and must answer as if it did not exist.
     */
    const other: Record<string, string> = {};
    /** A digest of every row of every service schema (and the gateway's): a refused request changes none. */
    let snapshotSql = '';
    // The rows of a UNION ALL come in no fixed order (a parallel append interleaves them): sorted, so only a change of data differs.
    const snapshot = async () => (await db.query<{ t: string; d: string }>(snapshotSql)).rows.map((r) => `${r.t}:${r.d}`).sort().join(' ');

    beforeAll(async () => {
      const { key } = await server.built.gateway!.keys.create('edge-other', 'full', false);
      const as = async (method: 'POST', url: string, payload: unknown) => {
        const res = await server.built.gateway!.app.inject({ method, url, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
        expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(300);
        return res.json() as Record<string, unknown>;
      };
      other.calculation = String((await as('POST', '/v1/vat/calculate', SAMPLES['POST /v1/vat/calculate']!.body)).calculation_id);
      other.source = String((await as('POST', '/v1/sources', { source_key: 'shop/other', ...SOURCE })).id);
      other.registration = String((await as('POST', '/v1/tax-registrations', { scheme_type: 'ioss', ...REGISTRATION })).id);
      const { calculation_id: _c, ...event } = SAMPLE_EVENT;
      other.supplyEvent = String((await as('POST', '/v1/supply-events', { ...event, event_id: 'other-1' })).id);
      other.integration = (await server.built.gateway!.keys.createIntegration('edge-other', 'other shop')).id;
      const tables = await db.query<{ s: string; t: string }>(
        `select table_schema as s, table_name as t from information_schema.tables
          where table_schema in ('calculation', 'classification', 'compliance_reports', 'thresholds', 'ledger', 'gateway') and table_type = 'BASE TABLE' order by 1, 2`,
      );
      snapshotSql = tables.rows.map((r) => `select '${r.s}.${r.t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from "${r.s}"."${r.t}" x`).join(' union all ');
      // The other account's writes reach every projection first (nothing may change during a route's sweep).
      let last = '';
      for (let now = await snapshot(); now !== last; now = await snapshot()) {
        last = now;
        await new Promise((r) => setTimeout(r, 500));
      }
    });

    /** Path parameters naming the other account's resources, by route. */
    const otherIds = (def: RouteDef): Record<string, string> | undefined => {
      if (def.url.startsWith('/v1/transactions/:id')) return { id: other.calculation! };
      if (def.url === '/v1/sources/:id') return { id: other.source! };
      if (def.url === '/v1/tax-registrations/:id') return { id: other.registration! };
      if (def.url === '/v1/supply-events/:id') return { id: other.supplyEvent! };
      if (def.url.startsWith('/v1/integrations/:integration_id')) return { integration_id: other.integration!, assignment_id: '1' };
      return undefined;
    };

    type Refusal = { label: string; query?: Record<string, string>; params?: Record<string, string>; body?: unknown; status?: number; code?: string };
    const IMPOSSIBLE_DATES = ['2025-02-30', '2025-13-01', '2025-00-10', '2025-02-29', '2025-04-31'];
    const IMPOSSIBLE_QUARTERS = ['2025-Q5', '2025-Q0', '2025-q1', '2025Q1', '2025-Q1x', '-2025-Q1', '2025-Q01'];
    const HUGE_INTEGERS = ['9'.repeat(30), '-1', '1.5', '1e3', 'abc', '0x10'];
    const CONTROL_STRINGS = ['\u0000', 'a\u0000b', '\u001b[31m', 'a\u0007b', 'a\u007fb'];
    const isDateField = (name: string) => /(^|_)(date|from|to|at)$|^occurred_at$|valid_from$|valid_to$|effective_(from|to)$/.test(name);
    /** Fields each supply event must carry (the batch schema has no `required`: the ledger lists its per-item errors). */
    const EVENT_REQUIRED = ['event_id', 'event_type', 'occurred_at', 'country_of_consumption', 'currency', 'net_amount_minor'];

    /** Every hostile variant of a route's well-formed request (query, path, body), each of which must be refused. */
    function refusals(def: RouteDef): Refusal[] {
      const out: Refusal[] = [];
      const base = requiredQuery(def);
      for (const [name, schema] of Object.entries(propsOf(def.schema?.querystring)) as [string, { pattern?: string; enum?: string[] }][]) {
        for (const v of CONTROL_STRINGS) out.push({ label: `query ${name} control`, query: { ...base, [name]: v }, status: 400 });
        if (schema.pattern?.startsWith('^(0|[1-9]')) for (const v of HUGE_INTEGERS) out.push({ label: `query ${name} not an integer that fits`, query: { ...base, [name]: v }, status: 400 });
        if (schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$' || name === 'at') for (const v of IMPOSSIBLE_DATES) out.push({ label: `query ${name} impossible date`, query: { ...base, [name]: v }, status: 400 });
        if (name === 'period') for (const v of IMPOSSIBLE_QUARTERS) out.push({ label: 'query period impossible quarter', query: { ...base, period: v }, status: 400, code: 'invalid_period' });
        if (schema.enum?.includes('true')) for (const v of ['yes', '1', 'TRUE']) out.push({ label: `query ${name} not a boolean`, query: { ...base, [name]: v }, status: 400 });
      }
      out.push({ label: 'unknown query parameter', query: { ...base, unexpected: '1' }, status: 400, code: 'unknown_parameter' });
      const params = [...def.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
      for (const name of params) {
        for (const v of ['%00', 'a%01b', '%1b']) out.push({ label: `path ${name} control`, query: base, params: { [name]: v }, status: 400 });
        for (const v of ['9'.repeat(40), '-1', '1.5', '0']) out.push({ label: `path ${name} huge or impossible id`, query: base, params: { [name]: v } });
      }
      const foreign = otherIds(def);
      if (foreign) out.push({ label: "another account's id", query: base, params: foreign, status: 404 });
      const sample = SAMPLES[keyOf(def)];
      if (!sample) return out;
      // The supply events without the sample's calculation_id (no such calculation): each variant is wrong in one way only.
      const body = (def.url === '/v1/supply-events' ? { events: (sample.body as { events: Record<string, unknown>[] }).events.map(({ calculation_id: _c, ...e }) => e) } : sample.body) as Record<string, unknown>;
      for (const v of [[], 'x', 1, null, true]) out.push({ label: `body of type ${JSON.stringify(v)}`, query: base, body: v, status: 400 });
      const required = (def.schema?.body as { required?: string[] } | undefined)?.required ?? [];
      for (const name of required) {
        const { [name]: _gone, ...rest } = body;
        out.push({ label: `missing ${name}`, query: base, body: rest, status: 400 });
      }
      out.push({ label: 'unknown body field', query: base, body: { ...body, unexpected_field: 1 }, status: 400 });
      const leaves = (v: unknown, at: Path = []): Path[] =>
        Array.isArray(v) ? v.flatMap((x, i) => leaves(x, [...at, i])) : v !== null && typeof v === 'object' ? [...(at.length ? [at] : []), ...Object.entries(v).flatMap(([k, x]) => leaves(x, [...at, k]))] : [at];
      for (const at of leaves(body)) {
        const value = at.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], body);
        const field = String(at.findLast((k) => typeof k === 'string'));
        const wrongType = typeof value === 'string' ? 12345 : typeof value === 'number' ? '12' : typeof value === 'boolean' ? 'true' : Array.isArray(value) ? { x: 1 } : 'x';
        out.push({ label: `${at.join('.')} of the wrong type`, query: base, body: spoiled(body, at, wrongType as never), status: 400 });
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.push({ label: `unknown field in ${at.join('.')}`, query: base, body: spoiled(body, at, { ...value, unexpected_field: 1 } as never), status: 400 });
        if (typeof value === 'string') for (const v of CONTROL_STRINGS) out.push({ label: `${at.join('.')} control`, query: base, body: spoiled(body, at, v), status: 400 });
        if (typeof value === 'string' && isDateField(field)) for (const v of IMPOSSIBLE_DATES) out.push({ label: `${at.join('.')} impossible date`, query: base, body: spoiled(body, at, v), status: 400 });
        if (typeof value === 'number') for (const v of [1e300, 1e20, 1.5]) out.push({ label: `${at.join('.')} = ${v}`, query: base, body: spoiled(body, at, v as never), status: 400 });
      }
      if (def.url === '/v1/supply-events') {
        const events = (body as { events: Record<string, unknown>[] }).events;
        for (const name of EVENT_REQUIRED) {
          const { [name]: _gone, ...rest } = events[0]!;
          out.push({ label: `event without ${name}`, query: base, body: { events: [rest, events[1]] }, status: 400 });
        }
        out.push({ label: "another account's calculation_id", query: base, body: { events: [{ ...events[0], calculation_id: other.calculation }] }, status: 400, code: 'invalid_supply_events' });
      }
      return out;
    }

    it.each(TABLE.map((d) => [keyOf(d), d] as const))('%s refuses wrong types, missing and unknown fields, control characters, huge numbers, impossible dates and quarters, and other accounts\' ids, storing nothing', async (_name, def) => {
      const before = await snapshot();
      const wrong: string[] = [];
      for (const r of refusals(def)) {
        const res = await send(def, r.query ?? {}, { params: r.params, body: r.body });
        const code = res.statusCode >= 400 ? res.json().error : undefined;
        const ok = res.statusCode >= 400 && res.statusCode < 500 && (r.status === undefined || res.statusCode === r.status) && (r.code === undefined || code === r.code);
        if (!ok) wrong.push(`${r.label}: ${res.statusCode} ${res.body.slice(0, 160)} <- ${res.what}`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
      expect(await snapshot(), 'a refused request changed stored data').toBe(before);
    });
  });
});

describe('the route table: one name per query parameter, declared once and used', () => {
  it.each(STUBBED_TABLE.filter((d) => Object.keys(propsOf(d.schema?.querystring)).length > 0).map((d) => [`${d.method} ${d.url}`, d] as const))(
    '%s: every declared query parameter is read by its handler (anything else is 400 unknown_parameter)',
    async (_name, def) => {
      const read = await queryReadBy(def);
      expect(Object.keys(propsOf(def.schema?.querystring)).filter((name) => !read.has(name)), 'declared but never read').toEqual([]);
    },
  );
});
