import type { Clients } from '@vat/platform/clients';
import { num, sourceProfileJson } from '../json';
import type { RouteDef } from '../route';
import { arrayOf, dateTime, integer, object, string } from '../openapi/shapes';
import { SOURCE_PROFILE } from './response-shapes';
import { body, intOf, intParam, query, str } from './schemas';
import { READ_SCOPES } from './transactions';

const optionalText = (code: string, max: number) => ({ type: ['string', 'null'], maxLength: max, 'x-error': code, description: 'empty string clears; null or omitted keeps' });

const CHANNELS = ['owned_store', 'marketplace', 'subscription', 'pos', 'wholesale', 'test', 'other'];
const mutable = {
  display_name: str('invalid_display_name', { minLength: 1, maxLength: 200 }),
  channel_type: str('invalid_channel_type', { enum: CHANNELS }),
  platform: optionalText('invalid_platform', 100),
  default_country: optionalText('invalid_default_country', 2),
  default_currency: optionalText('invalid_default_currency', 3),
  supplier_establishment_country: optionalText('invalid_supplier_establishment_country', 2),
  dispatch_country: optionalText('invalid_dispatch_country', 2),
  marketplace_deemed_supplier: { type: ['boolean', 'null'], 'x-error': 'invalid_marketplace_deemed_supplier' },
  active: { type: ['boolean', 'null'], 'x-error': 'invalid_active' },
};

const undef = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

type Body = Record<string, string | boolean | null | undefined>;

/** The mutable fields of a profile body; null means "keep", like absence (the service decides the rest). */
function mutableFields(b: Body) {
  return {
    displayName: undef(b.display_name as string | null),
    channelType: undef(b.channel_type as string | null),
    platform: undef(b.platform as string | null),
    defaultCountry: undef(b.default_country as string | null),
    defaultCurrency: undef(b.default_currency as string | null),
    supplierEstablishmentCountry: undef(b.supplier_establishment_country as string | null),
    dispatchCountry: undef(b.dispatch_country as string | null),
    marketplaceDeemedSupplier: undef(b.marketplace_deemed_supplier as boolean | null),
    active: undef(b.active as boolean | null),
  };
}

export function sourceRoutes(clients: Clients): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/v1/sources',
      access: { scopes: READ_SCOPES },
      summary: 'Source profiles of the account with the profile caps',
      tags: ['sources'],
      schema: { querystring: query({}) },
      responses: { 200: object({ items: arrayOf(SOURCE_PROFILE), activeCount: integer, maxProfiles: integer, storedCount: integer, maxStoredProfiles: integer }) },
      errors: {},
      handler: async ({ call }) => {
        const r = await clients.sources.listSources({}, call);
        return { items: r.items.map(sourceProfileJson), activeCount: r.activeCount, maxProfiles: r.maxProfiles, storedCount: r.storedCount, maxStoredProfiles: r.maxStoredProfiles };
      },
    },
    {
      method: 'POST',
      url: '/v1/sources',
      access: { scopes: ['full'] },
      summary: 'Create a source profile',
      tags: ['sources'],
      schema: { body: body({ source_key: str('invalid_source_key', { minLength: 1, maxLength: 100 }), ...mutable }, ['source_key', 'display_name', 'channel_type']) },
      responses: { 201: SOURCE_PROFILE },
      errors: {
        400: ['invalid_source_key', 'invalid_display_name', 'invalid_channel_type', 'invalid_platform', 'invalid_default_country', 'invalid_default_currency', 'invalid_supplier_establishment_country', 'invalid_dispatch_country'],
        409: ['source_key_exists'],
        422: ['active_profile_limit_reached', 'stored_profile_limit_reached'],
      },
      handler: async ({ req, reply, call }) => {
        const b = req.body as Body;
        const r = await clients.sources.createSource({ ...mutableFields(b), sourceKey: b.source_key as string, displayName: b.display_name as string, channelType: b.channel_type as string }, call);
        reply.status(201);
        return sourceProfileJson(r.source!);
      },
    },
    {
      method: 'PATCH',
      url: '/v1/sources/:id',
      access: { scopes: ['full'] },
      summary: 'Update labels, channel metadata or archive state (source_key is immutable)',
      tags: ['sources'],
      schema: {
        params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        body: body({ source_key: { type: 'string', 'x-error': 'source_key_immutable' }, display_name: { ...mutable.display_name, type: ['string', 'null'] }, channel_type: { type: ['string', 'null'], enum: [...CHANNELS, null], 'x-error': 'invalid_channel_type' }, platform: mutable.platform, default_country: mutable.default_country, default_currency: mutable.default_currency, supplier_establishment_country: mutable.supplier_establishment_country, dispatch_country: mutable.dispatch_country, marketplace_deemed_supplier: mutable.marketplace_deemed_supplier, active: mutable.active }),
      },
      responses: { 200: SOURCE_PROFILE },
      errors: {
        400: ['source_key_immutable', 'invalid_display_name', 'invalid_channel_type', 'invalid_platform', 'invalid_default_country', 'invalid_default_currency', 'invalid_supplier_establishment_country', 'invalid_dispatch_country'],
        404: ['source_not_found'],
        422: ['active_profile_limit_reached'],
      },
      handler: async ({ req, call }) => {
        const { id } = req.params as { id: string };
        const b = (req.body ?? {}) as Body;
        const r = await clients.sources.updateSource({ ...mutableFields(b), id, sourceKey: b.source_key === undefined ? undefined : String(b.source_key) }, call);
        return sourceProfileJson(r.source!);
      },
    },
    {
      method: 'GET',
      url: '/v1/sources/unknown',
      access: { scopes: READ_SCOPES },
      summary: 'Raw X-Source-ID tags seen in transactions that have no profile',
      tags: ['sources'],
      schema: { querystring: query({ limit: { ...intParam('invalid_limit'), description: '1-500, default 50' } }) },
      responses: { 200: object({ items: arrayOf(object({ source_id: string, transaction_count: integer, first_seen: dateTime, last_seen: dateTime })) }) },
      errors: { 400: ['invalid_limit'] },
      handler: async ({ req, call }) => {
        const q = req.query as { limit?: string };
        const r = await clients.sources.listUnknownSources({ limit: intOf(q.limit) }, call);
        return { items: r.items.map((i) => ({ source_id: i.sourceId, transaction_count: num(i.transactionCount), first_seen: i.firstSeen, last_seen: i.lastSeen })) };
      },
    },
  ];
}
