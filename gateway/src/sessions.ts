import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MikroORM } from '@mikro-orm/postgresql';
import { WebSession } from './entities';

/** The dashboard's session cookie; its value is a 256-bit token whose SHA-256 is the stored row's key. */
export const SESSION_COOKIE = 'vat_session';
/** The header every write sent with a session cookie carries (double-submit of a token derived from the session). */
export const CSRF_HEADER = 'x-csrf-token';
/** A session's `last_seen_at` is written at most this often (each request would otherwise be a write). */
const TOUCH_EVERY_MS = 60_000;

export type SessionPolicy = {
  idleMs: number;
  absoluteMs: number;
  /** `Secure` on the cookie: the gateway is reached over TLS (behind a terminating proxy). */
  secureCookie: boolean;
};

export type ActiveSession = { tokenHash: string; accountId: bigint; apiKeyId: bigint; createdAt: Date; expiresAt: Date; idleExpiresAt: Date };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The CSRF token of a session: derived from its secret token, so nothing more is stored or guessable. */
export function csrfTokenFor(token: string): string {
  return createHash('sha256').update(`csrf:${token}`).digest('base64url');
}

export function csrfMatches(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(csrfTokenFor(token));
  return a.length === b.length && timingSafeEqual(a, b);
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The session token of a request's cookie, when it has one of the right shape. */
export function sessionTokenOf(req: FastifyRequest): string | undefined {
  // The cookie plugin does not parse every request (hook: false); the header is parsed here, where a session is wanted.
  const header = req.headers.cookie;
  const value = header ? req.server.parseCookie(header)[SESSION_COOKIE] : undefined;
  return value !== undefined && TOKEN.test(value) ? value : undefined;
}

/** Dashboard sessions in the gateway's own table: they and their revocation survive a restart and are shared by replicas. */
export class SessionStore {
  constructor(private readonly orm: MikroORM, readonly policy: SessionPolicy) {}

  async create(key: { id: bigint; accountId: bigint }, now = new Date()): Promise<{ token: string; session: ActiveSession }> {
    const token = randomBytes(32).toString('base64url');
    const em = this.orm.em.fork();
    const row = em.create(WebSession, {
      tokenHash: hashToken(token),
      accountId: key.accountId,
      apiKeyId: key.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + this.policy.absoluteMs),
      revokedAt: null,
    });
    await em.flush();
    return { token, session: this.view(row) };
  }

  /** The live session of a token, or undefined once it is unknown, revoked, idle too long or past its absolute expiry. */
  async resolve(token: string, now = new Date()): Promise<ActiveSession | undefined> {
    const em = this.orm.em.fork();
    const row = await em.findOne(WebSession, { tokenHash: hashToken(token) });
    if (!row || row.revokedAt !== null) return undefined;
    if (now >= row.expiresAt || now.getTime() - row.lastSeenAt.getTime() >= this.policy.idleMs) return undefined;
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      await em.nativeUpdate(WebSession, { tokenHash: row.tokenHash, revokedAt: null }, { lastSeenAt: now });
      row.lastSeenAt = now;
    }
    return this.view(row);
  }

  async revoke(tokenHash: string, now = new Date()): Promise<void> {
    await this.orm.em.fork().nativeUpdate(WebSession, { tokenHash, revokedAt: null }, { revokedAt: now });
  }

  setCookie(reply: FastifyReply, token: string): void {
    void reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', secure: this.policy.secureCookie, maxAge: Math.floor(this.policy.absoluteMs / 1000) });
  }

  clearCookie(reply: FastifyReply): void {
    void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: this.policy.secureCookie });
  }

  private view(row: { tokenHash: string; accountId: bigint; apiKeyId: bigint; createdAt: Date; lastSeenAt: Date; expiresAt: Date }): ActiveSession {
    const idle = new Date(row.lastSeenAt.getTime() + this.policy.idleMs);
    return { tokenHash: row.tokenHash, accountId: row.accountId, apiKeyId: row.apiKeyId, createdAt: row.createdAt, expiresAt: row.expiresAt, idleExpiresAt: idle < row.expiresAt ? idle : row.expiresAt };
  }
}
