import { create } from '@bufbuild/protobuf';
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  CreateSourceResponseSchema,
  ListSourcesResponseSchema,
  ListUnknownSourcesResponseSchema,
  SourceService,
  UpdateSourceResponseSchema,
  type CreateSourceRequest,
  type UpdateSourceRequest,
} from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import type { SourceProfile as SourceProfileMsg } from '@vat/gen/vat/calculation/v1/resources_pb';
import { isIsoCountry } from '@vat/platform/countries';
import { isKnownCurrency } from '@vat/platform/currencies';
import { isValidSourceId } from '@vat/platform/http-inputs';
import { principalOf } from '@vat/platform/principal';
import { Code, invalidArgument, notFound, rpcError } from '@vat/platform/rpc-errors';
import type { ServiceDeps } from '@vat/platform/service-module';
import { SourceProfile } from '../entities/index';

export const MAX_ACTIVE_PROFILES = 100;
export const MAX_STORED_PROFILES = 500;
export const MAX_UNKNOWN_LIMIT = 500;
export const CHANNEL_TYPES = ['owned_store', 'marketplace', 'subscription', 'pos', 'wholesale', 'test', 'other'] as const;

type Profile = InferEntity<typeof SourceProfile>;

function toMessage(p: Profile): SourceProfileMsg {
  return {
    $typeName: 'vat.calculation.v1.SourceProfile',
    id: p.id,
    sourceKey: p.sourceKey,
    displayName: p.displayName,
    channelType: p.channelType,
    platform: p.platform ?? undefined,
    defaultCountry: p.defaultCountry ?? undefined,
    defaultCurrency: p.defaultCurrency ?? undefined,
    supplierEstablishmentCountry: p.supplierEstablishmentCountry ?? undefined,
    dispatchCountry: p.dispatchCountry ?? undefined,
    marketplaceDeemedSupplier: p.marketplaceDeemedSupplier,
    active: p.active,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

// Labels are plain text: no control characters (PostgreSQL cannot even store NUL).
const CONTROL = /[\u0000-\u001f\u007f]/;

const checkDisplayName = (v: string) => {
  if (v.trim().length === 0 || v.length > 200 || CONTROL.test(v)) throw invalidArgument('invalid_display_name', 'display_name must be 1 to 200 characters without control characters.');
};
const checkChannel = (v: string) => {
  if (!(CHANNEL_TYPES as readonly string[]).includes(v)) throw invalidArgument('invalid_channel_type', `channel_type must be one of ${CHANNEL_TYPES.join(', ')}.`);
};

/** Validates an optional text field; '' means "clear" (null), undefined means "keep". */
function optionalField(value: string | undefined, field: string, check: (v: string) => boolean, rule: string): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === '') return null;
  if (!check(value)) throw invalidArgument(`invalid_${field}`, `${field} ${rule}`);
  return value;
}

function optionalFields(req: CreateSourceRequest | UpdateSourceRequest) {
  const country = (v: string) => /^[A-Z]{2}$/.test(v) && isIsoCountry(v);
  return {
    platform: optionalField(req.platform, 'platform', (v) => v.length <= 100 && !CONTROL.test(v), 'must be at most 100 characters without control characters.'),
    defaultCountry: optionalField(req.defaultCountry, 'default_country', country, 'must be an ISO 3166-1 alpha-2 code.'),
    defaultCurrency: optionalField(req.defaultCurrency, 'default_currency', (v) => /^[A-Z]{3}$/.test(v) && isKnownCurrency(v), 'must be an ISO 4217 code.'),
    supplierEstablishmentCountry: optionalField(req.supplierEstablishmentCountry, 'supplier_establishment_country', country, 'must be an ISO 3166-1 alpha-2 code.'),
    dispatchCountry: optionalField(req.dispatchCountry, 'dispatch_country', country, 'must be an ISO 3166-1 alpha-2 code.'),
  };
}

/** Serializes profile writes per account inside the caller's transaction, so the caps cannot be raced past. */
async function lockAccountProfiles(em: EntityManager, accountId: bigint): Promise<void> {
  await em.getConnection().execute('select pg_advisory_xact_lock(hashtext(?))', [`source-profiles:${accountId}`], 'all', em.getTransactionContext());
}

const limitReached = (reason: string, detail: string) => rpcError(Code.FailedPrecondition, reason, detail);

export function sourceService(deps: ServiceDeps) {
  return (router: ConnectRouter) =>
    router.service(SourceService, {
      async listSources(_req, ctx) {
        const { accountId } = principalOf(ctx);
        const rows = await deps.orm.em.fork().find(SourceProfile, { accountId }, { orderBy: { active: 'desc', sourceKey: 'asc' } });
        return create(ListSourcesResponseSchema, {
          items: rows.map(toMessage),
          activeCount: rows.filter((r) => r.active).length,
          maxProfiles: MAX_ACTIVE_PROFILES,
          storedCount: rows.length,
          maxStoredProfiles: MAX_STORED_PROFILES,
        });
      },

      async createSource(req, ctx) {
        const { accountId } = principalOf(ctx);
        if (!isValidSourceId(req.sourceKey)) throw invalidArgument('invalid_source_key', 'source_key must be 1 to 100 letters, digits, _, - or /.');
        checkDisplayName(req.displayName);
        checkChannel(req.channelType);
        const fields = optionalFields(req);
        const active = req.active ?? true;
        const now = deps.now();
        const profile = await deps.orm.em.fork().transactional(async (em) => {
          await lockAccountProfiles(em, accountId);
          const existing = await em.find(SourceProfile, { accountId }, { fields: ['id', 'sourceKey', 'active'] });
          if (existing.some((p) => p.sourceKey === req.sourceKey)) throw rpcError(Code.AlreadyExists, 'source_key_exists', `A source profile for "${req.sourceKey}" already exists.`);
          if (existing.length >= MAX_STORED_PROFILES) throw limitReached('stored_profile_limit_reached', `An account keeps at most ${MAX_STORED_PROFILES} source profiles, archived ones included.`);
          if (active && existing.filter((p) => p.active).length >= MAX_ACTIVE_PROFILES) throw limitReached('active_profile_limit_reached', `An account has at most ${MAX_ACTIVE_PROFILES} active source profiles; archive one first.`);
          return em.create(SourceProfile, {
            accountId,
            sourceKey: req.sourceKey,
            displayName: req.displayName,
            channelType: req.channelType,
            platform: fields.platform ?? null,
            defaultCountry: fields.defaultCountry ?? null,
            defaultCurrency: fields.defaultCurrency ?? null,
            supplierEstablishmentCountry: fields.supplierEstablishmentCountry ?? null,
            dispatchCountry: fields.dispatchCountry ?? null,
            marketplaceDeemedSupplier: req.marketplaceDeemedSupplier ?? false,
            active,
            createdAt: now,
            updatedAt: now,
          });
        });
        return create(CreateSourceResponseSchema, { source: toMessage(profile) });
      },

      async updateSource(req, ctx) {
        const { accountId } = principalOf(ctx);
        if (req.displayName !== undefined) checkDisplayName(req.displayName);
        if (req.channelType !== undefined) checkChannel(req.channelType);
        const fields = optionalFields(req);
        const profile = await deps.orm.em.fork().transactional(async (em) => {
          await lockAccountProfiles(em, accountId);
          const p = await em.findOne(SourceProfile, { id: req.id, accountId });
          if (!p) throw notFound('source_not_found', 'No such source profile.');
          if (req.active === true && !p.active) {
            const active = await em.count(SourceProfile, { accountId, active: true });
            if (active >= MAX_ACTIVE_PROFILES) throw limitReached('active_profile_limit_reached', `An account has at most ${MAX_ACTIVE_PROFILES} active source profiles; archive one first.`);
          }
          if (req.displayName !== undefined) p.displayName = req.displayName;
          if (req.channelType !== undefined) p.channelType = req.channelType;
          if (req.marketplaceDeemedSupplier !== undefined) p.marketplaceDeemedSupplier = req.marketplaceDeemedSupplier;
          if (req.active !== undefined) p.active = req.active;
          for (const [k, v] of Object.entries(fields)) if (v !== undefined) (p as Record<string, unknown>)[k] = v;
          p.updatedAt = deps.now();
          return p;
        });
        return create(UpdateSourceResponseSchema, { source: toMessage(profile) });
      },

      async listUnknownSources(req, ctx) {
        const { accountId } = principalOf(ctx);
        const limit = req.limit === 0 ? 50 : req.limit;
        if (limit < 1 || limit > MAX_UNKNOWN_LIMIT) throw invalidArgument('invalid_limit', `limit must be 1 to ${MAX_UNKNOWN_LIMIT}.`);
        const rows = (await deps.orm.em.fork().getConnection().execute(
          `select c.source_id, count(*)::text as n,
                  to_char(min(c.transaction_date) at time zone 'UTC', 'YYYY-MM-DD') as first_seen,
                  to_char(max(c.transaction_date) at time zone 'UTC', 'YYYY-MM-DD') as last_seen
           from "calculation".calculation c
           where c.account_id = ? and c.source_id is not null
             and not exists (select 1 from "calculation".source_profile p where p.account_id = c.account_id and p.source_key = c.source_id)
           group by c.source_id order by count(*) desc, c.source_id limit ?`,
          [accountId.toString(), limit],
        )) as { source_id: string; n: string; first_seen: string; last_seen: string }[];
        return create(ListUnknownSourcesResponseSchema, {
          items: rows.map((r) => ({ sourceId: r.source_id, transactionCount: BigInt(r.n), firstSeen: r.first_seen, lastSeen: r.last_seen })),
        });
      },
    });
}
