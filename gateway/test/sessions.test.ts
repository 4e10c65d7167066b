import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type Built } from '@vat/deploy/build';
import { loadConfig } from '@vat/platform/config';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { SESSION_COOKIE } from '../src/sessions';

const backends = await requireBackends(['postgres']);

type Answer = LightMyRequestResponse;

/** The `vat_session` cookie a sign-in answer sets, and the attributes it is set with. */
function sessionCookie(res: Answer): { value: string; attributes: string } {
  const header = [res.headers['set-cookie']].flat().find((c) => typeof c === 'string' && c.startsWith(`${SESSION_COOKIE}=`));
  if (!header) throw new Error(`no session cookie in ${JSON.stringify(res.headers)}`);
  const [pair, ...attrs] = header.split(';');
  return { value: pair!.slice(SESSION_COOKIE.length + 1), attributes: attrs.join(';') };
}

describe.skipIf(!backends.ok)('dashboard sessions: an API key exchanged for an HttpOnly cookie', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let built: Built;
  let full: string;
  let readOnly: string;
  const start = async (env: Record<string, string> = {}) => {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '30', ...env });
    built = await build('all', config, pino({ level: 'silent' }));
    await built.gateway!.app.ready();
  };
  const inject = (o: InjectOptions) => built.gateway!.app.inject(o) as Promise<Answer>;
  const signIn = (key: string) => inject({ method: 'POST', url: '/v1/sessions', payload: { api_key: key } });
  const withCookie = (token: string, extra: Record<string, string> = {}) => ({ cookie: `${SESSION_COOKIE}=${token}`, ...extra });

  beforeAll(async () => {
    db = await freshDatabase();
    await start();
    full = (await built.gateway!.keys.create('sessions', 'full', false)).key;
    readOnly = (await built.gateway!.keys.create('sessions', 'read-only', false)).key;
  });
  afterAll(async () => {
    await built?.stop();
    await db?.drop();
  });

  it('signs in with a key: 201, HttpOnly SameSite=Strict cookie (not Secure unless configured), the CSRF token and expiries; the key is not in the answer', async () => {
    const res = await signIn(full);
    expect(res.statusCode, res.body).toBe(201);
    const c = sessionCookie(res);
    expect(c.attributes).toMatch(/HttpOnly/i);
    expect(c.attributes).toMatch(/SameSite=Strict/i);
    expect(c.attributes).not.toMatch(/Secure/i);
    expect(c.attributes).toMatch(/Path=\//);
    const body = res.json();
    expect(body.scope).toBe('full');
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(12 * 3600_000);
    expect(Date.parse(body.idle_expires_at) - Date.parse(body.created_at)).toBe(30 * 60_000);
    expect(res.body).not.toContain(full);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the cookie authenticates reads; writes need the CSRF header (403 csrf_token_invalid without it)', async () => {
    const res = await signIn(full);
    const token = sessionCookie(res).value;
    const csrf = res.json().csrf_token as string;
    const read = await inject({ method: 'GET', url: '/v1/tax-registrations', headers: withCookie(token) });
    expect(read.statusCode, read.body).toBe(200);
    const registration = { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: 'DE123456789', effective_from: '2025-01-01', status: 'active' };
    const noCsrf = await inject({ method: 'POST', url: '/v1/tax-registrations', headers: withCookie(token), payload: registration });
    expect(noCsrf.statusCode, noCsrf.body).toBe(403);
    expect(noCsrf.json().error).toBe('csrf_token_invalid');
    const wrongCsrf = await inject({ method: 'POST', url: '/v1/tax-registrations', headers: withCookie(token, { 'x-csrf-token': 'x'.repeat(43) }), payload: registration });
    expect(wrongCsrf.json().error).toBe('csrf_token_invalid');
    expect((await inject({ method: 'GET', url: '/v1/tax-registrations', headers: withCookie(token) })).json().items).toEqual([]);
    const ok = await inject({ method: 'POST', url: '/v1/tax-registrations', headers: withCookie(token, { 'x-csrf-token': csrf }), payload: registration });
    expect(ok.statusCode, ok.body).toBe(201);
    const current = await inject({ method: 'GET', url: '/v1/sessions/current', headers: withCookie(token) });
    expect(current.statusCode).toBe(200);
    expect(current.json().csrf_token).toBe(csrf);
  });

  it("a read-only key's session has the read-only scope: writes answer 403 insufficient_scope", async () => {
    const res = await signIn(readOnly);
    expect(res.json().scope).toBe('read-only');
    const token = sessionCookie(res).value;
    const lock = await inject({ method: 'POST', url: '/v1/reports/locked-return-periods/union-oss?period=2025-Q1', headers: withCookie(token, { 'x-csrf-token': res.json().csrf_token }) });
    expect(lock.statusCode, lock.body).toBe(403);
    expect(lock.json().error).toBe('insufficient_scope');
  });

  it('refuses wrong, revoked and narrow keys without a cookie', async () => {
    const wrong = await signIn(`${full.slice(0, -4)}AAAA`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('invalid_api_key');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const calc = (await built.gateway!.keys.create('sessions', 'calculate-only', false)).key;
    const narrow = await signIn(calc);
    expect(narrow.statusCode).toBe(403);
    expect(narrow.json().error).toBe('insufficient_scope');
    const missing = await inject({ method: 'POST', url: '/v1/sessions', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['set-cookie']).toBeUndefined();
  });

  it('a session dies with its key: revoking the key ends it (401)', async () => {
    const k = await built.gateway!.keys.create('sessions', 'full', false);
    const token = sessionCookie(await signIn(k.key)).value;
    expect((await inject({ method: 'GET', url: '/v1/sessions/current', headers: withCookie(token) })).statusCode).toBe(200);
    await built.gateway!.keys.revoke(BigInt(k.id));
    await new Promise((r) => setTimeout(r, 1100)); // the key cache holds a lookup for 1 s
    const after = await inject({ method: 'GET', url: '/v1/sessions/current', headers: withCookie(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('invalid_api_key');
  });

  it('sign-out revokes the session and clears the cookie; sessions and revocations survive a restart', async () => {
    const kept = await signIn(full);
    const keptToken = sessionCookie(kept).value;
    const gone = await signIn(full);
    const goneToken = sessionCookie(gone).value;
    const noCsrf = await inject({ method: 'DELETE', url: '/v1/sessions/current', headers: withCookie(goneToken) });
    expect(noCsrf.statusCode).toBe(403);
    const out = await inject({ method: 'DELETE', url: '/v1/sessions/current', headers: withCookie(goneToken, { 'x-csrf-token': gone.json().csrf_token }) });
    expect(out.statusCode, out.body).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Expires=Thu, 01 Jan 1970`));
    expect((await inject({ method: 'GET', url: '/v1/sessions/current', headers: withCookie(goneToken) })).json().error).toBe('session_expired');

    await built.stop();
    await start();
    expect((await inject({ method: 'GET', url: '/v1/sessions/current', headers: withCookie(keptToken) })).statusCode).toBe(200);
    const after = await inject({ method: 'GET', url: '/v1/tax-registrations', headers: withCookie(goneToken) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('session_expired');
  });

  it('idle and absolute expiry end a session (30 min unused, 12 h after sign-in; the store is given the clock)', async () => {
    const sessions = built.gateway!.sessions;
    const key = (await built.gateway!.keys.findByPublicId(full.split('_')[1]!))!;
    const t0 = new Date();
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    const idle = await sessions.create(key, t0);
    expect(await sessions.resolve(idle.token, at(29))).toBeDefined();
    expect(await sessions.resolve(idle.token, at(29 + 29))).toBeDefined(); // used at 29 min: idle counts from there
    expect(await sessions.resolve(idle.token, at(29 + 29 + 30))).toBeUndefined(); // 30 min unused
    const busy = await sessions.create(key, t0);
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) expect(await sessions.resolve(busy.token, at(minutes))).toBeDefined();
    expect(await sessions.resolve(busy.token, at(12 * 60))).toBeUndefined(); // absolute expiry, however busy
  });

  it('sign-in is rate limited like every call (429 rate_limited with Retry-After)', async () => {
    const answers = [];
    for (let i = 0; i < 35; i++) answers.push(await inject({ method: 'POST', url: '/v1/sessions', payload: { api_key: 'vat_0000000000000000_' + 'A'.repeat(43) } }));
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.json().error).toBe('rate_limited');
    expect(limited[0]!.headers['retry-after']).toBeDefined();
  });

  it('Secure is set on the cookie when SESSION_COOKIE_SECURE=true', async () => {
    await built.stop();
    await start({ SESSION_COOKIE_SECURE: 'true' });
    expect(sessionCookie(await signIn(full)).attributes).toMatch(/Secure/);
  });
});
