import type { FastifyRequest } from 'fastify';
import type { Principal } from '@vat/platform/principal';
import { parseKey, secretMatches, type KeyRecord, type KeyStore } from './keys';
import { HttpError } from './errors';
import { CSRF_HEADER, csrfMatches, sessionTokenOf, type ActiveSession, type SessionStore } from './sessions';

/** Which keys a route accepts: `public`, or the scopes that may call it (plus whether legacy keys may). */
export type Access = 'public' | { scopes: readonly string[]; legacy?: boolean };

type CacheEntry = { at: number; record: KeyRecord | undefined };

/** Methods that change nothing; every other method sent with a session cookie must carry the CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const sessionOfRequest = new WeakMap<FastifyRequest, { session: ActiveSession; token: string }>();

/** The dashboard session a request was authenticated with (undefined for an X-API-Key request). */
export function requestSession(req: FastifyRequest): { session: ActiveSession; token: string } | undefined {
  return sessionOfRequest.get(req);
}

/**
 * Resolves `X-API-Key`, or else the dashboard's session cookie, to a principal. Key lookups are cached
 * for `ttlMs` (default 1 s), which bounds how long a revoked key keeps working; sessions are read each time.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  /** Lookups under way: requests that miss the cache together share one read (at each expiry, every connection missed at once). */
  private readonly loading = new Map<string, Promise<KeyRecord | undefined>>();
  constructor(private readonly keys: KeyStore, private readonly ttlMs = 1000, private readonly sessions?: SessionStore) {}

  async authenticate(req: FastifyRequest, access: Exclude<Access, 'public'>): Promise<Principal> {
    const header = req.headers['x-api-key'];
    const raw = Array.isArray(header) ? header[0] : header;
    if (raw === undefined || raw === '') {
      const token = sessionTokenOf(req);
      if (token !== undefined && this.sessions) return this.authenticateSession(req, token, access);
      throw new HttpError(401, 'missing_api_key', 'Send your API key in the X-API-Key header.');
    }
    return principalOf(await this.verifyKey(raw), access);
  }

  /** The live record of a presented key; 401 `invalid_api_key` for a malformed, unknown, wrong or revoked one. */
  async verifyKey(raw: string): Promise<KeyRecord> {
    const parsed = parseKey(raw);
    const record = parsed ? await this.lookup(`p:${parsed.publicId}`, () => this.keys.findByPublicId(parsed.publicId)) : undefined;
    if (!parsed || !record || record.revoked || !secretMatches(parsed.secret, record.secretHash)) {
      throw new HttpError(401, 'invalid_api_key', 'The API key is not valid or has been revoked.');
    }
    return record;
  }

  private async authenticateSession(req: FastifyRequest, token: string, access: Exclude<Access, 'public'>): Promise<Principal> {
    const session = await this.sessions!.resolve(token);
    if (!session) throw new HttpError(401, 'session_expired', 'The dashboard session has ended (signed out, idle or expired); sign in again.');
    const record = await this.lookup(`i:${session.apiKeyId}`, () => this.keys.findById(session.apiKeyId));
    if (!record || record.revoked) throw new HttpError(401, 'invalid_api_key', 'The API key of this session has been revoked.');
    const principal = principalOf(record, access);
    if (!SAFE_METHODS.has(req.method) && !csrfMatches(req.headers[CSRF_HEADER], token)) {
      throw new HttpError(403, 'csrf_token_invalid', `A change made with a dashboard session must carry the session's ${CSRF_HEADER} header.`);
    }
    sessionOfRequest.set(req, { session, token });
    return principal;
  }

  private lookup(cacheKey: string, load: () => Promise<KeyRecord | undefined>): Promise<KeyRecord | undefined> {
    const now = Date.now();
    const hit = this.cache.get(cacheKey);
    if (hit && now - hit.at < this.ttlMs) return Promise.resolve(hit.record);
    // A request that comes while the same key is being read waits for that read (begun less than one read ago):
    // the revocation bound stays the cache's `ttlMs` from the read's start.
    let read = this.loading.get(cacheKey);
    if (!read) {
      read = load()
        .then((record) => {
          if (this.cache.size > 10_000) this.cache.clear();
          this.cache.set(cacheKey, { at: now, record });
          return record;
        })
        .finally(() => this.loading.delete(cacheKey));
      this.loading.set(cacheKey, read);
    }
    return read;
  }
}

function principalOf(record: KeyRecord, access: Exclude<Access, 'public'>): Principal {
  if (record.kind === 'legacy') {
    if (!access.legacy) throw new HttpError(403, 'insufficient_scope', 'Legacy keys may only call the calculation endpoints; this endpoint requires a V2 key.');
  } else if (!access.scopes.includes(record.scope)) {
    throw new HttpError(403, 'insufficient_scope', `This endpoint requires a key with scope ${access.scopes.join(' or ')}.`);
  }
  return { accountId: record.accountId, apiKeyId: record.id, keyKind: record.kind, scope: record.scope };
}
