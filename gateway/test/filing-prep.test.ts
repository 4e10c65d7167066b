import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { expectError, projectionCaughtUp, servicesSale, waitUntil, type Json, type Res } from './report-support';

const backends = await requireBackends(['postgres']);


const R = '/v1/reports';
const FP = `${R}/filing-prep`;
const MJ = `${R}/multi-jurisdiction`;

/** A B2C imported-goods sale to FR at 20 % in EUR: 100.00 net, 20.00 VAT, intrinsic value 100.00, origin CN. */
function imp(event_id: string, over: Json = {}): Json {
  return {
    event_id,
    event_type: 'sale',
    occurred_at: '2024-01-20',
    supply_kind: 'imported_goods',
    customer_type: 'b2c',
    country_of_consumption: 'FR',
    currency: 'EUR',
    net_amount_minor: 10000,
    vat_amount_minor: 2000,
    vat_rate_bps: 2000,
    rate_category: 'standard',
    classification_status: 'classified',
    intrinsic_value_eur_minor: 10000,
    third_country_origin: 'CN',
    ...over,
  };
}

/** A Union OSS B2C service from DE (the MSI) to FR at 20 %: 100.00 net, 20.00 VAT, on 2024-02-10 unless `over` says otherwise. */
const svc = (event_id: string, over: Json = {}): Json => servicesSale(event_id, '2024-02-10', over);


describe.skipIf(!backends.ok)('filing-prep and multi-jurisdiction (REST, PostgreSQL)', () => {
  let h: Harness;
  let db: pg.Pool;
  const k: Record<string, { key: string; accountId: string; id: string }> = {};
  const regs: Record<string, Json> = {};

  const get = (url: string, key: string | null = k.a!.key) => h.inject({ method: 'GET', url, headers: key ? { 'x-api-key': key } : {} }) as Promise<Res>;
  const post = (url: string, key: string, payload?: unknown) =>
    h.inject({ method: 'POST', url, headers: { 'x-api-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) }) as Promise<Res>;
  const ok = async (url: string, key?: string) => {
    const r = await get(url, key);
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Json;
  };
  async function commit(key: string, accountId: string, events: Json[]) {
    const r = await post('/v1/supply-events', key, { events });
    expect(r.statusCode, r.body).toBeLessThan(300);
    await projectionCaughtUp(db, accountId);
  }
  async function register(key: string, body: Json) {
    const r = await post('/v1/tax-registrations', key, body);
    expect(r.statusCode, r.body).toBe(201);
    return r.json() as Json;
  }

  beforeAll(async () => {
    h = await startHarness({ env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    for (const [name, account, scope] of [
      ['a', 'fp-a', 'full'],
      ['aRead', 'fp-a', 'read-only'],
      ['aCalc', 'fp-a', 'calculate-only'],
      ['b', 'fp-b', 'full'],
      ['none', 'fp-none', 'full'],
      ['split', 'fp-split', 'full'],
      ['c', 'fp-c', 'full'],
    ] as const) {
      k[name] = await h.key(account, scope);
    }
    db = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
    db.on('error', () => undefined);
    regs.aOss = await register(k.a!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    // IOSS from 15 January 2024: January is touched (events before the 15th are outside the window)
    regs.aIoss = await register(k.a!.key, { scheme_type: 'ioss', member_state_identification: 'IE', vat_registration_number: 'IM3720000224', effective_from: '2024-01-15', status: 'active' });
    await register(k.b!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    // two union_oss registrations each covering part of 2025-Q3
    regs.split1 = await register(k.split!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', effective_to: '2025-08-15', status: 'ended' });
    regs.split2 = await register(k.split!.key, { scheme_type: 'union_oss', member_state_identification: 'FR', effective_from: '2025-08-16', status: 'active' });

    await commit(k.a!.key, k.a!.accountId, [
      svc('oss-fr'),
      // January: before the registration window
      imp('jan-early', { occurred_at: '2024-01-10' }),
      // January: intrinsic value exactly 150.00 EUR → included (Art. 369l: "not exceeding EUR 150"); 100.00 / 20.00 EUR
      imp('jan-150', { intrinsic_value_eur_minor: 15000 }),
      // January: 150.01 EUR → excluded
      imp('jan-15001', { occurred_at: '2024-01-21', intrinsic_value_eur_minor: 15001 }),
      // (February: no imported-goods events → nil_return_candidate)
      // March: USD to DE at 19 %, 100.00 USD net, 19.00 USD VAT, verified EUR value 93.03;
      //   rate of 2024-03-31 (Sunday; 1 April Easter Monday) → 2024-04-02 = 1.0749 USD per EUR
      //   10000 / 1.0749 = 9303.19… → 9303 cents; 1900 / 1.0749 = 1767.60… → 1768 cents
      imp('mar-usd', { occurred_at: '2024-03-05', country_of_consumption: 'DE', currency: 'USD', vat_rate_bps: 1900, vat_amount_minor: 1900, intrinsic_value_eur_minor: 9303 }),
      imp('mar-excise', { occurred_at: '2024-03-06', excise_goods: true }),
      imp('mar-origin', { occurred_at: '2024-03-07', third_country_origin: undefined }),
      // USD without a verified EUR value
      imp('mar-unverified', { occurred_at: '2024-03-08', currency: 'USD', intrinsic_value_eur_minor: undefined }),
      // March refund of half of the January 150.00 sale: a correction of 2024-01, VAT -10.00 EUR
      imp('mar-refund', { event_type: 'refund', original_event_id: 'jan-150', occurred_at: '2024-03-09', net_amount_minor: -5000, vat_amount_minor: -1000 }),
    ]);
    // b: an imported good without any IOSS registration, and a Union OSS sale of its own
    await commit(k.b!.key, k.b!.accountId, [imp('b-jan', { intrinsic_value_eur_minor: 5000 }), svc('b-oss', { net_amount_minor: 777, vat_amount_minor: 155 })]);
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  it('filing-prep: registrations, the Union OSS quarter and three IOSS months to the cent', async () => {
    const fp = await ok(`${FP}?period=2024-Q1`);
    expect(fp.report_kind).toBe('oss_ioss_filing_prep_workspace');
    expect(fp.period_key).toBe('2024-Q1');
    expect(fp.return_period).toBeNull();
    // as GET /v1/tax-registrations shows them: masked only
    const list = await ok('/v1/tax-registrations');
    expect(fp.registrations).toEqual(list.items);
    expect(JSON.stringify(fp)).not.toContain('IM3720000224');
    expect(fp.registrations.find((r: Json) => r.scheme_type === 'ioss').vat_registration_number_masked).toBe('IM******0224');

    expect(fp.union_oss).toMatchObject({ eligible: true, scheme_type: 'union_oss', period_key: '2024-Q1', member_state_identification: 'DE', return_currency: 'EUR' });
    expect(fp.union_oss.rows).toEqual([
      { section: '2a', member_state_of_consumption: 'FR', origin_member_state: null, supply_kind: 'services', vat_rate_bps: 2000, rate_type: 'STANDARD', taxable_amount_minor: 10000, vat_amount_minor: 2000, source_event_count: 1 },
    ]);

    const [jan, feb, mar] = fp.ioss.months as [Json, Json, Json];
    expect(fp.ioss).toMatchObject({ scheme_type: 'ioss', return_currency: 'EUR' });
    expect(fp.ioss.exchange_rates).toEqual([{ currency: 'USD', period_key: '2024-03', requested_date: '2024-03-31', rate_date: '2024-04-02', rate: '1.0749' }]);

    expect(jan).toMatchObject({ period_key: '2024-01', due_date: '2024-02-29', status: 'ready', registration_ids: [regs.aIoss!.id], return_currency: 'EUR' });
    // only jan-150: 100.00 net, 20.00 VAT
    expect(jan.rows).toEqual([{ member_state_of_consumption: 'FR', vat_rate_bps: 2000, taxable_amount_minor: 10000, vat_amount_minor: 2000, source_event_count: 1 }]);
    expect(jan.totals).toEqual({ taxable_amount_minor: 10000, current_vat_minor: 2000, correction_vat_minor: 0, payable_vat_minor: 2000 });
    expect(jan.warnings).toEqual([
      { code: 'consignment_above_150_eur_excluded', count: 1 },
      { code: 'outside_registration_window_excluded', count: 1 },
    ]);
    expect(jan.source_event_counts).toEqual({ total: 3, included: 1, excluded: 2 });

    expect(feb).toMatchObject({ period_key: '2024-02', due_date: '2024-03-31', status: 'nil_return_candidate', rows: [], corrections: [], balances: [], warnings: [] });
    expect(feb.totals).toEqual({ taxable_amount_minor: 0, current_vat_minor: 0, correction_vat_minor: 0, payable_vat_minor: 0 });
    expect(feb.source_event_counts).toEqual({ total: 0, included: 0, excluded: 0 });

    expect(mar).toMatchObject({ period_key: '2024-03', due_date: '2024-04-30', status: 'ready' });
    expect(mar.rows).toEqual([{ member_state_of_consumption: 'DE', vat_rate_bps: 1900, taxable_amount_minor: 9303, vat_amount_minor: 1768, source_event_count: 1 }]);
    expect(mar.corrections).toEqual([{ member_state_of_consumption: 'FR', original_period: '2024-01', vat_amount_minor: -1000 }]);
    // DE: 17.68 payable; FR: -10.00 correction, a negative balance that offsets nothing
    expect(mar.balances).toEqual([
      { member_state_of_consumption: 'DE', current_vat_minor: 1768, correction_vat_minor: 0, balance_minor: 1768, payable_vat_minor: 1768, included_in_grand_total: true },
      { member_state_of_consumption: 'FR', current_vat_minor: 0, correction_vat_minor: -1000, balance_minor: -1000, payable_vat_minor: 0, included_in_grand_total: false },
    ]);
    expect(mar.totals).toEqual({ taxable_amount_minor: 9303, current_vat_minor: 1768, correction_vat_minor: -1000, payable_vat_minor: 1768 });
    expect(mar.warnings).toEqual([
      { code: 'excise_goods_excluded', count: 1 },
      { code: 'third_country_origin_missing_excluded', count: 1 },
      { code: 'unverified_eur_value_excluded', count: 1 },
    ]);
    expect(mar.source_event_counts).toEqual({ total: 5, included: 2, excluded: 3 });

    const articles = (fp.official_basis as Json[]).map((b) => b.article);
    for (const a of ['Art. 369g', 'Art. 369l-369x', 'Art. 366(2)', 'Art. 369v', 'Art. 61', 'Annex III']) expect(articles).toContain(a);
  });

  it('multi-jurisdiction: per Member State, Union OSS sections 2a-2d beside the IOSS months', async () => {
    const mj = await ok(`${MJ}?period=2024-Q1`);
    expect(mj.report_kind).toBe('oss_ioss_multi_jurisdiction_preview');
    expect(mj.union_oss.totals).toEqual({ taxable_amount_minor: 10000, current_vat_minor: 2000, correction_vat_minor: 0, payable_vat_minor: 2000 });
    expect(mj.ioss.months.map((m: Json) => m.status)).toEqual(['ready', 'nil_return_candidate', 'ready']);
    const zero = { taxable_amount_minor: 0, vat_amount_minor: 0, source_event_count: 0 };
    expect(mj.jurisdictions).toEqual([
      {
        member_state_of_consumption: 'DE',
        union_oss: { return_currency: 'EUR', sections: { '2a': zero, '2b': zero, '2c': zero, '2d': zero }, correction_vat_minor: 0, balance_minor: 0, payable_vat_minor: 0, source_event_count: 0 },
        ioss: { return_currency: 'EUR', taxable_amount_minor: 9303, current_vat_minor: 1768, correction_vat_minor: 0, payable_vat_minor: 1768, months: ['2024-03'], source_event_count: 1 },
        event_counts: { union_oss: 0, ioss: 1, total: 1 },
      },
      {
        member_state_of_consumption: 'FR',
        union_oss: {
          return_currency: 'EUR',
          sections: { '2a': { taxable_amount_minor: 10000, vat_amount_minor: 2000, source_event_count: 1 }, '2b': zero, '2c': zero, '2d': zero },
          correction_vat_minor: 0,
          balance_minor: 2000,
          payable_vat_minor: 2000,
          source_event_count: 1,
        },
        // January 20.00 payable; March -10.00 correction: its own month's balance, payable 0 (no offset of January)
        ioss: { return_currency: 'EUR', taxable_amount_minor: 10000, current_vat_minor: 2000, correction_vat_minor: -1000, payable_vat_minor: 2000, months: ['2024-01', '2024-03'], source_event_count: 1 },
        event_counts: { union_oss: 1, ioss: 1, total: 2 },
      },
    ]);
    const ioss = (mj.warnings as Json[]).filter((w) => w.scheme_type === 'ioss');
    expect(ioss).toEqual([
      { scheme_type: 'ioss', period_key: '2024-01', code: 'consignment_above_150_eur_excluded', count: 1 },
      { scheme_type: 'ioss', period_key: '2024-01', code: 'outside_registration_window_excluded', count: 1 },
      { scheme_type: 'ioss', period_key: '2024-03', code: 'excise_goods_excluded', count: 1 },
      { scheme_type: 'ioss', period_key: '2024-03', code: 'third_country_origin_missing_excluded', count: 1 },
      { scheme_type: 'ioss', period_key: '2024-03', code: 'unverified_eur_value_excluded', count: 1 },
    ]);
    expect((mj.official_basis as Json[]).length).toBeGreaterThanOrEqual(6);
  });

  it('no IOSS registration: every month not_covered, its imported goods excluded; another account sees only its own data', async () => {
    const fp = await ok(`${FP}?period=2024-Q1`, k.b!.key);
    expect(fp.ioss.months.map((m: Json) => m.status)).toEqual(['not_covered', 'not_covered', 'not_covered']);
    expect(fp.ioss.months[0].warnings).toEqual([{ code: 'ioss_registration_missing_excluded', count: 1 }]);
    expect(fp.ioss.months[0].rows).toEqual([]);
    expect(fp.ioss.months[2].source_event_counts).toEqual({ total: 0, included: 0, excluded: 0 });
    expect(fp.ioss.exchange_rates).toEqual([]);
    expect(fp.registrations).toHaveLength(1);
    expect(fp.union_oss.totals).toEqual({ taxable_amount_minor: 777, current_vat_minor: 155, correction_vat_minor: 0, payable_vat_minor: 155 });
    const mj = await ok(`${MJ}?period=2024-Q1`, k.b!.key);
    expect(mj.jurisdictions).toHaveLength(1);
    expect(mj.jurisdictions[0]).toMatchObject({ member_state_of_consumption: 'FR', event_counts: { union_oss: 1, ioss: 0, total: 1 } });
    // a quarter without any events of a: nothing leaks from b
    const other = await ok(`${FP}?period=2024-Q2`);
    expect(other.ioss.months.map((m: Json) => m.status)).toEqual(['nil_return_candidate', 'nil_return_candidate', 'nil_return_candidate']);
  });

  it('without a union_oss registration: filing-prep still answers (union_oss not eligible); multi-jurisdiction is 422', async () => {
    const fp = await ok(`${FP}?period=2024-Q1`, k.none!.key);
    expect(fp.union_oss).toMatchObject({ eligible: false, error: 'registration_required', blocking_registration_ids: [] });
    expect(fp.registrations).toEqual([]);
    expect(fp.ioss.months.map((m: Json) => m.status)).toEqual(['not_covered', 'not_covered', 'not_covered']);
    const e = expectError(await get(`${MJ}?period=2024-Q1`, k.none!.key), 422, 'registration_required');
    expect(e.blocking_registration_ids).toEqual([]);
    const split = await ok(`${FP}?period=2025-Q3`, k.split!.key);
    expect(split.union_oss).toMatchObject({ eligible: false, error: 'registration_conflict', blocking_registration_ids: [regs.split1!.id, regs.split2!.id].sort((x, y) => x - y) });
    expect(split.registrations.map((r: Json) => r.id)).toEqual([regs.split2!.id, regs.split1!.id]);
    const c = expectError(await get(`${MJ}?period=2025-Q3`, k.split!.key), 422, 'registration_conflict');
    expect(c.blocking_registration_ids).toHaveLength(2);
  });

  it('a locked quarter carries its locked-period metadata', async () => {
    const lock = await post(`${R}/locked-return-periods/union-oss?period=2024-Q1`, k.b!.key);
    expect(lock.statusCode, lock.body).toBe(201);
    const fp = await ok(`${FP}?period=2024-Q1`, k.b!.key);
    expect(fp.return_period).toMatchObject({ scheme_type: 'union_oss', period_key: '2024-Q1', status: 'locked' });
    expect((await ok(`${FP}?period=2024-Q2`, k.b!.key)).return_period).toBeNull();
  });

  it('a USD refund in April of a January sale: a correction of 2024-01 at the January month-end rate', async () => {
    await register(k.c!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    await register(k.c!.key, { scheme_type: 'ioss', member_state_identification: 'IE', vat_registration_number: 'IM3720000225', effective_from: '2024-01-01', status: 'active' });
    await commit(k.c!.key, k.c!.accountId, [
      // ECB USD of 2024-01-31 (a Wednesday) = 1.0837: 10000 / 1.0837 = 9227.65… → 9228; 1900 / 1.0837 = 1753.25… → 1753
      imp('c-jan', { occurred_at: '2024-01-10', country_of_consumption: 'DE', currency: 'USD', vat_rate_bps: 1900, vat_amount_minor: 1900, intrinsic_value_eur_minor: 9228 }),
      // full refund in April: -1900 USD at the January rate → -1753
      imp('c-apr', { event_type: 'refund', original_event_id: 'c-jan', occurred_at: '2024-04-03', country_of_consumption: 'DE', currency: 'USD', vat_rate_bps: 1900, net_amount_minor: -10000, vat_amount_minor: -1900 }),
    ]);
    const q1 = await ok(`${FP}?period=2024-Q1`, k.c!.key);
    expect(q1.ioss.months[0].rows).toEqual([{ member_state_of_consumption: 'DE', vat_rate_bps: 1900, taxable_amount_minor: 9228, vat_amount_minor: 1753, source_event_count: 1 }]);
    expect(q1.ioss.exchange_rates).toEqual([{ currency: 'USD', period_key: '2024-01', requested_date: '2024-01-31', rate_date: '2024-01-31', rate: '1.0837' }]);
    const q2 = await ok(`${FP}?period=2024-Q2`, k.c!.key);
    const [apr, may] = q2.ioss.months as [Json, Json];
    expect(apr).toMatchObject({ period_key: '2024-04', status: 'ready', rows: [], corrections: [{ member_state_of_consumption: 'DE', original_period: '2024-01', vat_amount_minor: -1753 }] });
    expect(apr.totals).toEqual({ taxable_amount_minor: 0, current_vat_minor: 0, correction_vat_minor: -1753, payable_vat_minor: 0 });
    expect(may.status).toBe('nil_return_candidate');
    expect(q2.ioss.exchange_rates).toEqual([{ currency: 'USD', period_key: '2024-01', requested_date: '2024-01-31', rate_date: '2024-01-31', rate: '1.0837' }]);
  });

  it('bad input: period 400 invalid_period, unknown parameters 400; scopes', async () => {
    for (const u of [FP, MJ]) {
      for (const p of ['2025-Q5', '25-Q1', '2025-q1', '', '2021-Q2', '10000-Q1']) expectError(await get(`${u}?period=${encodeURIComponent(p)}`), 400, 'invalid_period');
      expectError(await get(u), 400, 'invalid_period');
      expectError(await get(`${u}?period=2024-Q1&period=2024-Q2`), 400, 'invalid_period');
      expectError(await get(`${u}?period=2024-Q1&extra=1`), 400, 'unknown_parameter');
      expect((await get(`${u}?period=2024-Q1`, k.aRead!.key)).statusCode).toBe(200);
      expectError(await get(`${u}?period=2024-Q1`, k.aCalc!.key), 403, 'insufficient_scope');
      expectError(await get(`${u}?period=2024-Q1`, null), 401, 'missing_api_key');
    }
  });

  it('IOSS month drill-down: every imported-goods event with its disposition and exclusion code; filters, paging, isolation, bad input', async () => {
    const EV = `${R}/ioss-monthly/events`;
    const jan = await ok(`${EV}?month=2024-01`);
    expect(jan).toMatchObject({ scheme_type: 'ioss', period_key: '2024-01', next_cursor: null });
    expect(jan.items.map((i: Json) => [i.event_id, i.disposition, i.warning_code, i.review])).toEqual([
      ['jan-early', 'excluded', 'outside_registration_window_excluded', 'needs_review'],
      ['jan-150', 'included', null, null],
      ['jan-15001', 'excluded', 'consignment_above_150_eur_excluded', 'informational'],
    ]);
    const mar = await ok(`${EV}?month=2024-03&disposition=excluded`);
    expect(mar.items.map((i: Json) => [i.event_id, i.reason])).toEqual([
      ['mar-excise', 'excise_goods_excluded'],
      ['mar-origin', 'third_country_origin_missing_excluded'],
      ['mar-unverified', 'unverified_eur_value_excluded'],
    ]);
    expect((await ok(`${EV}?month=2024-03&reason=excise_goods_excluded`)).items.map((i: Json) => i.event_id)).toEqual(['mar-excise']);
    expect((await ok(`${EV}?month=2024-03&member_state=DE`)).items.map((i: Json) => i.event_id)).toEqual(['mar-usd']);
    const first = await ok(`${EV}?month=2024-01&limit=2`);
    expect(first.items.map((i: Json) => i.event_id)).toEqual(['jan-early', 'jan-150']);
    expect((await ok(`${EV}?month=2024-01&limit=2&cursor=${first.next_cursor}`)).items.map((i: Json) => i.event_id)).toEqual(['jan-15001']);
    // another account's events do not exist for this one: b's own January lists only b-jan, not covered
    expect((await ok(`${EV}?month=2024-01`, k.b!.key)).items.map((i: Json) => [i.event_id, i.warning_code])).toEqual([['b-jan', 'ioss_registration_missing_excluded']]);
    expect((await get(`${EV}?month=2024-01`, k.aRead!.key)).statusCode).toBe(200);
    expectError(await get(`${EV}?month=2024-01`, k.aCalc!.key), 403, 'insufficient_scope');
    for (const m of ['2024-13', '2024-1', '2021-06', '']) expectError(await get(`${EV}?month=${m}`), 400, 'invalid_month');
    expectError(await get(EV), 400, 'invalid_month');
    expectError(await get(`${EV}?month=2024-01&disposition=all`), 400, 'invalid_disposition');
    expectError(await get(`${EV}?month=2024-01&reason=domestic_supply`), 400, 'invalid_reason');
    expectError(await get(`${EV}?month=2024-01&cursor=xyz`), 400, 'invalid_cursor');
    expectError(await get(`${EV}?month=2024-01&period=2024-Q1`), 400, 'unknown_parameter');
  });
});

describe('filing-prep on the embedded database (npm start)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ embedded: true, env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('computes an IOSS month and the jurisdictions', async () => {
    const key = (await h.key('fp-embedded', 'full')).key;
    const send = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      h.inject({ method, url, headers: { 'x-api-key': key, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
    expect((await send('POST', '/v1/tax-registrations', { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' })).statusCode).toBe(201);
    expect((await send('POST', '/v1/tax-registrations', { scheme_type: 'ioss', member_state_identification: 'IE', vat_registration_number: 'IM3720000224', effective_from: '2025-01-01', status: 'active' })).statusCode).toBe(201);
    expect((await send('POST', '/v1/supply-events', imp('emb-imp', { occurred_at: '2025-11-05' }))).statusCode).toBe(201);
    await waitUntil(async () => (await send('GET', `${FP}?period=2025-Q4`)).json().ioss?.months?.[1]?.source_event_counts?.total === 1);
    const fp = (await send('GET', `${FP}?period=2025-Q4`)).json();
    // 100.00 EUR net, 20.00 EUR VAT to FR in November
    expect(fp.ioss.months.map((m: Json) => m.status)).toEqual(['nil_return_candidate', 'ready', 'nil_return_candidate']);
    expect(fp.ioss.months[1].totals).toEqual({ taxable_amount_minor: 10000, current_vat_minor: 2000, correction_vat_minor: 0, payable_vat_minor: 2000 });
    const mj = (await send('GET', `${MJ}?period=2025-Q4`)).json();
    expect(mj.jurisdictions).toHaveLength(1);
    expect(mj.jurisdictions[0]).toMatchObject({ member_state_of_consumption: 'FR', event_counts: { union_oss: 0, ioss: 1, total: 1 } });
  }, 60_000);
});
