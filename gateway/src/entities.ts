import { defineEntity, p } from '@mikro-orm/postgresql';
import { defineInboxEntity } from '@vat/platform/outbox-entities';

export const Account = defineEntity({
  name: 'Account',
  tableName: 'account',
  properties: {
    id: p.bigint().primary().autoincrement(),
    name: p.string().length(200).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint().index(),
    publicId: p.string().length(32).unique(),
    secretHash: p.string().length(64),
    kind: p.string().length(10),
    scope: p.string().length(40),
    label: p.string().length(200).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
    calculationCount: p.bigint().default(0),
    lastCalculationAt: p.datetime().nullable(),
  },
});

export const Integration = defineEntity({
  name: 'Integration',
  tableName: 'integration',
  properties: {
    id: p.bigint().primary().autoincrement(),
    accountId: p.bigint().index(),
    name: p.string().length(200),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A dashboard sign-in: only the SHA-256 of the cookie's token is stored; revocation is a timestamp. */
export const WebSession = defineEntity({
  name: 'WebSession',
  tableName: 'web_session',
  properties: {
    tokenHash: p.string().length(64).primary(),
    accountId: p.bigint().index(),
    apiKeyId: p.bigint().index(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
});

export const ProcessedEvent = defineInboxEntity();

export const gatewayEntities = [Account, ApiKey, Integration, WebSession, ProcessedEvent];
