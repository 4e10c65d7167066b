import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';

const backends = await requireBackends(['postgres']);

describe.skipIf(!backends.ok)('gateway on PostgreSQL: keys and scopes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('answers /health and /ready', async () => {
    expect((await h.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    const ready = await h.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('rejects a missing key with 401 missing_api_key and a wrong scope with 403', async () => {
    const missing = await h.inject({ method: 'GET', url: '/v1/transactions' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toBe('missing_api_key');
    const calc = await h.key('acme', 'calculate-only');
    const wrong = await h.inject({ method: 'GET', url: '/v1/transactions', headers: { 'x-api-key': calc.key } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toBe('insufficient_scope');
  });
});

describe.skipIf(!backends.ok)('npm start with INTERNAL_TOKEN set', () => {
  it('serves authenticated calls: the token guards the network boundary, not calls inside the process', async () => {
    const h = await startHarness({ env: { INTERNAL_TOKEN: 'a-long-internal-token-for-the-test' } });
    try {
      const k = await h.key('token-acct', 'full');
      const r = await h.inject({ method: 'GET', url: '/v1/sources', headers: { 'x-api-key': k.key } });
      expect(r.statusCode, r.body).toBe(200);
    } finally {
      await h.close();
    }
  });
});
