import { ConnectError } from '@connectrpc/connect';
import type { TaxRegistration } from '@vat/gen/vat/compliance_reports/v1/resources_pb';
import type { Clients } from '@vat/platform/clients';
import { HttpError, httpErrorFromConnect } from '../errors';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { arrayOf, object, ref } from '../openapi/shapes';
import { body, date, query, str } from './schemas';
import { READ_SCOPES } from './transactions';

const SCHEMES = ['union_oss', 'non_union_oss', 'ioss'];
const STATUSES = ['active', 'pending', 'ended', 'excluded'];
const KEEP_OR_CLEAR = 'Omit to keep, "" to clear; null is refused.';

const fields = {
  member_state_identification: str('invalid_member_state_identification', { pattern: '^[A-Z]{2}$', description: 'EU Member State of identification, ISO 3166-1 alpha-2 (Greece is GR)' }),
  vat_registration_number: str('invalid_vat_registration_number', {
    maxLength: 40,
    writeOnly: true,
    description: 'Full identifier, never returned: union_oss the VAT number of the Member State of identification (prefix EL for Greece); non_union_oss EU + 9 digits; ioss the IOSS number IM + 10 digits. Spaces, dots and hyphens are ignored.',
  }),
  ioss_intermediary_name: str('invalid_ioss_intermediary_name', { maxLength: 200, description: 'ioss only' }),
  ioss_intermediary_number: str('invalid_ioss_intermediary_number', { maxLength: 40, writeOnly: true, description: 'ioss only; IN + 10 digits; never returned' }),
  effective_from: date('invalid_effective_from', 'first day in force'),
  effective_to: date('invalid_effective_to', 'last day in force (inclusive); absent = open-ended'),
  status: str('invalid_status', { enum: STATUSES }),
};

const withPatchNotes = Object.fromEntries(
  Object.entries(fields).map(([name, s]) => [name, { ...s, description: `${(s as { description?: string }).description ?? ''}${(s as { description?: string }).description ? '. ' : ''}${KEEP_OR_CLEAR}` }]),
);

type Body = Record<string, string | undefined>;

/** The writable fields of a registration body, JSON names to RPC names; absence stays absence. */
function writableFields(b: Body) {
  return {
    memberStateIdentification: b.member_state_identification,
    vatRegistrationNumber: b.vat_registration_number,
    iossIntermediaryName: b.ioss_intermediary_name,
    iossIntermediaryNumber: b.ioss_intermediary_number,
    effectiveFrom: b.effective_from,
    effectiveTo: b.effective_to,
    status: b.status,
  };
}

/** A registration as every answer shows it (masked identifiers only); shared with filing-prep. */
const REGISTRATION = ref('TaxRegistration');

/** Refusals of a registration write (the service's registration rules). */
const WRITE_ERRORS = {
  400: ['invalid_scheme_type', 'invalid_member_state_identification', 'invalid_vat_registration_number', 'invalid_ioss_intermediary_name', 'invalid_ioss_intermediary_number', 'invalid_effective_from', 'invalid_effective_to', 'invalid_effective_window', 'effective_to_required', 'invalid_status', 'ioss_fields_not_allowed'],
  409: ['registration_overlap'],
  422: ['registration_limit_reached'],
} as const;

export function registrationJson(t: TaxRegistration) {
  return {
    id: num(t.id),
    scheme_type: t.schemeType,
    member_state_identification: t.memberStateIdentification,
    vat_registration_number_masked: opt(t.vatRegistrationNumberMasked),
    ioss_intermediary_name: opt(t.iossIntermediaryName),
    ioss_intermediary_number_masked: opt(t.iossIntermediaryNumberMasked),
    effective_from: t.effectiveFrom,
    effective_to: opt(t.effectiveTo),
    status: t.status,
    counts_toward_coverage: t.countsTowardCoverage,
    coverage_status: t.coverageStatus,
    conflicting_registration_ids: t.conflictingRegistrationIds.map(num),
  };
}

/** The documented extra of 409 `registration_overlap`: the conflicting id, as the integer ids are everywhere else. */
async function registrationCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    const http = httpErrorFromConnect(err);
    const id = http.extra.conflicting_registration_id;
    if (typeof id !== 'string' || !/^\d{1,15}$/.test(id)) throw http;
    throw new HttpError(http.status, http.code, http.detail, { ...http.extra, conflicting_registration_id: Number(id) });
  }
}

export function registrationRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/tax-registrations',
      access: { scopes: READ_SCOPES },
      summary: 'OSS/IOSS registrations of the account, most recent effective window first (masked identifiers only)',
      tags: ['compliance'],
      schema: { querystring: query({}) },
      responses: { 200: object({ items: arrayOf(REGISTRATION) }) },
      errors: {},
      handler: async ({ call }) => {
        const r = await clients.registrations.listTaxRegistrations({}, call);
        return { items: r.items.map(registrationJson) };
      },
    },
    {
      method: 'POST',
      url: '/v1/tax-registrations',
      access: { scopes: ['full'] },
      summary: 'Create an OSS/IOSS registration (the full identifiers are encrypted at rest and only shown masked)',
      tags: ['compliance'],
      schema: { body: body({ scheme_type: str('invalid_scheme_type', { enum: SCHEMES }), ...fields }, ['scheme_type', 'member_state_identification', 'effective_from', 'status']) },
      responses: { 201: REGISTRATION },
      errors: WRITE_ERRORS,
      handler: async ({ req, reply, call }) => {
        const b = req.body as Body;
        const r = await registrationCall(clients.registrations.createTaxRegistration({ ...writableFields(b), schemeType: b.scheme_type }, call));
        reply.status(201);
        return registrationJson(r.registration!);
      },
    },
    {
      method: 'PATCH',
      url: '/v1/tax-registrations/:id',
      access: { scopes: ['full'] },
      summary: 'Update a registration: omitted fields keep their value, "" clears an optional one; scheme_type is immutable',
      tags: ['compliance'],
      schema: {
        params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        body: body({ scheme_type: { type: 'string', 'x-error': 'scheme_type_immutable', description: 'refused: scheme_type cannot change' }, ...withPatchNotes }),
      },
      responses: { 200: REGISTRATION },
      errors: { ...WRITE_ERRORS, 400: [...WRITE_ERRORS[400], 'scheme_type_immutable'], 404: ['registration_not_found'] },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        const b = (req.body ?? {}) as Body;
        const r = await registrationCall(clients.registrations.updateTaxRegistration({ ...writableFields(b), id, schemeType: b.scheme_type }, call));
        return registrationJson(r.registration!);
      },
    },
  ];
}
