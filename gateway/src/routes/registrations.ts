import type { Clients } from '@vat/platform/clients';
import { num, opt } from '../json';
import type { RouteDef } from '../route';
import { query } from './schemas';
import { READ_SCOPES } from './transactions';

export function registrationRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/tax-registrations',
      access: { scopes: READ_SCOPES },
      summary: 'OSS/IOSS registrations of the account, most recent effective window first (masked identifiers only)',
      tags: ['compliance'],
      schema: { querystring: query({}) },
      handler: async ({ call }) => {
        const r = await clients.registrations.listTaxRegistrations({}, call);
        return {
          items: r.items.map((t) => ({
            id: num(t.id),
            scheme_type: t.schemeType,
            member_state_identification: t.memberStateIdentification,
            vat_registration_number_masked: opt(t.vatRegistrationNumberMasked),
            ioss_intermediary_name: opt(t.iossIntermediaryName),
            ioss_intermediary_number_masked: opt(t.iossIntermediaryNumberMasked),
            effective_from: t.effectiveFrom,
            effective_to: opt(t.effectiveTo),
            status: t.status,
          })),
        };
      },
    },
  ];
}
