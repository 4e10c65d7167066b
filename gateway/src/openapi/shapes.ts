/**
 * Builders for the response schemas of the route table (`RouteDef.responses`) and the shared
 * components they point to. A property is required unless listed as optional: a generated client
 * then knows which members every answer carries.
 */
import type { ReportComponentName } from './report-components';

type Schema = Record<string, unknown>;

/** A `$ref` to a shared component of the document. */
export const ref = (name: ComponentName): Schema => ({ $ref: `#/components/schemas/${name}` });

export const string: Schema = { type: 'string' };
export const integer: Schema = { type: 'integer' };
export const boolean: Schema = { type: 'boolean' };
export const number: Schema = { type: 'number', description: 'a published figure (not an amount the service computes with)' };
export const dateTime: Schema = { type: 'string', format: 'date-time', description: 'RFC 3339 timestamp' };
export const day: Schema = { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' };
export const strings: Schema = { type: 'array', items: string };

/** The value or JSON null (an enumeration lists null too). */
export function nullable(s: Schema): Schema {
  if (typeof s.type === 'string') return { ...s, type: [s.type, 'null'], ...(Array.isArray(s.enum) ? { enum: [...(s.enum as unknown[]), null] } : {}) };
  return { anyOf: [s, { type: 'null' }] };
}

export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

export const enumOf = (values: readonly string[], description?: string): Schema => ({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** A JSON object with these members; all are required except those named in `optional`. */
export function object(properties: Record<string, Schema>, optional: readonly string[] = [], description?: string): Schema {
  return { type: 'object', properties, required: Object.keys(properties).filter((k) => !optional.includes(k)), ...(description ? { description } : {}) };
}

/** An object whose members are documented elsewhere (a service-built document section): any members. */
export const openObject = (description: string): Schema => ({ type: 'object', additionalProperties: true, description });

/** A list page: `items` and the keyset cursor of the next page (null on the last). */
export const page = (item: Schema): Schema => object({ items: arrayOf(item), next_cursor: ref('NextCursor') });

/** A downloaded file: the route's success body is not JSON (or, with `json`, JSON of that schema when asked for). */
export const file = (mediaType: string, json?: Schema) => ({ mediaType, ...(json ? { json } : {}) });

const money = { type: 'integer', description: 'Integer minor units of the currency (cents); exact, never rounded: sums may exceed 2^53 and are then still written as exact JSON integers' };

/** The shared components every route schema may `$ref`. */
export const COMPONENTS = {
  Error: {
    type: 'object',
    description: 'Every error answer: a stable machine code and a human text; some codes add documented members.',
    required: ['error', 'detail'],
    additionalProperties: true,
    properties: {
      error: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', description: 'stable machine-readable code; the operation lists the codes of each status' },
      detail: { type: 'string', description: 'human-readable explanation; never carries internals' },
      retry_after_seconds: { type: 'integer', description: '429 rate_limited: seconds to wait (also the Retry-After header)' },
      guidance: { type: 'string' },
      errors: { type: 'array', description: '400 invalid_supply_events: every refused item', items: { $ref: '#/components/schemas/ItemError' } },
      conflicting_registration_id: { type: 'integer', description: '409 registration_overlap' },
      blocking_registration_ids: { type: 'array', items: { type: 'integer' }, description: '422 eligibility refusals of Union OSS reports' },
    },
  },
  ItemError: {
    type: 'object',
    description: 'One refused item of a batch',
    required: ['index', 'event_id', 'field', 'error', 'detail'],
    properties: { index: { type: 'integer' }, event_id: { type: ['string', 'null'] }, field: { type: ['string', 'null'] }, error: { type: 'string' }, detail: { type: 'string' } },
  },
  MoneyMinor: money,
  NullableMoneyMinor: { ...money, type: ['integer', 'null'] },
  NextCursor: { type: ['string', 'null'], description: 'Opaque keyset cursor: send it as `cursor` for the next page; null on the last page' },
  QuarterKey: { type: 'string', pattern: '^\\d{4}-Q[1-4]$', description: 'Quarter key YYYY-Qn' },
  Country: { type: 'string', minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 (Greece: EL or GR as the field says)' },
  Currency: { type: 'string', minLength: 3, maxLength: 3, pattern: '^[A-Z]{3}$', description: 'ISO 4217 alphabetic code' },
  Notification: {
    description: 'A notification: an Article 59c mark (warning band entered, threshold crossed) or a return period past its due date',
    oneOf: [
      object({
        id: integer,
        kind: enumOf(['article_59c_warning_band_entered', 'article_59c_threshold_crossed']),
        year: integer,
        event_id: { type: 'string', description: 'the supply event that moved the total' },
        cumulative_minor: { ...money, description: 'the year\'s cumulative net amount after that event (EUR minor units)' },
        threshold_minor: money,
        currency: { $ref: '#/components/schemas/Currency' },
        occurred_at: dateTime,
        recorded_at: dateTime,
        created_at: dateTime,
        read: boolean,
        read_at: nullable(dateTime),
      }),
      object({
        id: integer,
        kind: enumOf(['return_period_overdue']),
        year: integer,
        scheme_type: enumOf(['union_oss', 'ioss']),
        period_key: { type: 'string', pattern: '^\\d{4}-(Q[1-4]|0[1-9]|1[0-2])$', description: 'YYYY-Qn (union_oss) or YYYY-MM (ioss)' },
        due_date: { ...day, description: 'the last day of the month after the period' },
        created_at: dateTime,
        read: boolean,
        read_at: nullable(dateTime),
      }),
    ],
  },
} as const;

export type ComponentName = keyof typeof COMPONENTS | ReportComponentName;

/** Marks a request-schema node as one of the shared components (the document writes a `$ref`). */
export const COMPONENT = 'x-component';
