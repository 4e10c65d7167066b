import Ajv, { type ValidateFunction } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';

/**
 * The gateway validates only what HTTP and JSON decide: JSON types, required members, unknown
 * members, and the wire form of query strings that map to typed RPC fields (integers, booleans).
 * Every business rule a route schema documents for OpenAPI (patterns, enums, lengths, ranges,
 * formats) is enforced by the service, once; this projection removes them before compiling.
 */
const DOCUMENTATION_ONLY = new Set(['pattern', 'enum', 'const', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']);

/** JSON integers travel as int64 RPC fields: outside that range they cannot be carried at all. */
const INT64_WIRE = { minimum: -(2 ** 63), exclusiveMaximum: 2 ** 63 };

/** Marks a schema whose constraints are its wire format (kept by the projection). */
export const WIRE = 'x-wire';

type Schema = Record<string, unknown>;

function wireSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(wireSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Schema;
  const keepAll = s[WIRE] === true;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (!keepAll && DOCUMENTATION_ONLY.has(k)) continue;
    if (k === 'properties' && typeof v === 'object' && v !== null) out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, wireSchema(p)]));
    else if (k === 'items' || k === 'additionalProperties') out[k] = wireSchema(v);
    else out[k] = v;
  }
  if (!keepAll && (out.type === 'integer' || (Array.isArray(out.type) && out.type.includes('integer')))) Object.assign(out, INT64_WIRE);
  return out;
}

const ajv = new Ajv({ coerceTypes: false, allErrors: false, verbose: true, strict: false, useDefaults: false, removeAdditional: false });

type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/** Compiles the wire projection of a route schema (Ajv generates and compiles a function: milliseconds each). */
export function compileWireSchema(schema: unknown): ValidateFunction {
  return ajv.compile(wireSchema(schema) as Schema);
}

/**
 * Fastify validator compiler over the wire projection. Unknown members are reported before any
 * other violation (a caller with a typo learns about the typo first). The Ajv function is compiled on
 * the route's first request, not when Fastify gets ready: compiling the request schemas of every route
 * was the largest part of the gateway's start (docs/benchmarks.md, "Start time"). Every schema is compiled
 * by gateway/test/route-schemas.test.ts, so a broken one fails the suite rather than a first request.
 */
export function wireValidatorCompiler({ schema }: { schema: unknown }): Validator {
  let compiled: ValidateFunction | undefined;
  const s = schema as Schema;
  const known = s.additionalProperties === false && typeof s.properties === 'object' ? new Set(Object.keys(s.properties as object)) : undefined;
  const validate: Validator = (data) => {
    if (known && typeof data === 'object' && data !== null && !Array.isArray(data)) {
      const unknown = Object.keys(data).find((k) => !known.has(k));
      if (unknown !== undefined) {
        validate.errors = [{ keyword: 'additionalProperties', instancePath: '', schemaPath: '#/additionalProperties', params: { additionalProperty: unknown }, message: 'must NOT have additional properties' }];
        return false;
      }
    }
    compiled ??= compileWireSchema(schema);
    const ok = compiled(data);
    validate.errors = ok ? null : (compiled.errors as FastifySchemaValidationError[]);
    return ok;
  };
  return validate;
}
