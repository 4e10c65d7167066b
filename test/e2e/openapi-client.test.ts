import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_TYPES, generatedTypes } from '@vat/gateway/openapi/write';
import { startHarness, type Harness } from '../support/harness';
import type { paths } from './generated/vat-api';

/**
 * A client generated from the published document (openapi-typescript types + openapi-fetch) calls the
 * whole service in one process on embedded PGlite (as `npm start` runs it), over a real socket. Every
 * answer is also checked against the document (test/support/openapi-conformance.ts).
 */
describe('generated OpenAPI client against the running service (embedded)', () => {
  let h: Harness;
  let baseUrl: string;
  let api: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    h = await startHarness({ embedded: true, env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    baseUrl = (await h.built.listen()).replace(/\/$/, '');
    const { key } = await h.key('generated-client', 'full');
    api = createClient<paths>({ baseUrl, headers: { 'X-API-Key': key } });
  }, 120_000);
  afterAll(async () => h?.close());

  it('uses types generated from the /openapi.json the service serves', async () => {
    const served = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as unknown;
    expect(await generatedTypes(served), 'test/e2e/generated/vat-api.ts is stale: run `npm run openapi`').toBe(readFileSync(GENERATED_TYPES, 'utf8'));
  });

  it('calculates, registers, commits a supply event, reads the quarterly summary and locks the quarter', async () => {
    // 119.00 EUR gross at the German standard rate of 19 %: net = 11900 / 1.19 = 10000, VAT = 11900 - 10000 = 1900.
    const calc = await api.POST('/v1/vat/calculate', { body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2025-11-05' } });
    expect(calc.response.status, JSON.stringify(calc.error)).toBe(200);
    expect([calc.data!.net_amount_minor, calc.data!.vat_amount_minor, calc.data!.vat_rate_bps]).toEqual([10000, 1900, 1900]);

    const reg = await api.POST('/v1/tax-registrations', { body: { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' } });
    expect(reg.response.status, JSON.stringify(reg.error)).toBe(201);
    expect(reg.data!.scheme_type).toBe('union_oss');

    // A B2C service to France at 20 %: VAT = 10000 x 2000 / 10000 = 2000.
    const event = {
      event_id: 'gen-1',
      event_type: 'sale',
      occurred_at: '2025-11-05',
      supply_kind: 'services',
      customer_type: 'b2c',
      country_of_consumption: 'FR',
      supplier_establishment_country: 'DE',
      currency: 'EUR',
      net_amount_minor: 10000,
      vat_amount_minor: 2000,
      vat_rate_bps: 2000,
      rate_category: 'standard',
      classification_status: 'classified',
    } as const;
    const committed = await api.POST('/v1/supply-events', { body: event });
    expect(committed.response.status, JSON.stringify(committed.error)).toBe(201);
    const again = await api.POST('/v1/supply-events', { body: event });
    expect(again.response.status, 'an identical retry stores nothing').toBe(200);

    const summary = async () => api.GET('/v1/reports/oss-quarterly-summary', { params: { query: { period: '2025-Q4' } } });
    for (let i = 0; i < 150 && (await summary()).data?.total_source_event_count !== 1; i++) await new Promise((r) => setTimeout(r, 100));
    const s = await summary();
    expect(s.response.status).toBe(200);
    expect(s.data!.period_key).toBe('2025-Q4');
    expect(s.data!.totals).toEqual({ taxable_amount_minor: 10000, current_vat_minor: 2000, correction_vat_minor: 0, payable_vat_minor: 2000 });

    const lock = await api.POST('/v1/reports/locked-return-periods/union-oss', { params: { query: { period: '2025-Q4' } } });
    expect(lock.response.status, JSON.stringify(lock.error)).toBe(201);
    const twice = await api.POST('/v1/reports/locked-return-periods/union-oss', { params: { query: { period: '2025-Q4' } } });
    expect(twice.response.status).toBe(409);
    expect(twice.error!.error).toBe('period_already_locked');
  }, 60_000);

  it('gets the documented error codes as typed error bodies', async () => {
    const anonymous = createClient<paths>({ baseUrl });
    const res = await anonymous.POST('/v1/vat/calculate', { body: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 100, price_includes_vat: true } });
    expect(res.response.status).toBe(401);
    expect(res.error!.error).toBe('missing_api_key');
    const bad = await api.GET('/v1/reports/oss-quarterly-summary', { params: { query: { period: '2025-Q5' } } });
    expect([bad.response.status, bad.error!.error]).toEqual([400, 'invalid_period']);
  });
});
