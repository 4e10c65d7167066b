import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Clients } from '@vat/platform/clients';
import { buildGateway } from '../src/app';
import { loadDashboardAssets } from '../src/dashboard-assets';
import { MemoryLimiter } from '../src/limiter';

/** The gateway with a small built dashboard; only public routes are called, so no database is needed. */
async function gatewayWith(assets: ReturnType<typeof loadDashboardAssets>): Promise<FastifyInstance> {
  const app = await buildGateway({
    clients: {} as Clients,
    keys: {} as never,
    sessions: {} as never,
    limiter: new MemoryLimiter(),
    log: pino({ level: 'silent' }),
    bodyLimitBytes: 65536,
    rateLimitPerMinute: 600,
    readiness: async () => ({ ready: true, checks: [] }),
    dashboardAssets: assets ?? new Map(),
  });
  await app.ready();
  return app;
}

describe('the gateway serves the dashboard under /app/', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vat-dashboard-dist-'));
  let app: FastifyInstance;
  const INDEX = '<!doctype html><script type="module" src="/app/assets/main-ABC.js"></script>';
  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets/main-ABC.js'), 'console.log(1)');
    app = await gatewayWith(loadDashboardAssets(dir));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/ and /app redirect to /app/', async () => {
    for (const url of ['/', '/app']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe('/app/');
    }
  });

  it('every page path answers index.html with the strict CSP; reloading a bookmarked page works', async () => {
    for (const url of ['/app/', '/app/quarter?period=2026-Q3', '/app/quarter/events?period=2026-Q3&reason=x&cursor=abc', '/app/registrations']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self';/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('hashed assets are cached for a year, gzip when accepted, 304 on a matching ETag; unknown files 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/app/assets/main-ABC.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe('console.log(1)');
    const again = await app.inject({ method: 'GET', url: '/app/assets/main-ABC.js', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    for (const url of ['/app/assets/other.js', '/app/favicon.ico', '/app/quarter/x.js']) {
      const missing = await app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json().error).toBe('not_found');
    }
  });

  it('an unknown page parameter is refused like on every route', async () => {
    const res = await app.inject({ method: 'GET', url: '/app/quarter?bogus=1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('unknown_parameter');
  });

  it('without a build: 503 dashboard_not_built', async () => {
    const bare = await gatewayWith(loadDashboardAssets(join(dir, 'nowhere')));
    const res = await bare.inject({ method: 'GET', url: '/app/' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe('dashboard_not_built');
    await bare.close();
  });
});
