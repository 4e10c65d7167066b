import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V2_SCOPES } from '../src/keys';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';

const backends = await requireBackends(['postgres']);

const CALC_BODY = { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2024-06-01' };
const RESOLVE_BODY = { scheme: 'cn', exact_code: '01012100', catalog_version: 'CN2024', jurisdiction: 'DE', legal_date: '2024-06-01' };
const TX_ID = '00000000-0000-4000-8000-000000000000';

type Endpoint = { name: string; req: Omit<InjectOptions, 'headers'>; scopes: readonly string[]; legacy: boolean };

/** The spec's scope table (Authentication, item 3) for every authenticated route the gateway serves. */
const ENDPOINTS: Endpoint[] = [
  { name: 'POST /v1/vat/calculate', req: { method: 'POST', url: '/v1/vat/calculate', payload: CALC_BODY }, scopes: ['full', 'calculate-only'], legacy: true },
  { name: 'POST /v1/tax-class/resolve', req: { method: 'POST', url: '/v1/tax-class/resolve', payload: RESOLVE_BODY }, scopes: ['classification-resolve', 'full'], legacy: false },
  { name: 'POST /v1/integrations/{integration_id}/product-code-assignments', req: { method: 'POST', url: '/v1/integrations/1/product-code-assignments', payload: { scheme: 'cn', exact_code: '01012100', product_reference: 'p', requested_valid_from: '2026-01-01' } }, scopes: ['classification-write', 'full'], legacy: false },
  { name: 'GET /v1/transactions', req: { method: 'GET', url: '/v1/transactions' }, scopes: ['full', 'read-only'], legacy: false },
  { name: 'GET /v1/transactions/{id}', req: { method: 'GET', url: `/v1/transactions/${TX_ID}` }, scopes: ['full', 'read-only'], legacy: false },
  { name: 'POST /v1/transactions/{id}/replay', req: { method: 'POST', url: `/v1/transactions/${TX_ID}/replay` }, scopes: ['full', 'read-only'], legacy: false },
  { name: 'GET /v1/transactions/export', req: { method: 'GET', url: '/v1/transactions/export?from=2024-01-01&to=2024-01-31' }, scopes: ['full', 'read-only'], legacy: false },
  { name: 'GET /v1/transactions/aggregated', req: { method: 'GET', url: '/v1/transactions/aggregated' }, scopes: ['full', 'read-only'], legacy: false },
  { name: 'GET /v1/sources', req: { method: 'GET', url: '/v1/sources' }, scopes: ['full', 'read-only'], legacy: false },
  { name: 'GET /v1/sources/unknown', req: { method: 'GET', url: '/v1/sources/unknown' }, scopes: ['full', 'read-only'], legacy: false },
  { name: 'POST /v1/sources', req: { method: 'POST', url: '/v1/sources', payload: { source_key: 'scope-probe', display_name: 'Probe', channel_type: 'test' } }, scopes: ['full'], legacy: false },
  { name: 'PATCH /v1/sources/{id}', req: { method: 'PATCH', url: '/v1/sources/999999', payload: { display_name: 'Renamed' } }, scopes: ['full'], legacy: false },
  { name: 'GET /v1/tax-registrations', req: { method: 'GET', url: '/v1/tax-registrations' }, scopes: ['full', 'read-only'], legacy: false },
  // A number that fails its check digit: answered offline (format_invalid), VIES is never asked.
  { name: 'POST /v1/vat-numbers/check', req: { method: 'POST', url: '/v1/vat-numbers/check', payload: { vat_number: 'DE136695977' } }, scopes: ['full', 'vat-number-check'], legacy: false },
  { name: 'GET /v1/vat-numbers/checks', req: { method: 'GET', url: '/v1/vat-numbers/checks' }, scopes: ['full', 'read-only'], legacy: false },
];

const PUBLIC: { name: string; req: InjectOptions; status: number }[] = [
  { name: 'GET /health', req: { method: 'GET', url: '/health' }, status: 200 },
  { name: 'GET /ready', req: { method: 'GET', url: '/ready' }, status: 200 },
  { name: 'GET /v1/tax-classes', req: { method: 'GET', url: '/v1/tax-classes' }, status: 200 },
  { name: 'GET /v1/tax-classes/{id}', req: { method: 'GET', url: '/v1/tax-classes/standard?country=DE' }, status: 200 },
  { name: 'GET /v1/vat/rates', req: { method: 'GET', url: '/v1/vat/rates?country=DE' }, status: 200 },
  { name: 'POST /v1/vat/sme-eligibility', req: { method: 'POST', url: '/v1/vat/sme-eligibility', payload: { country: 'DE', currency: 'EUR', annual_turnover_nac: 0, reference_date: '2026-06-01' } }, status: 200 },
  // Unprovisioned installation: a 404 catalog_unavailable, never a 401.
  { name: 'GET /v1/classification-codes/{scheme}/{code}', req: { method: 'GET', url: '/v1/classification-codes/cn/01012100' }, status: 404 },
];

describe.skipIf(!backends.ok)('gateway authentication and scopes', () => {
  let h: Harness;
  const keys = new Map<string, { key: string; id: string; accountId: string }>();
  let legacy: { key: string; id: string; accountId: string };

  beforeAll(async () => {
    h = await startHarness();
    for (const scope of V2_SCOPES) keys.set(scope, await h.key('scopes-acct', scope));
    legacy = await h.key('legacy-acct', 'legacy', true);
  });
  afterAll(async () => h?.close());

  const withKey = (req: Omit<InjectOptions, 'headers'>, key?: string) => h.inject({ ...req, headers: key === undefined ? {} : { 'x-api-key': key } } as InjectOptions);

  function expectNoKeyInBody(body: string, key: string) {
    expect(body).not.toContain(key);
    const secret = key.split('_').slice(2).join('_');
    if (secret.length > 0) expect(body).not.toContain(secret);
  }

  describe('missing key', () => {
    it.each(ENDPOINTS.map((e) => [e.name, e] as const))('%s without X-API-Key answers 401 missing_api_key', async (_n, e) => {
      const res = await withKey(e.req);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'missing_api_key', detail: expect.any(String) });
    });

    it('treats an empty X-API-Key header as missing', async () => {
      const res = await withKey({ method: 'GET', url: '/v1/transactions' }, '');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('missing_api_key');
    });
  });

  describe('invalid key', () => {
    async function expectInvalid(key: string) {
      for (const e of [ENDPOINTS[0]!, ENDPOINTS[2]!]) {
        const res = await withKey(e.req, key);
        expect(res.statusCode, `${e.name} with ${key}`).toBe(401);
        expect(res.json()).toEqual({ error: 'invalid_api_key', detail: expect.any(String) });
        expectNoKeyInBody(res.body, key);
      }
    }

    it('rejects garbage with 401 invalid_api_key', async () => {
      await expectInvalid('not-a-key');
      await expectInvalid('vat_');
      await expectInvalid(`${keys.get('full')!.key} `);
    });

    it('rejects a key of the right shape that was never issued', async () => {
      await expectInvalid(`vat_0123456789abcdef_${'A'.repeat(43)}`);
    });

    it('rejects a known key id with the wrong secret', async () => {
      const real = keys.get('full')!.key;
      const [prefix, publicId, ...rest] = real.split('_');
      const secret = rest.join('_');
      const wrong = `${prefix}_${publicId}_${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
      expect(wrong).not.toBe(real);
      await expectInvalid(wrong);
    });

    it('stops accepting a revoked key within the cache lifetime', async () => {
      const k = await h.key('revoke-acct', 'full');
      const req = { method: 'GET', url: '/v1/transactions' } as const;
      expect((await withKey(req, k.key)).statusCode).toBe(200);
      expect(await h.built.gateway!.keys.revoke(BigInt(k.id))).toBe(true);
      const deadline = Date.now() + 3000;
      let last = await withKey(req, k.key);
      while (last.statusCode !== 401 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        last = await withKey(req, k.key);
      }
      expect(last.statusCode).toBe(401);
      expect(last.json()).toEqual({ error: 'invalid_api_key', detail: expect.any(String) });
      expectNoKeyInBody(last.body, k.key);
    });
  });

  describe('scopes', () => {
    const cases = ENDPOINTS.flatMap((e) => V2_SCOPES.map((scope) => [e.name, scope, e.scopes.includes(scope), e] as const));

    it.each(cases)('%s with scope %s: allowed=%s', async (_n, scope, allowed, e) => {
      const key = keys.get(scope)!.key;
      const res = await withKey(e.req, key);
      if (allowed) {
        expect(res.statusCode, res.body).not.toBe(401);
        expect(res.statusCode === 403 && res.json().error === 'insufficient_scope', res.body).toBe(false);
        expect(res.statusCode, res.body).toBeLessThan(500);
      } else {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({ error: 'insufficient_scope', detail: expect.any(String) });
        expectNoKeyInBody(res.body, key);
      }
    });

    it('checks the scope before the body, so a wrong scope with a bad body still answers 403', async () => {
      const res = await h.inject({ method: 'POST', url: '/v1/sources', headers: { 'x-api-key': keys.get('read-only')!.key, 'content-type': 'application/json' }, payload: '{broken' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('insufficient_scope');
    });
  });

  describe('legacy keys', () => {
    it('calculate with a legacy key: 200, calculation_id null, unowned compatibility provenance', async () => {
      const res = await withKey({ method: 'POST', url: '/v1/vat/calculate', payload: CALC_BODY }, legacy.key);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.calculation_id).toBeNull();
      expect(body.vat_rate_bps).toBe(1900);
      expect(body.net_amount_minor).toBe(10000);
      expect(body.vat_amount_minor).toBe(1900);
      expect(body.calculation_provenance.ownership).toBe('unowned_compatibility');
      expect(body.calculation_provenance.replay_status).toBe('ineligible');
    });

    it('stores nothing: a V2 key of the same account sees no transaction, while its own calculation is stored', async () => {
      for (let i = 0; i < 3; i++) expect((await withKey({ method: 'POST', url: '/v1/vat/calculate', payload: CALC_BODY }, legacy.key)).statusCode).toBe(200);
      const v2 = await h.key('legacy-acct', 'full');
      const empty = await withKey({ method: 'GET', url: '/v1/transactions' }, v2.key);
      expect(empty.statusCode).toBe(200);
      expect(empty.json().items).toEqual([]);

      // Contrast: the same request with the V2 key is stored and listed.
      const own = await withKey({ method: 'POST', url: '/v1/vat/calculate', payload: CALC_BODY }, v2.key);
      expect(own.statusCode).toBe(200);
      const id = own.json().calculation_id;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(own.json().calculation_provenance.ownership).toBe('tenant_owned');
      const list = await withKey({ method: 'GET', url: '/v1/transactions' }, v2.key);
      expect(list.json().items.map((t: { id: string }) => t.id)).toEqual([id]);
    });

    it.each(ENDPOINTS.filter((e) => !e.legacy).map((e) => [e.name, e] as const))('%s with a legacy key answers 403 with a V2 hint', async (_n, e) => {
      const res = await withKey(e.req, legacy.key);
      expect(res.statusCode).toBe(403);
      const body = res.json();
      expect(body).toEqual({ error: 'insufficient_scope', detail: expect.any(String) });
      expect(body.detail).toMatch(/V2 key/);
      expectNoKeyInBody(res.body, legacy.key);
    });
  });

  describe('public endpoints', () => {
    it.each(PUBLIC.map((p) => [p.name, p] as const))('%s needs no key', async (_n, p) => {
      const res = await h.inject(p.req);
      expect(res.statusCode, res.body).toBe(p.status);
      if (p.status !== 200) expect(res.json().error).not.toMatch(/api_key|scope/);
    });
  });
});
