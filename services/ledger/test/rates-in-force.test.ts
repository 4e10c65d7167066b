import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';

const backends = await requireBackends(['postgres']);

/** A B2C sale of services from DE, 100.00 net, at `bps` labelled `category`, on `day` (issue 19, point 1). */
function sale(event_id: string, country: string, bps: number, category: string, day = '2026-03-01', over: Record<string, unknown> = {}) {
  return {
    event_id,
    event_type: 'sale',
    occurred_at: day,
    supply_kind: 'services',
    customer_type: 'b2c',
    country_of_consumption: country,
    supplier_establishment_country: 'DE',
    currency: 'EUR',
    net_amount_minor: 10000,
    vat_amount_minor: bps,
    vat_rate_bps: bps,
    rate_category: category,
    classification_status: 'classified',
    ...over,
  };
}

describe.skipIf(!backends.ok)('a supply event carries a VAT rate in force (REST, PostgreSQL)', () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await startHarness();
    key = (await h.key('rates-acme', 'full')).key;
  });
  afterAll(async () => {
    await h?.close();
  });

  const post = (payload: unknown) => h.inject({ method: 'POST', url: '/v1/supply-events', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const refused = async (payload: unknown, error: string, field: string) => {
    const r = await post(payload);
    expect(r.statusCode, r.body).toBe(400);
    const body = r.json();
    expect(body.error).toBe('invalid_supply_events');
    expect(body.errors).toEqual([expect.objectContaining({ field, error })]);
    return body.errors[0].detail as string;
  };

  it('FR at 19 % labelled standard is refused with vat_rate_not_in_force naming the rates in force that day', async () => {
    const detail = await refused(sale('fr-19', 'FR', 1900, 'standard'), 'vat_rate_not_in_force', 'vat_rate_bps');
    expect(detail).toContain('FR on 2026-03-01');
    for (const bps of ['2000 (standard)', '1000 (reduced)', '550 (reduced)', '210 (super_reduced)']) expect(detail).toContain(bps);
  });

  it('a real rate with another kind is rate_category_mismatch: FR 0 % or 5.5 % labelled standard, 20 % labelled reduced', async () => {
    expect(await refused(sale('fr-0', 'FR', 0, 'standard'), 'rate_category_mismatch', 'rate_category')).toMatch(/vat_rate_bps 0 in FR on 2026-03-01 is exempt, not standard/);
    await refused(sale('fr-550', 'FR', 550, 'standard'), 'rate_category_mismatch', 'rate_category');
    await refused(sale('fr-2000r', 'FR', 2000, 'reduced'), 'rate_category_mismatch', 'rate_category');
    expect((await post(sale('fr-550-ok', 'FR', 550, 'reduced'))).statusCode).toBe(201);
    expect((await post(sale('fr-210-ok', 'FR', 210, 'super_reduced'))).statusCode).toBe(201);
  });

  it('the rate is the one in force on the tax point: EE 22 % until 30 June 2025, 24 % from 1 July 2025', async () => {
    expect((await post(sale('ee-22', 'EE', 2200, 'standard', '2025-06-30'))).statusCode).toBe(201);
    expect(await refused(sale('ee-22-late', 'EE', 2200, 'standard', '2025-07-01'), 'vat_rate_not_in_force', 'vat_rate_bps')).toContain('2400 (standard)');
    expect(await refused(sale('old', 'DE', 1900, 'standard', '2018-12-31'), 'vat_rate_not_in_force', 'vat_rate_bps')).toMatch(/no VAT rates of DE on 2018-12-31 \(it starts on 2019-01-01\)/);
  });

  it('a Madeira (PT-30) sale at a Madeira rate is accepted with its region and stored with it; without the region it is refused', async () => {
    const r = await post(sale('pt30-22', 'PT', 2200, 'standard', '2026-03-01', { region: 'PT-30' }));
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ region: 'PT-30', vat_rate_bps: 2200, rate_category: 'standard' });
    expect(await refused(sale('pt-22', 'PT', 2200, 'standard'), 'vat_rate_not_in_force', 'vat_rate_bps')).toContain('2300 (standard)');
    expect(await refused(sale('pt30-23', 'PT', 2300, 'standard', '2026-03-01', { region: 'PT-30' }), 'vat_rate_not_in_force', 'vat_rate_bps')).toMatch(/PT-30 \(PT\).*2200 \(standard\), 1200 \(reduced\), 400 \(reduced\)/);
    // Madeira's reduced rate went from 5 % to 4 % on 1 October 2024; the Azores' standard rate is 16 %.
    expect((await post(sale('pt30-5', 'PT', 500, 'reduced', '2024-09-30', { region: 'PT-30' }))).statusCode).toBe(201);
    await refused(sale('pt30-5-late', 'PT', 500, 'reduced', '2024-10-01', { region: 'PT-30' }), 'vat_rate_not_in_force', 'vat_rate_bps');
    expect((await post(sale('pt20-16', 'PT', 1600, 'standard', '2026-03-01', { region: 'PT-20' }))).statusCode).toBe(201);
  });

  it('a region without rates of its own, or of another country, is invalid_region', async () => {
    expect(await refused(sale('pt99', 'PT', 2300, 'standard', '2026-03-01', { region: 'PT-99' }), 'invalid_region', 'region')).toMatch(/PT-20, PT-30/);
    await refused(sale('es-cn', 'PT', 2300, 'standard', '2026-03-01', { region: 'ES-CN' }), 'invalid_region', 'region');
    await refused(sale('fr-20', 'FR', 2000, 'standard', '2026-03-01', { region: 'FR-20R' }), 'invalid_region', 'region');
  });

  it("a refund carries its original's rate, also after a rate change; another rate is refused", async () => {
    const refund = (event_id: string, bps: number, day: string, category = 'standard') =>
      sale(event_id, 'EE', bps, category, day, { event_type: 'refund', original_event_id: 'ee-22', net_amount_minor: -5000, vat_amount_minor: -(bps / 2) });
    expect((await post(refund('ee-22-refund', 2200, '2025-08-10'))).statusCode).toBe(201);
    expect(await refused(refund('ee-24-refund', 2400, '2025-08-10'), 'vat_rate_not_in_force', 'vat_rate_bps')).toMatch(/ee-22 has vat_rate_bps 2200/);
    await refused(refund('ee-22-reduced', 2200, '2025-08-10', 'reduced'), 'rate_category_mismatch', 'rate_category');
    // An original in the same batch counts too.
    const batch = await post({ events: [sale('lv-1', 'LV', 2100, 'standard'), { ...sale('lv-1-r', 'LV', 1200, 'reduced'), event_type: 'refund', original_event_id: 'lv-1', net_amount_minor: -10000, vat_amount_minor: -1200 }] });
    expect(batch.statusCode).toBe(400);
    expect(batch.json().errors).toEqual([expect.objectContaining({ index: 1, error: 'vat_rate_not_in_force' })]);
  });
});
