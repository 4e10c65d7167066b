import { hasControlCharacter } from '@vat/platform/control-characters';
import { requestSession } from '../auth';
import { HttpError } from '../errors';
import type { RouteDef } from '../route';
import { csrfTokenFor, type ActiveSession } from '../sessions';
import type { WebDeps } from './index';
import { body, query, str } from './schemas';

/** Scopes a dashboard session may be opened with: the dashboard shows reports and, for `full`, their actions. */
export const SESSION_SCOPES = ['full', 'read-only'] as const;
const tags = ['sessions'];
const CURRENT = '/v1/sessions/current';

const sessionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account_id', 'scope', 'csrf_token', 'created_at', 'expires_at', 'idle_expires_at', 'idle_timeout_seconds'],
  properties: {
    account_id: { type: 'integer' },
    scope: { type: 'string', enum: [...SESSION_SCOPES] },
    csrf_token: { type: 'string', description: `Send as the X-CSRF-Token header on every write made with this session's cookie` },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time', description: 'absolute expiry' },
    idle_expires_at: { type: 'string', format: 'date-time', description: 'ends earlier when unused until then' },
    idle_timeout_seconds: { type: 'integer' },
  },
};

function sessionJson(s: ActiveSession, token: string, scope: string, idleMs: number) {
  return {
    account_id: Number(s.accountId),
    scope,
    csrf_token: csrfTokenFor(token),
    created_at: s.createdAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    idle_expires_at: s.idleExpiresAt.toISOString(),
    idle_timeout_seconds: Math.floor(idleMs / 1000),
  };
}

/** Dashboard sign-in: an API key, presented once, is exchanged for an HttpOnly session cookie. */
export function sessionRoutes(web: Pick<WebDeps, 'sessions' | 'auth'>): RouteDef[] {
  const sessionAccess = { scopes: SESSION_SCOPES };
  return [
    {
      method: 'POST',
      url: '/v1/sessions',
      access: 'public',
      limiter: 'default',
      summary: 'Dashboard sign-in: exchange an API key (scope full or read-only) for a session cookie (HttpOnly, SameSite=Strict); the key is not kept by the browser',
      tags,
      schema: { querystring: query({}), body: body({ api_key: str('invalid_api_key', { maxLength: 200, writeOnly: true }) }, ['api_key'], 'invalid_json') },
      responses: { 201: sessionSchema },
      errors: { 400: ['invalid_json', 'invalid_api_key', 'unknown_field', 'unknown_parameter'], 401: ['invalid_api_key'], 403: ['insufficient_scope'], 429: ['rate_limited'], 503: ['service_unavailable'] },
      handler: async ({ req, reply }) => {
        const { api_key: raw } = req.body as { api_key: string };
        if (hasControlCharacter(raw)) throw new HttpError(400, 'invalid_api_key', 'api_key contains a control character.');
        const key = await web.auth.verifyKey(raw);
        if (key.kind !== 'v2' || !(SESSION_SCOPES as readonly string[]).includes(key.scope)) {
          throw new HttpError(403, 'insufficient_scope', `The dashboard needs a key with scope ${SESSION_SCOPES.join(' or ')}.`);
        }
        const { token, session } = await web.sessions.create(key);
        web.sessions.setCookie(reply, token);
        reply.header('cache-control', 'no-store');
        reply.status(201);
        return sessionJson(session, token, key.scope, web.sessions.policy.idleMs);
      },
    },
    {
      method: 'GET',
      url: CURRENT,
      access: sessionAccess,
      summary: 'The dashboard session of the cookie: scope, CSRF token, expiry (404 no_session for an X-API-Key request)',
      tags,
      schema: { querystring: query({}) },
      responses: { 200: sessionSchema },
      errors: { 400: ['unknown_parameter'], 401: ['missing_api_key', 'invalid_api_key', 'session_expired'], 403: ['insufficient_scope'], 404: ['no_session'], 429: ['rate_limited'], 503: ['service_unavailable'] },
      handler: async ({ req, principal }) => {
        const current = requestSession(req);
        if (!current) throw new HttpError(404, 'no_session', 'This request was not made with a dashboard session.');
        return sessionJson(current.session, current.token, principal!.scope, web.sessions.policy.idleMs);
      },
    },
    {
      method: 'DELETE',
      url: CURRENT,
      access: sessionAccess,
      summary: 'Dashboard sign-out: revokes the session (also for every replica and after a restart) and clears the cookie',
      tags,
      schema: { querystring: query({}) },
      responses: { 204: { description: 'signed out: the session is revoked and its cookie cleared (no body)' } },
      errors: { 400: ['unknown_parameter'], 401: ['missing_api_key', 'invalid_api_key', 'session_expired'], 403: ['insufficient_scope', 'csrf_token_invalid'], 404: ['no_session'], 429: ['rate_limited'], 503: ['service_unavailable'] },
      handler: async ({ req, reply }) => {
        const current = requestSession(req);
        if (!current) throw new HttpError(404, 'no_session', 'This request was not made with a dashboard session.');
        await web.sessions.revoke(current.session.tokenHash);
        web.sessions.clearCookie(reply);
        return reply.status(204).send();
      },
    },
  ];
}
