import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import pg from 'pg';
import { importCoverage, publishCoverage } from '../../services/classification/src/admin/coverage';
import { Workflow } from '../../services/classification/test/support';

const backends = await requireBackends(['postgres']);

const RESOLVE = { scheme: 'cn', exact_code: '01012100', catalog_version: '2024', jurisdiction: 'DE', legal_date: '2024-06-01' };

describe.skipIf(!backends.ok)('classification over REST (unprovisioned installation)', () => {
  let h: Harness;
  let resolver: string;
  beforeAll(async () => {
    h = await startHarness();
    resolver = (await h.key('class-acct', 'classification-resolve')).key;
  });
  afterAll(async () => h?.close());

  async function fails(res: { statusCode: number; json(): unknown; body: string }, status: number, code: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ error: code, detail: expect.any(String) });
  }

  describe('GET /v1/classification-codes/{scheme}/{code}', () => {
    it.each([
      ['cn', '01012100', ''],
      ['cn', '0101', ''],
      ['cn', '01', '?legal_date=2024-06-01'],
      ['cn', '01012100', '?legal_date=2021-01-01&catalog_version=2021'],
      ['cpa', '01.11.11', ''],
      ['cpa', '01.1', '?legal_date=2020-01-01'],
    ])('%s %s%s answers 404 catalog_unavailable with a detail (no catalog seeded)', async (scheme, code, qs) => {
      const res = await h.inject({ method: 'GET', url: `/v1/classification-codes/${scheme}/${code}${qs}` });
      await fails(res, 404, 'catalog_unavailable');
      expect(res.json().detail.length).toBeGreaterThan(10);
    });

    it('names the legal date it looked for in the detail', async () => {
      const res = await h.inject({ method: 'GET', url: '/v1/classification-codes/cn/01012100?legal_date=2023-04-05' });
      expect(res.json().detail).toContain('2023-04-05');
    });

    it.each([
      ['cn', 'abc'],
      ['cn', '0101210'],
      ['cn', '010121000'],
      ['cn', '1'],
      ['cn', '0101.21.00'],
      ['cpa', '01-11'],
      ['cpa', '01.111'],
      ['cpa', '01.11.11.111'],
      ['cn', '0'.repeat(25)],
    ])('%s code %s answers 400 invalid_code', async (scheme, code) => {
      await fails(await h.inject({ method: 'GET', url: `/v1/classification-codes/${scheme}/${encodeURIComponent(code)}` }), 400, 'invalid_code');
    });

    it.each(['xx', 'CN', 'hs', 'cpv'])('scheme %s answers 400 invalid_scheme', async (scheme) => {
      await fails(await h.inject({ method: 'GET', url: `/v1/classification-codes/${scheme}/01012100` }), 400, 'invalid_scheme');
    });

    it.each([
      ['legal_date=2024-6-1', 'invalid_legal_date'],
      ['legal_date=2024-02-30', 'invalid_legal_date'],
      ['legal_date=yesterday', 'invalid_legal_date'],
      ['catalog_version=' + 'v'.repeat(41), 'invalid_catalog_version'],
      ['catalog_version=%00', 'invalid_catalog_version'],
      ['catalog_version=', 'invalid_catalog_version'],
      ['catalog_version=2022%0D%0A', 'invalid_catalog_version'],
      ['catalog_version=CN2022', 'invalid_catalog_version'],
      ['scheme=cn', 'unknown_parameter'],
    ])('%s answers 400 %s', async (qs, code) => {
      await fails(await h.inject({ method: 'GET', url: `/v1/classification-codes/cn/01012100?${qs}` }), 400, code);
    });
  });

  describe('POST /v1/tax-class/resolve', () => {
    const resolve = (payload: unknown, key = resolver) => h.inject({ method: 'POST', url: '/v1/tax-class/resolve', headers: { 'x-api-key': key }, payload: payload as object });

    it('fails closed: 200 needs_review, not authoritative, no tax class', async () => {
      const res = await resolve(RESOLVE);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ status: 'needs_review', authoritative_for_mapping: false, tax_class_id: null, supply_kind: null, coverage_manifest: 'classification_coverage_v1' });
      expect(body.reasons).toEqual(expect.arrayContaining([expect.any(String)]));
      expect(body.reasons.length).toBeGreaterThan(0);
      expect(body.reasons).toEqual(['coverage_manifest_unpublished']);
      expect(Object.keys(body).sort()).toEqual([
        'authoritative_for_mapping', 'catalog_digest', 'catalog_version', 'coverage_manifest', 'coverage_manifest_digest', 'coverage_manifest_version', 'legal_reference',
        'matched_by', 'matched_code', 'matched_jurisdiction', 'not_final_tax_treatment', 'reasons', 'rule_id', 'status', 'supply_kind', 'tax_class_id',
      ]);
    });

    it.each([
      ['cpa', { ...RESOLVE, scheme: 'cpa', exact_code: '01.11.11', catalog_version: '2.1' }],
      ['another jurisdiction', { ...RESOLVE, jurisdiction: 'FR', legal_date: '2021-01-01' }],
      ['a chapter code', { ...RESOLVE, exact_code: '01' }],
    ])('stays needs_review for %s', async (_n, body) => {
      const res = await resolve(body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'needs_review', authoritative_for_mapping: false });
    });

    it('works with a full key too', async () => {
      const full = (await h.key('class-acct', 'full')).key;
      expect((await resolve(RESOLVE, full)).json().status).toBe('needs_review');
    });

    it.each([
      ['missing scheme', { ...RESOLVE, scheme: undefined }, 'invalid_scheme'],
      ['unknown scheme', { ...RESOLVE, scheme: 'hs' }, 'invalid_scheme'],
      ['scheme not a string', { ...RESOLVE, scheme: 1 }, 'invalid_scheme'],
      ['missing exact_code', { ...RESOLVE, exact_code: undefined }, 'invalid_code'],
      ['malformed CN code', { ...RESOLVE, exact_code: '0101210' }, 'invalid_code'],
      ['CPA-shaped code under cn', { ...RESOLVE, exact_code: '01.11.11' }, 'invalid_code'],
      ['code too long', { ...RESOLVE, exact_code: '1'.repeat(25) }, 'invalid_code'],
      ['missing catalog_version', { ...RESOLVE, catalog_version: undefined }, 'invalid_catalog_version'],
      ['catalog_version too long', { ...RESOLVE, catalog_version: 'x'.repeat(41) }, 'invalid_catalog_version'],
      ['empty catalog_version', { ...RESOLVE, catalog_version: '' }, 'invalid_catalog_version'],
      ['catalog_version with NUL', { ...RESOLVE, catalog_version: '2024\u0000' }, 'invalid_catalog_version'],
      ['catalog_version with CRLF', { ...RESOLVE, catalog_version: '2024\r\n' }, 'invalid_catalog_version'],
      ['CPA-style catalog_version for cn', { ...RESOLVE, catalog_version: '2.1' }, 'invalid_catalog_version'],
      ['missing jurisdiction', { ...RESOLVE, jurisdiction: undefined }, 'invalid_jurisdiction'],
      ['lower-case jurisdiction', { ...RESOLVE, jurisdiction: 'de' }, 'invalid_jurisdiction'],
      ['three-letter jurisdiction', { ...RESOLVE, jurisdiction: 'DEU' }, 'invalid_jurisdiction'],
      ['missing legal_date', { ...RESOLVE, legal_date: undefined }, 'invalid_legal_date'],
      ['impossible legal_date', { ...RESOLVE, legal_date: '2024-02-30' }, 'invalid_legal_date'],
      ['timestamp legal_date', { ...RESOLVE, legal_date: '2024-06-01T00:00:00Z' }, 'invalid_legal_date'],
      ['extra field', { ...RESOLVE, product_title: 'horse' }, 'unknown_field'],
      ['not an object', [RESOLVE], 'invalid_request'],
    ])('%s answers 400 %s', async (_n, body, code) => {
      await fails(await resolve(body), 400, code);
    });

    it('answers malformed JSON with 400 invalid_json', async () => {
      const res = await h.inject({ method: 'POST', url: '/v1/tax-class/resolve', headers: { 'x-api-key': resolver, 'content-type': 'application/json' }, payload: '{"scheme":' });
      await fails(res, 400, 'invalid_json');
    });

    it('requires a key with classification-resolve or full', async () => {
      await fails(await h.inject({ method: 'POST', url: '/v1/tax-class/resolve', payload: RESOLVE }), 401, 'missing_api_key');
      for (const scope of ['read-only', 'calculate-only', 'classification-write']) {
        await fails(await resolve(RESOLVE, (await h.key('class-acct', scope)).key), 403, 'insufficient_scope');
      }
    });
  });
});

describe.skipIf(!backends.ok)('classification over REST (provisioned: CPA 2.1 approved, a manifest published)', () => {
  let h: Harness;
  let pool: pg.Pool;
  let resolver: string;
  beforeAll(async () => {
    h = await startHarness();
    pool = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
    const w = new Workflow(pool);
    await w.enrol('alice', 'bob');
    await w.provision('cpa21');
    const rules = [{ rule_id: 'DE-CPA-62.01', jurisdiction: 'DE', scheme: 'cpa', catalog_version: '2.1', code: '62.01', coverage: 'full', legal_from: '2022-01-01', legal_to: null, tax_class_id: 'standard', supply_kind: 'services', status: 'approved', legal_reference: 'UStG § 12(1)' }];
    const manifest = await importCoverage(w.deps, { fileName: 'coverage.json', bytes: Buffer.from(JSON.stringify({ format: 'classification_coverage_v1', rules })), operator: 'alice' });
    w.nextStep();
    await publishCoverage(w.deps, { id: manifest.id, operator: 'bob', totp: w.code('bob') });
    resolver = (await h.key('class-prov', 'classification-resolve')).key;
  });
  afterAll(async () => {
    await pool?.end();
    await h?.close();
  });

  it('GET answers the code record with every field', async () => {
    const res = await h.inject({ method: 'GET', url: '/v1/classification-codes/cpa/62.01.11?legal_date=2026-03-01' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      scheme: 'cpa',
      normalized_code: '62.01.11',
      display_code: '62.01.11',
      level: 'subcategory',
      parent_code: '62.01.1',
      self_explanatory_text: 'IT design and development services for applications',
      legal_text: 'IT design and development services for applications',
      includes: expect.stringContaining('This subcategory includes'),
      excludes: expect.stringContaining('see 63.11.13'),
      source_url: 'https://github.com/eurostat/correspondenceTables',
      source_concept_id: '620111',
      catalog_version: '2.1',
      catalog_revision: 1,
      catalog_digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      legal_act: 'Commission Regulation (EU) No 1209/2014',
      applicable_from: '2015-01-01',
      applicable_to: null,
      recorded_at: expect.any(String),
      approved_at: expect.any(String),
    });
  });

  it.each([
    ['/v1/classification-codes/cpa/62.01.19', 404, 'code_not_found'],
    ['/v1/classification-codes/cpa/62.01.11?legal_date=2014-12-31', 404, 'catalog_unavailable'],
    ['/v1/classification-codes/cpa/62.01.11?catalog_version=2.2', 404, 'catalog_unavailable'],
    ['/v1/classification-codes/cpa/62.01.11?catalog_version=2.1&legal_date=2010-01-01', 422, 'catalog_version_outside_legal_date'],
    ['/v1/classification-codes/cn/01012100', 404, 'catalog_unavailable'],
  ])('GET %s answers %i %s', async (url, status, code) => {
    const res = await h.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ error: code, detail: expect.any(String) });
  });

  it('resolves through the published manifest, with the rule and both digests', async () => {
    const res = await h.inject({ method: 'POST', url: '/v1/tax-class/resolve', headers: { 'x-api-key': resolver }, payload: { scheme: 'cpa', exact_code: '62.01.11', catalog_version: '2.1', jurisdiction: 'DE', legal_date: '2026-03-01' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'resolved',
      authoritative_for_mapping: true,
      not_final_tax_treatment: true,
      supply_kind: 'services',
      tax_class_id: 'standard',
      rule_id: 'DE-CPA-62.01',
      matched_by: 'ancestor',
      matched_code: '62.01',
      coverage_manifest_version: 1,
      coverage_manifest_digest: expect.stringMatching(/^sha256:/),
      catalog_digest: expect.stringMatching(/^sha256:/),
      reasons: [],
    });
    const fr = await h.inject({ method: 'POST', url: '/v1/tax-class/resolve', headers: { 'x-api-key': resolver }, payload: { scheme: 'cpa', exact_code: '62.01.11', catalog_version: '2.1', jurisdiction: 'FR', legal_date: '2026-03-01' } });
    expect(fr.json()).toMatchObject({ status: 'needs_review', authoritative_for_mapping: false, reasons: ['unmapped'], tax_class_id: null });
  });
});

describe.skipIf(!backends.ok)('classification rate limits', () => {
  let h: Harness;
  let resolver: string;
  beforeAll(async () => {
    h = await startHarness({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    resolver = (await h.key('class-limit', 'classification-resolve')).key;
  });
  afterAll(async () => h?.close());

  // Fixed one-minute windows: with 8 calls at most one boundary falls inside the loop, so one window sees more than 3.
  async function statuses(req: () => Promise<{ statusCode: number; json(): { error?: string; retry_after_seconds?: number } }>) {
    const out: { status: number; error?: string; retry?: number }[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await req();
      out.push({ status: res.statusCode, error: res.statusCode >= 400 ? res.json().error : undefined, retry: res.statusCode === 429 ? res.json().retry_after_seconds : undefined });
    }
    return out;
  }

  it('limits POST /v1/tax-class/resolve per key with 429 rate_limited', async () => {
    const out = await statuses(() => h.inject({ method: 'POST', url: '/v1/tax-class/resolve', headers: { 'x-api-key': resolver }, payload: RESOLVE }));
    const limited = out.filter((o) => o.status === 429);
    expect(limited.length, JSON.stringify(out)).toBeGreaterThan(0);
    for (const l of limited) {
      expect(l.error).toBe('rate_limited');
      expect(l.retry).toBeGreaterThanOrEqual(1);
    }
  });

  it('limits the public GET /v1/classification-codes too (dedicated classification limit, no key needed)', async () => {
    const out = await statuses(() => h.inject({ method: 'GET', url: '/v1/classification-codes/cn/01012100' }));
    expect(out.filter((o) => o.status === 429).length, JSON.stringify(out)).toBeGreaterThan(0);
    expect(out.filter((o) => o.status === 429).every((o) => o.error === 'rate_limited')).toBe(true);
  });

  it('does not apply the classification limit to the other public endpoints', async () => {
    const out = await statuses(() => h.inject({ method: 'GET', url: '/v1/tax-classes?group=general' }));
    expect(out.every((o) => o.status === 200), JSON.stringify(out)).toBe(true);
  });
});

describe.skipIf(!backends.ok)('classification with the distributed limiter unavailable', () => {
  let h: Harness;
  let full: string;
  beforeAll(async () => {
    // Nothing listens on port 1: every limiter call fails.
    h = await startHarness({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    full = (await h.key('class-redis', 'full')).key;
  });
  afterAll(async () => h?.close());

  it('POST /v1/tax-class/resolve fails closed with 503 limiter_unavailable', async () => {
    const res = await h.inject({ method: 'POST', url: '/v1/tax-class/resolve', headers: { 'x-api-key': full }, payload: RESOLVE });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toEqual({ error: 'limiter_unavailable', detail: expect.any(String) });
    expect(res.headers['retry-after']).toBe('2');
  });

  it('GET /v1/classification-codes fails closed with 503 limiter_unavailable', async () => {
    const res = await h.inject({ method: 'GET', url: '/v1/classification-codes/cn/01012100' });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toEqual({ error: 'limiter_unavailable', detail: expect.any(String) });
  });

  it('the product-code assignment endpoints fail closed with 503 limiter_unavailable', async () => {
    const integration = (await h.built.gateway!.keys.createIntegration('class-redis', 'shop')).id;
    for (const [method, url] of [['POST', `/v1/integrations/${integration}/product-code-assignments`], ['GET', `/v1/integrations/${integration}/product-code-assignments`]] as const) {
      const res = await h.inject({ method, url, headers: { 'x-api-key': full }, ...(method === 'POST' ? { payload: { scheme: 'cpa', exact_code: '62.01.11', product_reference: 'p', requested_valid_from: '2026-01-01' } } : {}) });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error: 'limiter_unavailable', detail: expect.any(String) });
    }
  });

  it('other endpoints keep answering (only classification fails closed)', async () => {
    expect((await h.inject({ method: 'GET', url: '/v1/transactions', headers: { 'x-api-key': full } })).statusCode).toBe(200);
    expect((await h.inject({ method: 'GET', url: '/v1/tax-classes' })).statusCode).toBe(200);
  });
});
