/** Small JSON-schema builders whose `x-error` names the spec error code for a bad value. */
export const str = (code: string, extra: Record<string, unknown> = {}) => ({ type: 'string', 'x-error': code, ...extra });
export const date = (code: string, description?: string) => str(code, { maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$', ...(description ? { description } : {}) });
export const country = (code = 'invalid_country') => str(code, { minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' });
export const currency = (code = 'invalid_currency') => str(code, { minLength: 3, maxLength: 3, pattern: '^[A-Z]{3}$' });
export const intString = (code: string, max = 18) => str(code, { pattern: `^[0-9]{1,${max}}$` });

export function query(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', additionalProperties: false, properties, required };
}

export function body(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', additionalProperties: false, properties, required };
}

export const errorResponse = {
  type: 'object',
  properties: { error: { type: 'string' }, detail: { type: 'string' } },
  required: ['error', 'detail'],
  additionalProperties: true,
};
