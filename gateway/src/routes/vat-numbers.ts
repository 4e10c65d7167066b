import type { VatNumberCheck } from '@vat/gen/vat/compliance_reports/v1/resources_pb';
import type { Clients } from '@vat/platform/clients';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { body, intOf, intParam, query, str } from './schemas';
import { READ_SCOPES } from './transactions';

/** The narrow scope a checkout holds to check its customers' numbers (and nothing else). */
export const VAT_NUMBER_CHECK_SCOPE = 'vat-number-check';

const RESULTS = ['valid', 'invalid', 'format_invalid', 'unavailable'];
const AVAILABILITY = ['Available', 'Unavailable', 'Monitoring Disabled', 'unknown'];
const nullableString = (description: string) => ({ type: ['string', 'null'], description });

/** The JSON schema of one check in an answer (the OpenAPI document is built from it). */
const checkSchema = {
  type: 'object',
  required: ['id', 'vat_number_masked', 'member_state', 'result', 'reason', 'checked_at', 'vies_request_date', 'consultation_number', 'name', 'address', 'requester_vat_number_masked', 'member_state_availability', 'attempts'],
  properties: {
    id: { type: 'integer' },
    vat_number_masked: { type: 'string', description: 'country prefix, asterisks, at most the last 4 characters; the number itself is never returned' },
    member_state: { type: 'string', description: 'VIES code of the Member State (EL for Greece)' },
    result: { type: 'string', enum: RESULTS, description: 'unavailable (VIES or the Member State did not answer) is never invalid' },
    reason: nullableString('unavailable: the VIES error (MS_UNAVAILABLE, TIMEOUT, SERVICE_UNAVAILABLE, MS_MAX_CONCURRENT_REQ, ...) or NETWORK_ERROR; format_invalid: the expected format'),
    checked_at: { type: 'string', format: 'date-time' },
    vies_request_date: nullableString('requestDate of the VIES answer'),
    consultation_number: nullableString('VIES requestIdentifier: proof of the check (sent when the account has a Union OSS registration with its VAT number)'),
    name: nullableString('as registered, when the Member State discloses it'),
    address: nullableString('as registered, when the Member State discloses it'),
    requester_vat_number_masked: nullableString('the account\'s own number sent as requester'),
    member_state_availability: { type: 'string', enum: AVAILABILITY, description: 'per VIES check-status when asked' },
    attempts: { type: 'integer', description: 'requests sent to VIES for this answer' },
  },
};

export function vatNumberCheckJson(c: VatNumberCheck) {
  return {
    id: num(c.id),
    vat_number_masked: c.vatNumberMasked,
    member_state: c.memberState,
    result: c.result,
    reason: opt(c.reason),
    checked_at: c.checkedAt,
    vies_request_date: opt(c.viesRequestDate),
    consultation_number: opt(c.consultationNumber),
    name: opt(c.name),
    address: opt(c.address),
    requester_vat_number_masked: opt(c.requesterVatNumberMasked),
    member_state_availability: c.memberStateAvailability,
    attempts: c.attempts,
  };
}

const AUTH_ERRORS = { 401: ['missing_api_key', 'invalid_api_key'], 403: ['insufficient_scope'], 429: ['rate_limited'], 503: ['service_unavailable'] } as const;

export function vatNumberRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/v1/vat-numbers/check',
      access: { scopes: ['full', VAT_NUMBER_CHECK_SCOPE] },
      summary: "Check a customer's VAT number: format and check digits, then VIES; every answer is kept as evidence (an outage answers unavailable, never invalid)",
      tags: ['compliance'],
      schema: { body: body({ vat_number: str('invalid_vat_number', { minLength: 1, maxLength: 60, writeOnly: true, description: 'with its country prefix (EL for Greece); spaces, dots and hyphens are ignored; never returned' }) }, ['vat_number']) },
      responses: { 200: { type: 'object', required: ['check', 'reused'], properties: { check: checkSchema, reused: { type: 'boolean', description: 'a valid or invalid answer younger than the reuse window (VIES_REUSE_DAYS) was returned' } } } },
      errors: { 400: ['invalid_vat_number', 'invalid_json', 'unknown_field'], ...AUTH_ERRORS },
      handler: async ({ req, call }) => {
        const b = req.body as { vat_number: string };
        const r = await clients.vatNumbers.checkVatNumber({ vatNumber: b.vat_number }, call);
        return { check: vatNumberCheckJson(r.check!), reused: r.reused };
      },
    },
    {
      method: 'GET',
      url: '/v1/vat-numbers/checks',
      access: { scopes: READ_SCOPES },
      summary: 'The VAT-number checks of the account, newest first (keyset cursor; numbers masked)',
      tags: ['compliance'],
      schema: { querystring: query({ cursor: str('invalid_cursor', { maxLength: 64 }), limit: { ...intParam('invalid_limit'), description: '1-200, default 50' } }) },
      responses: { 200: { type: 'object', required: ['items', 'next_cursor'], properties: { items: { type: 'array', items: checkSchema }, next_cursor: nullableString('pass as cursor for the next page; null on the last') } } },
      errors: { 400: ['invalid_cursor', 'invalid_limit', 'unknown_parameter'], ...AUTH_ERRORS },
      handler: async ({ req, call }) => {
        const q = req.query as { cursor?: string; limit?: string };
        const r = await clients.vatNumbers.listVatNumberChecks({ cursor: q.cursor, limit: intOf(q.limit) }, call);
        return { items: r.items.map(vatNumberCheckJson), next_cursor: opt(r.nextCursor) };
      },
    },
  ];
}
