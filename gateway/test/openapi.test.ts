import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, openApiDocument } from '../src/openapi/document';
import { publishedText } from '../src/openapi/write';
import type { Clients } from '@vat/platform/clients';
import { allRoutes } from '../src/routes/index';
import { healthRoutes } from '../src/routes/health';
import type { RouteDef } from '../src/route';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';

const backends = await requireBackends(['postgres']);

type Operation = {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses?: Record<string, unknown>;
};
type OpenApi = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> } };

/** The route table the gateway registers (handlers are never called here, so no clients are needed). */
const ROUTES: RouteDef[] = [
  ...healthRoutes(async () => ({ ready: true, checks: [] })),
  ...allRoutes({} as Clients, async () => false),
];
const openapiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');
const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

describe.skipIf(!backends.ok)('OpenAPI document and docs UI', () => {
  let h: Harness;
  let doc: OpenApi;
  beforeAll(async () => {
    h = await startHarness();
    const res = await h.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    doc = res.json();
  });
  afterAll(async () => h?.close());

  it('is OpenAPI 3.1 with the API key scheme in X-API-Key', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('documents the spec endpoints this gateway serves (route table not empty or truncated)', () => {
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.url}`)).size).toBe(ROUTES.length);
    const ops = new Set(Object.entries(doc.paths).flatMap(([path, o]) => Object.keys(o).map((m) => `${m.toUpperCase()} ${path}`)));
    for (const op of [
      'GET /health',
      'GET /ready',
      'GET /v1/tax-classes',
      'GET /v1/tax-classes/{id}',
      'GET /v1/vat/rates',
      'POST /v1/vat/sme-eligibility',
      'GET /v1/classification-codes/{scheme}/{code}',
      'POST /v1/tax-class/resolve',
      'POST /v1/integrations/{integration_id}/product-code-assignments',
      'POST /v1/vat/calculate',
      'GET /v1/transactions',
      'GET /v1/transactions/{id}',
      'POST /v1/transactions/{id}/replay',
      'GET /v1/transactions/export',
      'GET /v1/transactions/aggregated',
      'GET /v1/sources',
      'POST /v1/sources',
      'PATCH /v1/sources/{id}',
      'GET /v1/sources/unknown',
      'GET /v1/tax-registrations',
    ]) {
      expect(ops.has(op), op).toBe(true);
    }
  });

  it('lists exactly the registered routes: every one, and nothing else (no /docs, no /openapi.json)', () => {
    const expected = ROUTES.map((r) => `${r.method.toLowerCase()} ${openapiPath(r.url)}`).sort();
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'patch', 'put', 'delete'].includes(m)).map((m) => `${m} ${path}`)).sort();
    expect(listed).toEqual(expected);
  });

  it.each(ROUTES.map((r) => [`${r.method} ${r.url}`, r] as const))('%s: summary, tags, security and parameters', (_n, r) => {
    const op = doc.paths[openapiPath(r.url)]![r.method.toLowerCase()]!;
    expect(op.summary).toBe(r.summary);
    expect(op.tags).toEqual(r.tags);
    if (r.access === 'public') expect(op.security).toEqual([]);
    else expect(op.security).toEqual([{ apiKey: [...r.access.scopes] }, { session: [...r.access.scopes] }]);

    const params = op.parameters ?? [];
    for (const name of pathParams(r.url)) {
      expect(params.find((p) => p.in === 'path' && p.name === name), `path parameter ${name}`).toMatchObject({ required: true });
    }
    const query = (r.schema?.querystring ?? { properties: {}, required: [] }) as { properties: Record<string, unknown>; required?: string[] };
    const documented = params.filter((p) => p.in === 'query');
    expect(documented.map((p) => p.name).sort()).toEqual(Object.keys(query.properties).sort());
    for (const p of documented) expect(Boolean(p.required), `query ${p.name}`).toBe((query.required ?? []).includes(p.name));

    if (r.schema?.body) {
      expect(op.requestBody?.content['application/json'], 'JSON request body').toBeDefined();
    } else {
      expect(op.requestBody).toBeUndefined();
    }
  });

  it('documents the body fields of the calculation, SME and source endpoints', () => {
    const props = (path: string, method: string) => {
      const schema = (doc.paths[path]![method]!.requestBody!.content['application/json'] as { schema: { properties: Record<string, unknown>; required?: string[] } }).schema;
      return { names: Object.keys(schema.properties).sort(), required: [...(schema.required ?? [])].sort() };
    };
    expect(props('/v1/vat/calculate', 'post')).toEqual({
      names: ['country', 'currency', 'gross_amount_minor', 'price_includes_vat', 'tax_class_id', 'transaction_date'],
      required: ['country', 'currency', 'gross_amount_minor', 'price_includes_vat', 'tax_class_id'],
    });
    expect(props('/v1/vat/sme-eligibility', 'post')).toEqual({ names: ['annual_turnover_nac', 'country', 'currency', 'reference_date'], required: ['annual_turnover_nac', 'country', 'currency'] });
    expect(props('/v1/sources', 'post').required).toEqual(['channel_type', 'display_name', 'source_key']);
  });

  it('needs no key and answers the same document each time', async () => {
    const again = await h.inject({ method: 'GET', url: '/openapi.json', headers: { 'x-api-key': 'garbage' } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(doc);
  });

  it('GET /docs serves the HTML UI (following redirects)', async () => {
    let url = '/docs';
    let res = await h.inject({ method: 'GET', url });
    for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 5; hops++) {
      url = new URL(String(res.headers.location), `http://localhost${url}`).pathname;
      res = await h.inject({ method: 'GET', url });
    }
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
    expect(res.body).toMatch(/swagger/i);
  });

  it('every route that takes no body answers 400 unexpected_body to one (an empty object is tolerated)', async () => {
    const { key } = await h.key('no-body-acct', 'full');
    const sample: Record<string, string> = { id: '1', scheme: 'cn', code: '01012100', integration_id: '1', assignment_id: '00000000-0000-4000-8000-000000000000', export_id: 'x' };
    const required: Record<string, string> = { period: '2024-Q1', month: '2024-01', country: 'DE', from: '2024-01-01', to: '2024-01-31' };
    const answers: string[] = [];
    for (const r of ROUTES.filter((d) => !d.schema?.body)) {
      const q = ((r.schema?.querystring as { required?: string[] } | undefined)?.required ?? []).map((n) => `${n}=${required[n]}`).join('&');
      const url = r.url.replace(/:([a-z_]+)/g, (_m, n: string) => sample[n]!) + (q ? `?${q}` : '');
      const res = await h.inject({ method: r.method, url, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: '{"unexpected":true}' });
      answers.push(`${r.method} ${r.url} ${res.statusCode} ${res.json<{ error: string }>().error}`);
    }
    expect(answers).toEqual(ROUTES.filter((d) => !d.schema?.body).map((r) => `${r.method} ${r.url} 400 unexpected_body`));
  });

  it('is the published docs/openapi.json (regenerate it with `npm run openapi`)', () => {
    const published = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as unknown;
    expect(published, 'docs/openapi.json is stale: run `npm run openapi` and commit it').toEqual(doc);
    expect(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')).toBe(publishedText());
  });

  it('passes the Redocly recommended ruleset with no error and no warning', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual([]);
  });

  it('shares Error, money, paging, quarter key, country and currency as components', () => {
    for (const name of ['Error', 'MoneyMinor', 'NextCursor', 'QuarterKey', 'Country', 'Currency']) expect(doc.components.schemas[name], name).toBeDefined();
    const text = JSON.stringify(doc.paths);
    for (const name of ['Error', 'MoneyMinor', 'NextCursor', 'QuarterKey', 'Country', 'Currency']) expect(text, name).toContain(`"#/components/schemas/${name}"`);
  });
});

describe('every operation declares its answers', () => {
  const doc = openApiDocument(ROUTES);
  const where = 'in its RouteDef (gateway/src/routes/)';

  it.each(ROUTES.map((r) => [`${r.method} ${r.url}`, r] as const))('%s: a success schema and its error codes', (name, r) => {
    const success = Object.entries(r.responses ?? {}).filter(([status]) => Number(status) >= 200 && Number(status) < 300);
    expect(success.length, `${name} has no response schema: add \`responses: { ${r.method === 'POST' ? '201 or 200' : '200'}: <JSON schema of the body> }\` ${where} (builders in gateway/src/openapi/shapes.ts; \`file('text/csv')\` for a download)`).toBeGreaterThan(0);
    for (const [status, schema] of success) expect(Object.keys(schema).length, `${name} ${status}: the response schema is empty`).toBeGreaterThan(0);
    expect(r.errors, `${name} declares no error codes: add \`errors: { 404: ['thing_not_found'], 422: [...] }\` ${where} listing every \`error\` code its service can answer (ConnectError reasons) beyond the gateway's own (401/403/429/503, invalid_json, unknown_field, unknown_parameter, unexpected_body and the schemas' x-error codes are added for you); \`errors: {}\` if there are none`).toBeDefined();
    const op = doc.paths[openapiPath(r.url)]![r.method.toLowerCase()]!;
    const clientErrors = Object.keys(op.responses).filter((s) => s.startsWith('4'));
    expect(clientErrors.length, `${name} documents no 4xx`).toBeGreaterThan(0);
    for (const [status, codes] of errorsOf(r)) {
      const schema = (op.responses[String(status)] as { content: Record<string, { schema: { allOf?: { properties?: { error?: { enum: string[] } } }[] } }> }).content['application/json']!.schema;
      if (schema.allOf) expect(schema.allOf[1]!.properties!.error!.enum, `${name} ${status}`).toEqual([...codes].sort());
    }
  });

  it('a route that takes no body documents 400 unexpected_body; one that takes a body documents invalid_json and unknown_field', () => {
    for (const r of ROUTES) {
      const codes = errorsOf(r).get(400)!;
      if (r.schema?.body) expect([codes.has('invalid_json'), codes.has('unknown_field')], `${r.method} ${r.url}`).toEqual([true, true]);
      else expect(codes.has('unexpected_body'), `${r.method} ${r.url}`).toBe(true);
    }
  });
});
