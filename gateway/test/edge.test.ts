import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { clientErrorAnswer } from '../src/edge/before-fastify';
import { expectErrorBody, propsOf, rawRequest, edgeSectionCodes, startEdgeServer, TABLE, urlOf, type EdgeServer } from './edge-support';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('gateway edge', () => {
  let server: EdgeServer;
  let port: number;
  let full: string;
  let logLines: string[];

  beforeAll(async () => {
    server = await startEdgeServer();
    ({ port, key: full, logLines } = server);
  });
  afterAll(async () => server?.close());

  const inject = (opts: InjectOptions) => server.built.gateway!.app.inject(opts);
  const get = (path: string, extra: Record<string, string> = {}) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${Object.entries(extra).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;

  describe("answers Node's and Fastify's own refusals with the documented body", () => {
    it.each([
      ['a malformed request line', 'GARBAGE\r\n\r\n', 400, 'malformed_request'],
      ['an unknown method token', 'FOO@ /health HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'malformed_request'],
      ['an HTTP/2 preface on the HTTP/1.1 port', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, 'malformed_request'],
      ['a header line without a colon', 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 'malformed_request'],
      ['two different Content-Length headers', 'POST /v1/vat/calculate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}', 400, 'malformed_request'],
      ['an unknown Transfer-Encoding', 'POST /v1/vat/calculate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: bogus\r\n\r\n', 400, 'malformed_request'],
      ['an HTTP/1.1 request without Host', 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'malformed_request'],
      ['two Host headers (RFC 9112 §3.2)', 'GET /health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n', 400, 'malformed_request'],
      ['the same Host twice', 'GET /health HTTP/1.1\r\nHost: localhost\r\nhost: localhost\r\n\r\n', 400, 'malformed_request'],
      ['two Host headers on HTTP/1.0', 'GET /health HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n', 400, 'malformed_request'],
      ['two Host headers on an authenticated route', 'POST /v1/vat/calculate HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 400, 'malformed_request'],
      ['a Host with a space', 'GET /health HTTP/1.1\r\nHost: a b\r\n\r\n', 400, 'malformed_request'],
      ['a Host with userinfo', 'GET /health HTTP/1.1\r\nHost: user@a.example\r\n\r\n', 400, 'malformed_request'],
      ['a Host with a path', 'GET /health HTTP/1.1\r\nHost: a.example/x\r\n\r\n', 400, 'malformed_request'],
      ['a Host with a non-numeric port', 'GET /health HTTP/1.1\r\nHost: a.example:http\r\n\r\n', 400, 'malformed_request'],
      ['Expect: bogus', get('/health', { Expect: 'bogus' }), 417, 'expectation_failed'],
      ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405, 'method_not_allowed'],
      ['a query over the 16 KB header limit', get(`/v1/tax-classes?q=${'a'.repeat(17_000)}`), 431, 'headers_too_large'],
      ['headers over the 16 KB limit', get('/health', { 'X-Pad': 'p'.repeat(17_000) }), 431, 'headers_too_large'],
      ['a raw non-ASCII byte in the target', Buffer.concat([Buffer.from('GET /v1/tax-classes/'), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]), 400, 'invalid_url'],
      ['bad percent-encoding in the path', get('/v1/tax-classes/%zz'), 400, 'invalid_url'],
      ['percent-encoded invalid UTF-8 in the path', get('/v1/tax-classes/%c3%28'), 400, 'invalid_url'],
      ['bad percent-encoding in the query', get('/v1/tax-classes?q=%zz'), 400, 'invalid_url'],
      ['percent-encoded invalid UTF-8 in the query', get('/v1/tax-classes?q=%e2%82'), 400, 'invalid_url'],
      ['a path parameter over 500 characters', get(`/v1/tax-classes/${'a'.repeat(501)}`), 414, 'uri_too_long'],
      ['chunk extensions over 16 KB', `POST /v1/vat/calculate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`, 413, 'payload_too_large'],
      ['TRACE', 'TRACE /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404, 'not_found'],
      ['OPTIONS', 'OPTIONS /v1/vat/calculate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404, 'not_found'],
      ['an unsupported method on a known path', 'PUT /v1/vat/calculate HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', 404, 'not_found'],
    ] as const)('%s → %i %s', async (_name, bytes, status, code) => {
      const res = await rawRequest(port, bytes);
      expectErrorBody(res, status, code);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('still serves HTTP/1.0 without Host, Expect: 100-continue, an absolute-form target and HEAD', async () => {
      expect((await rawRequest(port, 'GET /health HTTP/1.0\r\n\r\n')).statusCode).toBe(200);
      for (const host of ['localhost:8080', '127.0.0.1', '[::1]:80', 'xn--bcher-kva.example', '']) {
        expect((await rawRequest(port, `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).statusCode, host).toBe(200);
      }
      const cont = await rawRequest(port, 'POST /v1/vat/sme-eligibility HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
      expect(cont.statusCode).toBe(400);
      expect(JSON.parse(cont.body).error).not.toBe('expectation_failed');
      expect((await rawRequest(port, get('http://localhost/health'))).statusCode).toBe(200);
      const head = await rawRequest(port, 'HEAD /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { head: true });
      expect(head.statusCode).toBe(200);
      expect(head.headers['x-content-type-options']).toBe('nosniff');
    });

    it("maps every refusal of Node's parser to a documented status and code", () => {
      expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')).toMatchObject({ status: 431, code: 'headers_too_large' });
      expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({ status: 408, code: 'request_timeout' });
      expect(clientErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toMatchObject({ status: 413, code: 'payload_too_large' });
      expect(clientErrorAnswer('HPE_INVALID_URL')).toMatchObject({ status: 400, code: 'invalid_url' });
      for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_HEADER_TOKEN', 'HPE_UNEXPECTED_CONTENT_LENGTH', undefined]) expect(clientErrorAnswer(code)).toMatchObject({ status: 400, code: 'malformed_request' });
    });

    it('lists every code it uses in the section "Authentication and errors" of docs/http-api.md', () => {
      const documented = edgeSectionCodes();
      const edge = ['malformed_request', 'invalid_url', 'uri_too_long', 'headers_too_large', 'request_timeout', 'expectation_failed', 'method_not_allowed', 'api_key_in_query', 'unknown_parameter', 'invalid_request', 'invalid_json', 'unsupported_media_type', 'payload_too_large', 'not_found', 'service_unavailable', 'internal_error'];
      expect(edge.filter((c) => !documented.has(c))).toEqual([]);
    });
  });

  describe('control characters in query and path parameters', () => {
    it('answers the reported NUL in catalog_version with 400 and logs no error or stack', async () => {
      const before = logLines.length;
      const res = await inject({ method: 'GET', url: '/v1/classification-codes/cn/01012100?catalog_version=%00' });
      expectErrorBody(res, 400, 'invalid_catalog_version');
      const written = logLines.slice(before).join('');
      expect(written).not.toMatch(/"level":(50|60)/);
      expect(written).not.toContain('"stack"');
    });

    const controls = ['%00', '%01', '%09', '%0A', '%0d', '%1f', '%7f', '%c2%80', '%c2%9f'];
    const queryCases = TABLE.flatMap((def) => Object.entries(propsOf(def.schema?.querystring)).map(([name, p]) => [`${def.method} ${def.url} ?${name}`, def, name, p['x-error'] ?? 'invalid_request'] as const));
    const pathCases = TABLE.flatMap((def) => Object.entries(propsOf(def.schema?.params)).map(([name, p]) => [`${def.method} ${def.url} :${name}`, def, name, p['x-error'] ?? 'invalid_request'] as const));

    it.each(queryCases)('%s with a control character answers 400 with the parameter code', async (_n, def, name, code) => {
      for (const c of controls) {
        const res = await inject({ method: def.method, url: `${urlOf(def)}?${name}=a${c}b`, headers: { 'x-api-key': full, 'content-type': 'application/json' }, ...(def.method === 'GET' ? {} : { payload: '{}' }) });
        expectErrorBody(res, 400, code);
      }
    });

    it.each(pathCases)('%s with a control character answers 400 with the parameter code', async (_n, def, name, code) => {
      for (const c of controls) {
        const res = await inject({ method: def.method, url: urlOf(def, { [name]: `a${c}b` }), headers: { 'x-api-key': full, 'content-type': 'application/json' }, ...(def.method === 'GET' ? {} : { payload: '{}' }) });
        expectErrorBody(res, 400, code);
      }
    });

    it('keeps ordinary unicode in parameters', async () => {
      const res = await inject({ method: 'GET', url: `/v1/tax-classes?q=${encodeURIComponent('Bücher – 書')}` });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('unknown query parameters', () => {
    it.each(TABLE.map((def) => [`${def.method} ${def.url}`, def] as const))('%s answers 400 unknown_parameter', async (_n, def) => {
      const res = await inject({ method: def.method, url: `${urlOf(def)}?zz_not_a_parameter=1`, headers: { 'x-api-key': full, 'content-type': 'application/json' }, ...(def.method === 'GET' ? {} : { payload: '{}' }) });
      const body = expectErrorBody(res, 400, 'unknown_parameter');
      expect(body.detail).toContain('zz_not_a_parameter');
    });
  });

  describe('API key in the query string', () => {
    it.each(['api_key', 'apikey', 'api-key', 'API_KEY', 'apiKey', 'x-api-key', 'X_Api_Key', 'key'])('?%s=... answers 400 api_key_in_query on every kind of route', async (name) => {
      for (const path of ['/v1/transactions', '/v1/tax-classes', '/nope']) {
        const res = await inject({ method: 'GET', url: `${path}?${name}=${full}` });
        const body = expectErrorBody(res, 400, 'api_key_in_query');
        expect(body.detail).toContain('X-API-Key');
        expect(res.body).not.toContain(full.split('_').slice(2).join('_'));
      }
    });

    it('recognises a key by its shape under any parameter name', async () => {
      expectErrorBody(await inject({ method: 'GET', url: `/v1/transactions?q=${full}`, headers: { 'x-api-key': full } }), 400, 'api_key_in_query');
    });

    it('never writes a query string (nor the key in it) to the log', async () => {
      const before = logLines.length;
      const secret = full.split('_').slice(2).join('_');
      for (const url of [`/v1/transactions?api_key=${full}`, `/v1/tax-classes?q=${secret}`, `/nope?key=${secret}`, `/v1/tax-classes/%zz?api_key=${full}`]) await inject({ method: 'GET', url });
      await rawRequest(port, get(`/v1/transactions?api_key=${full}`));
      await rawRequest(port, `GET /v1/transactions?api_key=${full} HTTP/1.1\r\nBad Header\r\n\r\n`);
      const written = logLines.slice(before);
      expect(written.length).toBeGreaterThan(5);
      for (const line of written) {
        expect(line).not.toContain(secret);
        const req = (JSON.parse(line) as { req?: { url?: string } }).req;
        if (req?.url !== undefined) expect(req.url).not.toContain('?');
      }
      expect(written.some((l) => l.includes('"url":"/v1/transactions"'))).toBe(true);
    });
  });

  describe('security headers', () => {
    it('sends X-Content-Type-Options: nosniff on successes, errors, 404s and framework errors', async () => {
      for (const [method, url, headers] of [
        ['GET', '/health', {}],
        ['GET', '/v1/tax-classes', {}],
        ['GET', '/openapi.json', {}],
        ['GET', '/nope', {}],
        ['GET', '/v1/transactions', {}],
        ['GET', '/v1/tax-classes/%zz', {}],
        ['GET', `/v1/tax-classes/${'a'.repeat(600)}`, {}],
        ['POST', '/v1/vat/sme-eligibility', { 'content-type': 'text/plain' }],
        ['GET', '/docs', {}],
      ] as const) {
        const res = await inject({ method, url, headers, ...(method === 'POST' ? { payload: 'x' } : {}) });
        expect(res.headers['x-content-type-options'], `${method} ${url}`).toBe('nosniff');
      }
    });

    it('sends Cache-Control: no-store on every authenticated answer, errors and exports included', async () => {
      const readOnly = (await server.built.gateway!.keys.create('edge-acct', 'calculate-only', false)).key;
      for (const [url, key, status] of [
        ['/v1/transactions', full, 200],
        ['/v1/transactions/export?from=2024-01-01&to=2024-01-31', full, 200],
        ['/v1/transactions', undefined, 401],
        ['/v1/transactions', 'vat_0123456789abcdef_' + 'x'.repeat(43), 401],
        ['/v1/transactions', readOnly, 403],
        ['/v1/transactions?limit=0', full, 400],
        ['/v1/transactions/export?from=2024-01-01', full, 400],
        ['/nope', full, 404],
      ] as const) {
        const res = await inject({ method: 'GET', url, headers: key === undefined ? {} : { 'x-api-key': key } });
        expect(res.statusCode, `${url} ${res.body}`).toBe(status);
        expect(res.headers['cache-control'], url).toBe('no-store');
      }
    });

    it('serves /docs and its assets with a strict CSP and frame denial, and the page needs nothing inline', async () => {
      const page = await inject({ method: 'GET', url: '/docs/' });
      expect(page.statusCode).toBe(200);
      const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, 'http://localhost/docs/').pathname);
      expect(assets.length).toBeGreaterThan(3);
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      for (const url of ['/docs', '/docs/', '/docs/json', ...assets]) {
        const res = await inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("default-src 'none'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toContain('unsafe-inline');
        expect(csp).not.toContain('unsafe-eval');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  });

  describe('JSON bodies through the gateway', () => {
    const post = (url: string, payload: string | Buffer, contentType = 'application/json') => inject({ method: 'POST', url, headers: { 'x-api-key': full, 'content-type': contentType }, payload });

    it('refuses invalid UTF-8 instead of storing U+FFFD', async () => {
      const payload = Buffer.concat([Buffer.from('{"source_key":"utf8-probe","display_name":"Shop'), Buffer.from([0xff, 0xfe]), Buffer.from('","channel_type":"pos"}')]);
      const res = await post('/v1/sources', payload);
      expectErrorBody(res, 400, 'invalid_json');
      const list = await inject({ method: 'GET', url: '/v1/sources', headers: { 'x-api-key': full } });
      expect(list.body).not.toContain('utf8-probe');
    });

    it('refuses duplicate keys on every JSON route', async () => {
      for (const url of ['/v1/vat/calculate', '/v1/vat/sme-eligibility', '/v1/sources', '/v1/tax-class/resolve']) {
        const res = await post(url, '{"country":"DE","currency":"EUR","country":"FR"}');
        expect(expectErrorBody(res, 400, 'invalid_json').detail).toContain('"country"');
      }
      const patch = await inject({ method: 'PATCH', url: '/v1/sources/1', headers: { 'x-api-key': full, 'content-type': 'application/json' }, payload: '{"display_name":"a","x":{"y":1,"y":2}}' });
      expectErrorBody(patch, 400, 'invalid_json');
    });

    it('answers a JSON body in another charset with 415', async () => {
      expectErrorBody(await post('/v1/vat/sme-eligibility', '{}', 'application/json; charset=iso-8859-1'), 415, 'unsupported_media_type');
      expect((await post('/v1/vat/sme-eligibility', '{"country":"DE","currency":"EUR","annual_turnover_nac":1}', 'application/json; charset=UTF-8')).statusCode).toBe(200);
    });
  });
});
