import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCoverage, publishCoverage } from '../../services/classification/src/admin/coverage';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { germanVatNumber, LocalVies } from '../../test/support/vies-server';
import { component, TreatmentDesk, v2Body, type Json, type Res } from './governed-support';

const backends = await requireBackends(['postgres']);

/** Evidence counts from the check's day on: the supplies are dated today, the checks are made now. */
const TODAY = new Date().toISOString().slice(0, 10);
const OWN_NUMBER = 'DE136695976';
const RULES = [
  { rule_id: 'EU-CPA-01', jurisdiction: 'EU', scheme: 'cpa', catalog_version: '2.1', code: '01', coverage: 'full', legal_from: '2015-01-01', legal_to: null, tax_class_id: 'food', supply_kind: 'goods', status: 'approved', legal_reference: 'VAT Directive Annex III point 1 (test rule)' },
  { rule_id: 'EU-CPA-62', jurisdiction: 'EU', scheme: 'cpa', catalog_version: '2.1', code: '62', coverage: 'full', legal_from: '2015-01-01', legal_to: null, tax_class_id: 'standard', supply_kind: 'services', status: 'approved', legal_reference: 'VAT Directive Art. 96 (test rule)' },
];
const WHEAT = { scheme: 'cpa', code: '01.11.11', catalog_version: '2.1' };
const IT_SERVICES = { scheme: 'cpa', code: '62.01.11', catalog_version: '2.1' };

describe.skipIf(!backends.ok)('v2 with the customer VAT number: VIES evidence decides cross-border B2B (REST, PostgreSQL, a local VIES)', () => {
  let h: Harness;
  let vies: LocalVies;
  let desk: TreatmentDesk;
  let db: pg.Client;
  let serial = 40000000;
  let idem = 0;
  const k: Record<string, string> = {};
  /** A German customer's number (check digit right, so VIES is asked); the supplier below is French. */
  const nextNumber = () => germanVatNumber(String(++serial));

  const post = (body: unknown, key = k.a!): Promise<Res> =>
    h.inject({ method: 'POST', url: '/v2/vat/calculate', headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': `vat-${++idem}` }, payload: JSON.stringify(body) });
  const check = async (key: string, vat_number: string) => {
    const r = await h.inject({ method: 'POST', url: '/v1/vat-numbers/check', headers: { 'x-api-key': key }, payload: { vat_number } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().check as Json;
  };
  /** Sold from France (established and dispatched there) to a German business customer. */
  const fromFrance = (over: Json, customerVatNumber: string | undefined) =>
    v2Body({ country: 'DE', tax_class_id: undefined, transaction_date: TODAY, ...over }, { customer_type: 'b2b', supplier_establishment_country: 'FR', dispatch_country: 'FR', destination_country: 'DE', ...(customerVatNumber ? { customer_vat_number: customerVatNumber } : {}) });

  beforeAll(async () => {
    vies = await new LocalVies().start();
    h = await startHarness({ env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), VIES_URL: vies.url, VIES_TIMEOUT_MS: '2000', VIES_RETRIES: '0', VIES_BACKOFF_MS: '10', VIES_STATUS_TTL_MS: '0', VIES_REUSE_DAYS: '30' } });
    desk = new TreatmentDesk(h);
    await desk.enrol();
    await desk.provision();
    await desk.w.provision('cpa21');
    const manifest = await importCoverage(desk.w.deps, { fileName: 'coverage.json', bytes: Buffer.from(JSON.stringify({ format: 'classification_coverage_v1', rules: RULES })), operator: 'alice' });
    desk.w.nextStep();
    await publishCoverage(desk.w.deps, { id: manifest.id, operator: 'bob', totp: desk.w.code('bob') });
    for (const [name, account] of [['a', 'gvat-a'], ['b', 'gvat-b']] as const) {
      k[name] = (await h.key(account, 'full')).key;
      const r = await h.inject({
        method: 'POST',
        url: '/v1/tax-registrations',
        headers: { 'x-api-key': k[name]! },
        payload: { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: OWN_NUMBER, effective_from: '2024-01-01', status: 'active' },
      });
      expect(r.statusCode, r.body).toBe(201);
    }
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await desk?.close();
    await h?.close();
    await vies?.close();
  });

  it('valid: services FR → DE are reverse-charged to the customer (Art. 44, 196), no VAT collected, citing the check and its consultation number', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    const c = await check(k.a!, number);
    expect(c.consultation_number).toEqual(expect.any(String));
    const res = await post(fromFrance({ classification: IT_SERVICES }, `${number.slice(0, 2)} ${number.slice(2)}`));
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d.status).toBe('partial');
    const s = component(d, 'sales_vat');
    expect(s).toMatchObject({
      treatment: 'reverse_charge',
      treatment_status: 'resolved',
      amount_status: 'zero_by_treatment',
      amount_minor: 0,
      jurisdiction: 'DE',
      place_of_supply_rule: 'cross_border_services_b2b',
      liable_party: 'customer',
      collection_point: 'customer_self_assessment',
      findings: [],
    });
    expect(s.legal_basis).toContain('Art. 196 (customer liable)');
    expect(s.provenance).toContain(`vat_number_check:${c.id}:valid:${c.consultation_number}:${c.checked_at}`);
    // The number is kept only masked (with its keyed digest) in the stored request, never in clear.
    const row = (await db.query('select canonical_request::text as c from calculation.governed_decision where id = $1', [d.decision_id])).rows[0];
    expect(row.c).toContain(`DE*****${number.slice(-4)}`);
    expect(row.c).not.toContain(number.slice(2));
  });

  it('valid: goods dispatched FR → DE are an exempt intra-Community supply in FR (Art. 138(1)), the customer liable for the acquisition', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    const c = await check(k.a!, number);
    const d = (await post(fromFrance({ classification: WHEAT }, number))).json();
    expect(component(d, 'sales_vat')).toMatchObject({ treatment: 'exempt_intra_community_supply', treatment_status: 'resolved', amount_status: 'zero_by_treatment', amount_minor: 0, jurisdiction: 'FR', liable_party: 'customer' });
    expect(component(d, 'sales_vat').legal_basis).toContain('Directive 2006/112/EC Art. 138(1) and 138(1a)');
    expect(component(d, 'sales_vat').provenance).toContain(`vat_number_check:${c.id}:valid:${c.consultation_number}:${c.checked_at}`);
  });

  it('unavailable (VIES down) or no check: the B2B supply stays incomplete as without a number', async () => {
    const number = nextNumber();
    vies.down = true;
    try {
      expect((await check(k.a!, number)).result).toBe('unavailable');
    } finally {
      vies.down = false;
    }
    for (const n of [number, nextNumber()]) {
      const res = await post(fromFrance({ classification: WHEAT }, n));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toBe('decision_incomplete');
      expect(component(res.json(), 'sales_vat')).toMatchObject({ treatment: 'exempt_intra_community_supply', treatment_status: 'incomplete', jurisdiction: 'FR', findings: ['customer_vat_identification_unverified'] });
    }
  });

  it('invalid: the customer is treated as a non-taxable person (B2C rules): a distance sale that needs the Art. 59c position', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'invalid');
    const c = await check(k.a!, number);
    expect(c.result).toBe('invalid');
    const res = await post(fromFrance({ classification: WHEAT }, number));
    const s = component(res.json(), 'sales_vat');
    // No Article 59c status for this account: the B2C distance sale is open on it, not on the VAT number.
    expect(s).toMatchObject({ place_of_supply_rule: 'distance_sale_goods_destination', treatment: 'taxable', liable_party: 'merchant', findings: ['article_59c_status_incomplete'] });
    expect(s.provenance).toContain(`vat_number_check:${c.id}:invalid:${c.consultation_number ?? ''}:${c.checked_at}`);
    // Services to an invalid number: the B2C rule (Art. 45, 58), not the reverse charge.
    expect(component((await post(fromFrance({ classification: IT_SERVICES }, number))).json(), 'sales_vat')).toMatchObject({ place_of_supply_rule: 'cross_border_services_b2c', liable_party: 'merchant' });
  });

  it("isolation: another account's valid check is no evidence; the number needs b2b and a prefix", async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    await check(k.a!, number);
    const res = await post(fromFrance({ classification: IT_SERVICES }, number), k.b!);
    expect(res.statusCode, res.body).toBe(422);
    expect(component(res.json(), 'sales_vat')).toMatchObject({ treatment: 'reverse_charge', treatment_status: 'incomplete', findings: ['service_type_unresolved'] });
    expect(component(res.json(), 'sales_vat').provenance).toContain(`vat_number_check:none:DE*****${number.slice(-4)}`);
    for (const [body, code] of [
      [v2Body({ transaction_date: TODAY }, { customer_vat_number: number }), 'invalid_customer_vat_number'],
      [fromFrance({ classification: WHEAT }, '12345'), 'invalid_customer_vat_number'],
    ] as const) {
      const r = await post(body);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().error).toBe(code);
    }
  });
});
