import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { documentedCodes, propsOf, rawRequest, startEdgeServer, TABLE, urlOf, type Answer, type EdgeServer } from './edge-support';

const backends = await requireBackends(['postgres']);
const RUNS = Number(process.env.GATEWAY_FC_RUNS ?? 150);

/** Every status the README documents; no 5xx may come from any input. */
const STATUSES = new Set([200, 201, 302, 400, 401, 403, 404, 405, 408, 409, 413, 414, 415, 417, 422, 429, 431]);
const CODES = documentedCodes();

/** An answer is a documented status; an error has the `{ error, detail }` body with a documented code. */
function checkAnswer(what: string, res: Answer, head: boolean): void {
  expect(STATUSES.has(res.statusCode), `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBe(true);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  if (res.statusCode < 400 || head) return;
  expect(String(res.headers['content-type']), what).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(typeof body.detail, `${what} -> ${res.body}`).toBe('string');
  expect(CODES.has(String(body.error)), `${what} -> undocumented code ${res.body}`).toBe(true);
  // The documented extras: retry_after_seconds on rate_limited, guidance on a 422, per-item errors of a batch.
  const extras = Object.keys(body).filter((k) => k !== 'error' && k !== 'detail');
  const allowed = (k: string) => (k === 'retry_after_seconds' && body.error === 'rate_limited') || (k === 'guidance' && res.statusCode === 422) || (k === 'errors' && Array.isArray(body.errors));
  expect(extras.every(allowed), `${what} -> ${res.body}`).toBe(true);
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
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
  { arbitrary: fc.constantFrom('api_key', 'key', 'x', '__proto__', 'constructor'), weight: 1 },
  { arbitrary: fc.string({ maxLength: 6 }).map(encodeURIComponent), weight: 1 },
);
const queryValue = fc.oneof(fc.constantFrom('DE', 'EUR', '2024-01-01', '1', '500', 'true', ''), fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent), badSegment);
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
      known: fc.array(fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 1 })), { maxLength: 4 }),
      raw: fc.option(body, { nil: undefined }),
      query: fc.oneof(fc.constant<[string, string][]>([]), fc.array(fc.tuple(queryName, queryValue), { maxLength: 3 })),
      key: fc.constantFrom<'full' | 'none' | 'bad'>('full', 'full', 'full', 'none', 'bad'),
      sourceId: fc.option(fc.oneof(fc.constantFrom('shop/1', ''), fc.string({ maxLength: 8 }).filter((s) => /^[\x20-\x7e]*$/.test(s))), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        const names = Object.keys(propsOf(c.def.schema?.body));
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
});
