import { HttpError } from '../errors';
import { WIRE } from '../edge/validation';
import { COMPONENT } from '../openapi/shapes';

/**
 * JSON-schema builders for the route table. `x-error` names the spec code for a value of the wrong
 * JSON type; the other keywords document the service's rules in OpenAPI and are not enforced here
 * (see wire-schema.ts), except on `x-wire` schemas, whose constraint is the wire form itself.
 */
export const str = (code: string, extra: Record<string, unknown> = {}) => ({ type: 'string', 'x-error': code, ...extra });
export const date = (code: string, description?: string) => str(code, { maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$', ...(description ? { description } : {}) });
export const country = (code = 'invalid_country') => str(code, { minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', [COMPONENT]: 'Country' });
export const currency = (code = 'invalid_currency') => str(code, { minLength: 3, maxLength: 3, pattern: '^[A-Z]{3}$', [COMPONENT]: 'Currency' });
/** The quarter key of Union OSS routes (`YYYY-Qn`); the document shows the shared QuarterKey component. */
export const quarterKey = (description: string) => str('invalid_period', { pattern: '^\\d{4}-Q[1-4]$', description, [COMPONENT]: 'QuarterKey' });

/**
 * A query parameter carried as an integer RPC field: its wire form is a canonical decimal integer
 * that fits the field (9 digits for int32, 18 for int64).
 */
export const intParam = (code: string, digits: 9 | 18 = 9) => ({ type: 'string', pattern: `^(0|[1-9][0-9]{0,${digits - 1}})$`, 'x-error': code, [WIRE]: true });

/** A query parameter carried as a boolean RPC field. */
export const boolParam = (code: string) => ({ type: 'string', enum: ['true', 'false'], 'x-error': code, [WIRE]: true });

export function query(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', additionalProperties: false, properties, required };
}

/** A JSON object body; `notObject` is the code for a body that is valid JSON but not an object. */
export function body(properties: Record<string, unknown>, required: string[] = [], notObject?: string) {
  return { type: 'object', additionalProperties: false, properties, required, ...(notObject ? { 'x-error': notObject } : {}) };
}

/** Optional integer of a parsed query parameter. */
export const intOf = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

/** A header sent twice is an HTTP-level ambiguity the gateway refuses before any RPC. */
export function singleHeader(value: string | string[] | undefined, code: string, name: string): string | undefined {
  if (Array.isArray(value)) throw new HttpError(400, code, `Send ${name} once.`);
  return value;
}
