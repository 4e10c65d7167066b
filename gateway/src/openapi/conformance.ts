import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import type { RouteDef } from '../route';
import { openapiPath, type OpenApiDocument } from './document';

/** One answer the document does not describe. */
export type Violation = { operation: string; status: number; problem: string; body: string };
type Observer = (v: Violation) => void;

let observer: Observer | undefined;

/**
 * Turns on response conformance for gateways built from now on in this process: every answer of a
 * route is checked against the OpenAPI document and each mismatch is reported. The gateway test
 * suites turn it on for every test (test/support/openapi-conformance.ts); production never does.
 */
export function observeConformance(fn: Observer | undefined): void {
  observer = fn;
}

type Schema = Record<string, unknown>;

/**
 * The strict form a test checks an answer against: an object schema that lists its members and says
 * nothing about others is closed, so an undocumented member is a mismatch (the published document
 * stays open, for compatible additions).
 */
function strict(schema: unknown, partOfAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((x) => strict(x, partOfAllOf));
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (typeof v === 'string' && k === '$ref') out[k] = v.replace(/^#\//, 'openapi.json#/');
    else if (k === 'enum' || k === 'required' || k === 'type') out[k] = v;
    else if (k === 'properties' && typeof v === 'object' && v !== null) out[k] = Object.fromEntries(Object.entries(v).map(([n, p]) => [n, strict(p)]));
    else if (k === 'allOf') out[k] = strict(v, true);
    else out[k] = typeof v === 'object' ? strict(v) : v;
  }
  // A branch of an allOf only adds rules to the members the other branches declare.
  if (!partOfAllOf && s.properties && s.additionalProperties === undefined && !s.allOf && !s.oneOf && !s.anyOf) out.additionalProperties = false;
  return out;
}

/** Validators of one document's answers, compiled once per (operation, status). */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv.addSchema(strict({ components: doc.components }) as Schema, 'openapi.json');
  }

  /** What is wrong with one answer of `def`, or undefined when the document describes it exactly. */
  check(def: RouteDef, status: number, contentType: string, body: string | undefined): string | undefined {
    const op = this.doc.paths[openapiPath(def.url)]?.[def.method.toLowerCase()];
    if (!op) return 'the operation is not in the document';
    const response = op.responses[String(status)];
    if (!response) return `status ${status} is not documented (declare it in the route's \`responses\` or \`errors\`)`;
    const media = Object.keys(response.content ?? {});
    const sent = contentType.split(';')[0]!.trim().toLowerCase();
    // A documented answer without content (204, 304): nothing may be sent.
    if (!media.length) return sent === '' && !body ? undefined : `a body was sent ("${contentType}") where the document describes none`;
    if (!media.includes(sent)) return `content type "${contentType}" is not the documented ${media.join(', ') || '(no body)'}`;
    if (sent !== 'application/json') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(body ?? '');
    } catch {
      return 'the body is not JSON';
    }
    const key = `${def.method} ${def.url} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(strict(response.content!['application/json']!.schema) as Schema);
      this.compiled.set(key, validate);
    }
    if (validate(value)) return undefined;
    const e = validate.errors![0]!;
    const extra = e.keyword === 'additionalProperties' ? ` "${String(e.params.additionalProperty)}"` : e.keyword === 'enum' ? ` ${JSON.stringify(e.params.allowedValues)}` : '';
    return `body ${e.instancePath || '/'} ${e.message}${extra} (schema ${e.schemaPath})`;
  }
}

/** Adds the checking hook to a gateway when conformance is observed (tests only). */
export function checkResponsesWhenObserved(app: FastifyInstance, doc: OpenApiDocument): void {
  const report = observer;
  if (!report) return;
  const checker = new ResponseChecker(doc);
  app.addHook('onSend', async (req, reply, payload) => {
    const def = req.routeOptions.config.route;
    // Routes hidden from the document (the dashboard's page and asset routes) are not API operations.
    if (!def || req.method === 'HEAD' || (def.schema as { hide?: boolean } | undefined)?.hide) return payload;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    const contentType = String(reply.getHeader('content-type') ?? '');
    const problem = checker.check(def, reply.statusCode, contentType, body);
    if (problem) report({ operation: `${def.method} ${def.url}`, status: reply.statusCode, problem, body: (body ?? '(stream)').slice(0, 500) });
    return payload;
  });
}
