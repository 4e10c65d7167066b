import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Account, ApiKey, Integration } from './entities';

export const V2_SCOPES = ['full', 'read-only', 'calculate-only', 'classification-resolve', 'classification-write', 'vat-number-check'] as const;
const LEGACY_SCOPE = 'legacy';

const KEY_PATTERN = /^vat_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

/** A new key: 80-bit lookup id plus a 256-bit secret; only the secret's SHA-256 is stored. */
function generateKey(): { publicId: string; secret: string; key: string; secretHash: string } {
  const publicId = randomBytes(10).toString('hex').slice(0, 16);
  const secret = randomBytes(32).toString('base64url');
  return { publicId, secret, key: `vat_${publicId}_${secret}`, secretHash: hashSecret(secret) };
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function parseKey(key: string): { publicId: string; secret: string } | undefined {
  const m = KEY_PATTERN.exec(key);
  return m ? { publicId: m[1]!, secret: m[2]! } : undefined;
}

/** Whether a presented secret's SHA-256 is the stored one (constant time; the one-shot digest, no hex round trip: every authenticated request runs it). */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = hash('sha256', secret, 'buffer');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type KeyRecord = { id: bigint; accountId: bigint; kind: 'v2' | 'legacy'; scope: string; revoked: boolean; secretHash: string };

/** Key administration; used by the admin CLI in both run modes. */
export class KeyStore {
  constructor(private readonly orm: MikroORM) {}

  async ensureAccount(name: string): Promise<{ id: bigint; name: string }> {
    const em = this.orm.em.fork();
    await em.getConnection().execute('insert into "gateway".account (name, created_at) values (?, now()) on conflict (name) do nothing', [name]);
    const acc = await em.findOneOrFail(Account, { name });
    return { id: acc.id, name: acc.name };
  }

  /** The account of this name, if there is one (the admin CLI acts for an account by name). */
  async findAccount(name: string): Promise<{ id: bigint; name: string } | undefined> {
    const acc = await this.orm.em.fork().findOne(Account, { name });
    return acc ? { id: acc.id, name: acc.name } : undefined;
  }

  async create(accountName: string, scope: string, legacy: boolean, label?: string) {
    if (!legacy && !(V2_SCOPES as readonly string[]).includes(scope)) throw new Error(`unknown scope ${scope}; one of ${V2_SCOPES.join(', ')}`);
    const account = await this.ensureAccount(accountName);
    const k = generateKey();
    const em = this.orm.em.fork();
    const row = em.create(ApiKey, {
      accountId: account.id,
      publicId: k.publicId,
      secretHash: k.secretHash,
      kind: legacy ? 'legacy' : 'v2',
      scope: legacy ? LEGACY_SCOPE : scope,
      label: label ?? null,
      createdAt: new Date(),
      calculationCount: 0n,
    });
    await em.flush();
    return { id: row.id.toString(), account: account.name, account_id: account.id.toString(), kind: row.kind, scope: row.scope, key: k.key, created_at: row.createdAt.toISOString() };
  }

  async list(accountName: string) {
    const em = this.orm.em.fork();
    const acc = await em.findOne(Account, { name: accountName });
    if (!acc) return [];
    const rows = await em.find(ApiKey, { accountId: acc.id }, { orderBy: { id: 'asc' } });
    return rows.map((r) => ({
      id: r.id.toString(),
      account: acc.name,
      kind: r.kind,
      scope: r.scope,
      key_prefix: `vat_${r.publicId}_…`,
      created_at: r.createdAt.toISOString(),
      revoked_at: r.revokedAt?.toISOString() ?? null,
      calculation_count: r.calculationCount.toString(),
      last_calculation_at: r.lastCalculationAt?.toISOString() ?? null,
    }));
  }

  async revoke(id: bigint): Promise<boolean> {
    const em = this.orm.em.fork();
    const row = await em.findOne(ApiKey, { id });
    if (!row) return false;
    row.revokedAt ??= new Date();
    await em.flush();
    return true;
  }

  async createIntegration(accountName: string, name: string) {
    const account = await this.ensureAccount(accountName);
    const em = this.orm.em.fork();
    const row = em.create(Integration, { accountId: account.id, name, createdAt: new Date() });
    await em.flush();
    return { id: row.id.toString(), account: account.name, name: row.name, created_at: row.createdAt.toISOString() };
  }

  async findByPublicId(publicId: string): Promise<KeyRecord | undefined> {
    const row = await this.orm.em.fork().findOne(ApiKey, { publicId });
    if (!row) return undefined;
    return { id: row.id, accountId: row.accountId, kind: row.kind === 'legacy' ? 'legacy' : 'v2', scope: row.scope, revoked: row.revokedAt !== null, secretHash: row.secretHash };
  }

  async findById(id: bigint): Promise<KeyRecord | undefined> {
    const row = await this.orm.em.fork().findOne(ApiKey, { id });
    if (!row) return undefined;
    return { id: row.id, accountId: row.accountId, kind: row.kind === 'legacy' ? 'legacy' : 'v2', scope: row.scope, revoked: row.revokedAt !== null, secretHash: row.secretHash };
  }

  async integrationOwnedBy(integrationId: bigint, accountId: bigint): Promise<boolean> {
    const row = await this.orm.em.fork().findOne(Integration, { id: integrationId, accountId });
    return row !== null;
  }
}
