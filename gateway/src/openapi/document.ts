import { STATUS_CODES } from 'node:http';
import type { RouteDef, RouteTable } from '../route';
import { SESSION_COOKIE } from '../sessions';
import { REPORT_COMPONENTS } from './report-components';
import { COMPONENT, COMPONENTS } from './shapes';

type Schema = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: string;
  info: Schema;
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Schema; securitySchemes: Schema; headers: Schema };
};
export type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: Schema[];
  requestBody?: { required: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; headers?: Schema; content?: Record<string, { schema: unknown }> }>;
};

const TAGS: Record<string, string> = {
  calculation: 'VAT calculation: v1 amounts with rate evidence, v2 governed decisions',
  classification: 'CN/CPA codes, governed code-to-tax-class mapping, product-code assignments and correction reviews',
  compliance: 'OSS/IOSS registrations, Article 59c thresholds and notifications',
  health: 'Liveness and readiness (no key)',
  ledger: 'Committed supply events (the source of truth for returns)',
  reference: 'Tax classes, rates and SME eligibility (no key)',
  reports: 'Union OSS returns, exports, locked periods and IOSS drill-downs',
  sources: 'Source profiles of the account',
  transactions: 'Stored calculations: list, detail, replay, export, aggregates',
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** The OpenAPI path of a Fastify route URL (`:id` → `{id}`). */
export const openapiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Whether a route reads a JSON request body (every other route refuses one with 400 `unexpected_body`). */
export const takesBody = (def: RouteDef) => def.schema?.body !== undefined;

type Props = { properties?: Record<string, Schema>; 'x-error'?: string };

/** The `x-error*` codes a request schema names (a property's wrong type, absence or null), at any depth. */
function schemaCodes(schema: unknown, into: Set<string>): void {
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as Schema;
  for (const k of ['x-error', 'x-error-missing', 'x-error-null']) if (typeof s[k] === 'string') into.add(s[k] as string);
  for (const p of Object.values((s as Props).properties ?? {})) schemaCodes(p, into);
  if (s.items) schemaCodes(s.items, into);
  for (const k of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(s[k])) for (const alt of s[k] as unknown[]) schemaCodes(alt, into);
}

const add = (map: Map<number, Set<string>>, status: number, ...codes: string[]) => {
  const set = map.get(status) ?? new Set<string>();
  for (const c of codes) set.add(c);
  map.set(status, set);
};

/**
 * Every error status of a route with the exact `error` codes it can carry: the gateway's own answers
 * (authentication, scope, limits, JSON and parameter parsing, the body rule), the codes its request
 * schemas name, and the route's declared `errors` (its service's ConnectError reasons).
 */
export function errorsOf(def: RouteDef): Map<number, Set<string>> {
  const map = new Map<number, Set<string>>();
  add(map, 400, 'unknown_parameter', 'api_key_in_query', 'invalid_url', 'malformed_request');
  if (def.access !== 'public') {
    // A dashboard session cookie stands in for the key: it may have ended, and a write made with it needs its CSRF header.
    add(map, 401, 'missing_api_key', 'invalid_api_key', 'session_expired');
    add(map, 403, 'insufficient_scope');
    if (def.method !== 'GET') add(map, 403, 'csrf_token_invalid');
  }
  if (def.access !== 'public' || def.limiter) add(map, 429, 'rate_limited');
  if (def.limiter === 'classification') add(map, 503, 'limiter_unavailable');
  if (!def.responses?.[503]) add(map, 503, 'service_unavailable');
  add(map, 500, 'internal_error');
  if (def.method !== 'GET') add(map, 415, 'unsupported_media_type');
  if (def.method !== 'GET') add(map, 413, 'payload_too_large');
  // A POST, PATCH or DELETE body is parsed as JSON before the route decides whether it takes one.
  if (def.method !== 'GET') add(map, 400, 'invalid_json');
  if (takesBody(def)) add(map, 400, 'invalid_json', 'invalid_request', 'unknown_field');
  else add(map, 400, 'unexpected_body');
  const fromSchemas = new Set<string>();
  for (const part of [def.schema?.body, def.schema?.querystring, def.schema?.params, def.schema?.headers]) schemaCodes(part, fromSchemas);
  if (def.schema?.querystring) fromSchemas.add('invalid_query');
  if (def.schema?.params) fromSchemas.add('invalid_path');
  if (def.schema?.headers) fromSchemas.add('invalid_header');
  // A control character in a path or query parameter without its own code.
  if (def.schema?.params || def.schema?.querystring) fromSchemas.add('invalid_request');
  if (fromSchemas.size) add(map, 400, ...fromSchemas);
  for (const [status, codes] of Object.entries(def.errors ?? {})) add(map, Number(status), ...(codes ?? []));
  return map;
}

/** A request schema as the document shows it: shared components as `$ref`, gateway-internal keywords removed. */
function documented(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(documented);
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Schema;
  const component = s[COMPONENT];
  if (typeof component === 'string') {
    const extra = Object.fromEntries(Object.entries(s).filter(([k]) => k === 'description' || k === 'x-error'));
    const nullable = Array.isArray(s.type) && s.type.includes('null');
    const target = { $ref: `#/components/schemas/${component}` };
    return nullable ? { anyOf: [target, { type: 'null' }], ...extra } : { ...target, ...extra };
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'x-wire') continue;
    if (k === 'properties' && typeof v === 'object' && v !== null) out[k] = Object.fromEntries(Object.entries(v).map(([n, p]) => [n, documented(p)]));
    else if (typeof v === 'object' && v !== null && k !== 'enum' && k !== 'required' && k !== 'type') out[k] = documented(v);
    else out[k] = v;
  }
  return out;
}

function parameters(def: RouteDef): Schema[] {
  const out: Schema[] = [];
  const from = (where: 'path' | 'query' | 'header', schema: unknown) => {
    const s = schema as (Props & { required?: string[] }) | undefined;
    for (const [name, p] of Object.entries(s?.properties ?? {})) {
      const { description, ...rest } = documented(p) as Schema;
      out.push({ in: where, name, required: where === 'path' || (s?.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest });
    }
  };
  from('path', def.schema?.params);
  from('query', def.schema?.querystring);
  from('header', def.schema?.headers);
  return out;
}

/** `GET /v1/tax-classes/{id}` → `getV1TaxClassesById`. */
export function operationIdOf(def: RouteDef): string {
  const words = def.url.split('/').filter(Boolean).flatMap((seg) => (seg.startsWith(':') ? ['by', seg.slice(1)] : [seg]));
  const camel = words.flatMap((w) => w.split(/[-_]/)).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return def.method.toLowerCase() + camel.join('');
}

const RETRY_AFTER = { $ref: '#/components/headers/RetryAfter' };

function responses(def: RouteDef): Operation['responses'] {
  const out: Operation['responses'] = {};
  for (const [status, schema] of Object.entries(def.responses ?? {})) {
    const { mediaType: media, json } = schema as { mediaType?: string; json?: Schema };
    // `mediaType` may name several types ('text/csv, application/pdf'): a stored artifact answers with the type it was stored with.
    const binary = media ? Object.fromEntries(media.split(',').map((m) => [m.trim(), { schema: { type: 'string', format: 'binary' } }])) : {};
    const fileContent = media ? { ...binary, ...(json ? { 'application/json': { schema: json } } : {}) } : undefined;
    // 204 No Content and 304 Not Modified carry no body (and no content type).
    const bodyless = status === '204' || status === '304';
    out[status] = {
      description: STATUS_CODES[Number(status)] ?? status,
      ...(bodyless ? {} : { content: fileContent ?? { 'application/json': { schema } } }),
      ...(Number(status) === 503 ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
    };
  }
  for (const [status, codes] of [...errorsOf(def)].sort(([a], [b]) => a - b)) {
    if (out[status]) continue;
    const schema = { allOf: [ERROR_REF, { type: 'object', properties: { error: { type: 'string', enum: [...codes].sort() } } }] };
    out[status] = {
      description: `${STATUS_CODES[status] ?? status}: ${[...codes].sort().join(', ')}`,
      content: { 'application/json': { schema } },
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
    };
  }
  return out;
}

function operation(def: RouteDef): Operation {
  const params = parameters(def);
  return {
    operationId: operationIdOf(def),
    summary: def.summary,
    tags: def.tags,
    // OpenAPI 3.1 lets an apiKey requirement name roles: the key scopes (or the session's) the route accepts.
    security: def.access === 'public' ? [] : [{ apiKey: [...def.access.scopes] }, { session: [...def.access.scopes] }],
    ...(params.length ? { parameters: params } : {}),
    ...(takesBody(def) ? { requestBody: { required: true, content: { 'application/json': { schema: documented(def.schema!.body) } } } } : {}),
    responses: responses(def),
  };
}

/** The OpenAPI 3.1 document of the route table: built from the same declarations the gateway parses and answers with. */
export function openApiDocument(table: RouteTable): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const def of table) (paths[openapiPath(def.url)] ??= {})[def.method.toLowerCase()] = operation(def);
  const tags = [...new Set(table.flatMap((d) => d.tags))].sort().map((name) => ({ name, description: TAGS[name] ?? `The ${name} routes.` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'EU VAT service',
      version: '1.0.0-alpha',
      description: 'VAT calculation with evidence, classification, history and OSS/IOSS compliance. Every error answer is `{ "error": "<code>", "detail": "<text>" }`; each operation lists the codes of each status.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas: { ...COMPONENTS, ...REPORT_COMPONENTS } as unknown as Schema,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The dashboard session (POST /v1/sessions); a write made with it also sends X-CSRF-Token' },
      },
      headers: { RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } },
    },
  } as OpenApiDocument;
}
