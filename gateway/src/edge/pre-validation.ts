import type { FastifyRequest } from 'fastify';
import { hasControlCharacter } from '@vat/platform/control-characters';
import { HttpError, printable } from '../errors';
import type { RouteDef } from '../route';

/** Parameter names an API key is commonly sent under, compared without case, `-`, `_` or `.`. */
const KEY_NAMES = new Set(['apikey', 'xapikey', 'key']);
/** The shape of this service's keys, wherever in the query it appears. */
const KEY_VALUE = /vat_[a-z0-9]{16}_/i;

type PropertySchemas = { properties?: Record<string, { 'x-error'?: unknown }> };

/** The path of a request target, without its query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The query string must be valid percent-encoded UTF-8 (Fastify's parser would keep a bad sequence
 * as literal text), and must not carry an API key: keys belong in the X-API-Key header only.
 */
export function checkQueryString(url: string): void {
  const q = url.indexOf('?');
  if (q === -1) return;
  for (const part of url.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent((eq === -1 ? part : part.slice(0, eq)).replaceAll('+', ' '));
      value = eq === -1 ? '' : decodeURIComponent(part.slice(eq + 1).replaceAll('+', ' '));
    } catch {
      throw new HttpError(400, 'invalid_url', 'The query string is not valid percent-encoded UTF-8.');
    }
    if (KEY_NAMES.has(name.toLowerCase().replace(/[-_.]/g, '')) || KEY_VALUE.test(value) || KEY_VALUE.test(name)) {
      throw new HttpError(400, 'api_key_in_query', 'Never put an API key in a URL; send it in the X-API-Key header (and revoke a key that was sent this way).');
    }
  }
}

/**
 * The generic input rules of every route, before its schema and the service see the request:
 * no query parameter the route does not declare (400 `unknown_parameter`), and no control character
 * in a query or path parameter (400 with the parameter's own code, else `invalid_request`).
 */
export function checkParameters(req: FastifyRequest, def: RouteDef): void {
  const querySchema = def.schema?.querystring as PropertySchemas | undefined;
  const paramSchema = def.schema?.params as PropertySchemas | undefined;
  const query = (req.query ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(query)) {
    if (!Object.hasOwn(querySchema?.properties ?? {}, name)) throw new HttpError(400, 'unknown_parameter', `Unknown query parameter "${printable(name)}".`);
  }
  for (const [name, value] of Object.entries(query)) checkControl('query parameter', name, value, querySchema);
  for (const [name, value] of Object.entries((req.params ?? {}) as Record<string, unknown>)) checkControl('path parameter', name, value, paramSchema);
}

function checkControl(what: string, name: string, value: unknown, schema: PropertySchemas | undefined): void {
  const values = Array.isArray(value) ? value : [value];
  if (!values.some((v) => typeof v === 'string' && hasControlCharacter(v))) return;
  const own = schema?.properties?.[name]?.['x-error'];
  throw new HttpError(400, typeof own === 'string' ? own : 'invalid_request', `The ${what} "${name}" contains a control character.`);
}

/**
 * A route that takes no body refuses one (400 `unexpected_body`) rather than ignore it: a client that
 * sends fields believes they mean something. An empty JSON object is tolerated. GET and HEAD bodies are
 * never parsed, so any body bytes count.
 */
export function refuseBody(req: FastifyRequest): void {
  const b = req.body;
  const sentBytes = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const parsed = req.method === 'GET' || req.method === 'HEAD' ? (sentBytes ? null : undefined) : b;
  const empty = parsed === undefined || (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.keys(parsed).length === 0);
  if (!empty) throw new HttpError(400, 'unexpected_body', 'This request takes no body; send its inputs as path or query parameters.');
}
