import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
type OpenApi = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

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
    if (r.access === 'public') expect(op.security).toBeUndefined();
    else expect(op.security).toEqual([{ apiKey: [] }]);

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
});
