import type { FastifyRequest } from 'fastify';
import type { Principal } from '@vat/platform/principal';
import { parseKey, secretMatches, type KeyStore } from './keys';
import { HttpError } from './errors';

/** Which keys a route accepts: `public`, or the scopes that may call it (plus whether legacy keys may). */
export type Access = 'public' | { scopes: readonly string[]; legacy?: boolean };

type CacheEntry = { at: number; record: Awaited<ReturnType<KeyStore['findByPublicId']>> };

/**
 * Resolves `X-API-Key` to a principal. Lookups are cached for `ttlMs` (default 1 s), which bounds
 * how long a revoked key keeps working.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  constructor(private readonly keys: KeyStore, private readonly ttlMs = 1000) {}

  async authenticate(req: FastifyRequest, access: Exclude<Access, 'public'>): Promise<Principal> {
    const header = req.headers['x-api-key'];
    const raw = Array.isArray(header) ? header[0] : header;
    if (raw === undefined || raw === '') throw new HttpError(401, 'missing_api_key', 'Send your API key in the X-API-Key header.');
    const parsed = parseKey(raw);
    const record = parsed ? await this.lookup(parsed.publicId) : undefined;
    if (!parsed || !record || record.revoked || !secretMatches(parsed.secret, record.secretHash)) {
      throw new HttpError(401, 'invalid_api_key', 'The API key is not valid or has been revoked.');
    }
    if (record.kind === 'legacy') {
      if (!access.legacy) throw new HttpError(403, 'insufficient_scope', 'Legacy keys may only call the calculation endpoints; this endpoint requires a V2 key.');
    } else if (!access.scopes.includes(record.scope)) {
      throw new HttpError(403, 'insufficient_scope', `This endpoint requires a key with scope ${access.scopes.join(' or ')}.`);
    }
    return { accountId: record.accountId, apiKeyId: record.id, keyKind: record.kind, scope: record.scope };
  }

  private async lookup(publicId: string) {
    const now = Date.now();
    const hit = this.cache.get(publicId);
    if (hit && now - hit.at < this.ttlMs) return hit.record;
    const record = await this.keys.findByPublicId(publicId);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(publicId, { at: now, record });
    return record;
  }
}
