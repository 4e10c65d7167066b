/**
 * Invalid requests derived from the document for every operation, each a variation of one valid
 * request of that operation (its path, query, body and key): no credentials, a key without the scope,
 * an unknown or missing parameter, a parameter value its schema refuses, a path id that matches
 * nothing, and for bodies an empty, non-object, mistyped, extended or non-JSON one (a route without a
 * body gets one). A new operation gets all of these without any change here.
 */
import type { OpenApi, Operation, Request } from './proxy-client';

type Schema = Record<string, any>;

/** The auth headers of a key of each scope the check created. */
export type Credentials = Record<string, Record<string, string>>;

function deref(doc: OpenApi, s: Schema | undefined): Schema {
  let out = s ?? {};
  while (typeof out.$ref === 'string') out = doc.components.schemas[(out.$ref as string).split('/').pop()!] as Schema;
  return out;
}

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A JSON value of the wrong type for a property schema (or outside its enumeration). */
function wrongValue(doc: OpenApi, raw: Schema): unknown {
  const s = deref(doc, raw);
  const types = typesOf(s);
  if (types.includes('string')) return 12345;
  if (types.includes('integer') || types.includes('number')) return 'not-a-number';
  if (types.includes('boolean')) return 'not-a-boolean';
  if (types.includes('array')) return { not: 'an array' };
  if (types.includes('object') || s.properties) return 'not-an-object';
  return [];
}

/** A query or path value its schema refuses, or undefined when the schema accepts any text. */
function badParameter(doc: OpenApi, raw: Schema): string | undefined {
  const s = deref(doc, raw);
  if (s.enum || s.pattern || s.format || typesOf(s).some((t) => t !== 'string')) return 'zz~not valid~';
  if (typeof s.maxLength === 'number') return 'x'.repeat(s.maxLength + 1);
  return undefined;
}

const without = (o: Record<string, string>, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/** The invalid variations of `valid`, one of `op`'s valid requests. */
export function invalidRequests(doc: OpenApi, op: Operation, valid: Request, creds: Credentials): Request[] {
  const out: Request[] = [];
  const params = (op.op.parameters ?? []) as Schema[];
  const query = valid.query ?? {};
  const auth = ['x-api-key', 'cookie', 'x-csrf-token'];
  const headers = valid.headers ?? {};
  const secured = (op.op.security ?? []).length > 0;
  const bodySchema = op.op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const base = { kind: 'invalid' as const, method: op.method, path: valid.path, query, headers, ...(valid.body !== undefined ? { body: valid.body } : {}) };
  const add = (label: string, over: Partial<Request>) => out.push({ ...base, label, ...over });

  if (secured) {
    add('no credentials', { headers: without(headers, auth), expect: [401] });
    // The scopes the operation accepts are the role names of its security requirement.
    const scopes = ((op.op.security as Record<string, string[]>[])[0]?.apiKey ?? []) as string[];
    const other = Object.keys(creds).find((scope) => !scopes.includes(scope));
    if (other) add(`a key of scope ${other}`, { headers: { ...without(headers, auth), ...creds[other] }, expect: [403] });
  }
  add('an unknown query parameter', { query: { ...query, prism_unknown: '1' }, expect: [400] });
  const required = params.filter((p) => p.in === 'query' && p.required).map((p) => p.name as string);
  if (required.length) add(`without the required ${required.join(', ')}`, { query: without(query, required), expect: [400] });
  for (const p of params.filter((x) => x.in === 'query')) {
    const bad = badParameter(doc, p.schema as Schema);
    if (bad !== undefined) add(`${p.name} refused by its schema`, { query: { ...query, [p.name]: bad }, expect: [400, 404] });
  }
  for (const p of params.filter((x) => x.in === 'path')) {
    const i = op.path.split('/').indexOf(`{${p.name}}`);
    const segments = valid.path.split('/');
    segments[i] = badParameter(doc, p.schema as Schema) ?? 'no-such-id';
    add(`${p.name} that matches nothing`, { path: segments.join('/'), expect: [400, 404] });
    segments[i] = '999999999';
    add(`${p.name} of no record`, { path: segments.join('/'), expect: [400, 404] });
  }
  if (bodySchema) {
    const schema = deref(doc, bodySchema.oneOf ? bodySchema.oneOf[0] : bodySchema);
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    if ((schema.required ?? []).length) add('an empty object body', { body: {}, expect: [400] });
    add('a body that is not an object', { body: [1, 2], expect: [400] });
    // Three members at most: Prism's violation header is cut at 8 KB, and a cut list cannot be read.
    const wrong = Object.fromEntries(Object.entries(props).slice(0, 3).map(([k, v]) => [k, wrongValue(doc, v)]));
    if (Object.keys(wrong).length) add(`${Object.keys(wrong).join(', ')} of the wrong type`, { body: { ...(typeof valid.body === 'object' && !Array.isArray(valid.body) ? (valid.body as object) : {}), ...wrong }, expect: [400] });
    if (valid.body && typeof valid.body === 'object' && !Array.isArray(valid.body)) add('an unknown body member', { body: { ...valid.body, prism_unknown: 1 }, expect: [400] });
    add('a body that is not JSON (text/plain)', { body: undefined, rawBody: 'plain text', headers: { ...headers, 'content-type': 'text/plain' }, expect: [400, 415] });
  } else if (op.method !== 'GET') {
    add('a body where the route takes none', { body: { unexpected: true }, expect: [400] });
  }
  return out;
}
