import type { FastifySchemaValidationError } from 'fastify';
import { HttpError } from '../errors';

type PropertySchema = { 'x-error'?: string; 'x-error-missing'?: string; 'x-error-null'?: string; description?: string };
type ObjectSchema = { properties?: Record<string, PropertySchema>; 'x-error'?: string };

const CONTEXT_DEFAULT: Record<string, string> = {
  body: 'invalid_request',
  querystring: 'invalid_query',
  params: 'invalid_path',
  headers: 'invalid_header',
};

/**
 * Turns the first schema violation into the spec's error code. Each property schema may name its
 * code in `x-error` (and `x-error-missing` for absence); unknown properties are `unknown_field`.
 */
export function validationToHttpError(errors: FastifySchemaValidationError[], context: string, schema: ObjectSchema | undefined): HttpError {
  const first = errors[0];
  const fallback = CONTEXT_DEFAULT[context] ?? 'invalid_request';
  if (!first) return new HttpError(400, fallback, `The ${context} is invalid.`);
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'additionalProperties') {
    const name = String(params.additionalProperty);
    return new HttpError(400, context === 'querystring' ? 'unknown_parameter' : 'unknown_field', `Unknown ${context === 'querystring' ? 'query parameter' : 'field'} "${name}".`);
  }
  if (first.keyword === 'required') {
    const name = String(params.missingProperty);
    const prop = schema?.properties?.[name];
    const code = prop?.['x-error-missing'] ?? prop?.['x-error'] ?? fallback;
    // The detail names what is missing and what it is (e.g. the export's `from`), never a range or format error.
    return new HttpError(400, code, `"${name}" is required${prop?.description ? ` (${prop.description})` : ''}.`);
  }
  const path = first.instancePath.split('/').filter(Boolean);
  const top = path[0];
  if (top === undefined) {
    const code = schema?.['x-error'] ?? fallback;
    const what = context === 'body' ? 'The request body must be a JSON object.' : `The ${context} is invalid.`;
    return new HttpError(400, code, what);
  }
  const prop = schema?.properties?.[top];
  const isNull = path.length === 1 && (first as { data?: unknown }).data === null;
  const code = (isNull ? prop?.['x-error-null'] : undefined) ?? prop?.['x-error'] ?? fallback;
  return new HttpError(400, code, `"${path.join('.')}" ${first.message ?? 'is invalid'}.`);
}
