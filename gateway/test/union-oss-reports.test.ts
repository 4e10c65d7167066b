import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '@vat/deploy/build';
import type { ServiceDeps } from '@vat/platform/service-module';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { expectError, projectionCaughtUp, servicesSale, waitUntil, type Json, type Res } from './report-support';

const backends = await requireBackends(['postgres']);


const R = '/v1/reports';
const LOCKED = `${R}/locked-return-periods/union-oss`;

/** The shared services sale, on 2026-02-10 unless `over` says otherwise. */
const ev = (event_id: string, over: Json = {}): Json => servicesSale(event_id, '2026-02-10', over);


describe.skipIf(!backends.ok)('Union OSS reports (REST, PostgreSQL)', () => {
  let h: Harness;
  let db: pg.Pool;
  const k: Record<string, { key: string; accountId: string; id: string }> = {};

  const get = (url: string, key: string | null = k.a!.key) => h.inject({ method: 'GET', url, headers: key ? { 'x-api-key': key } : {} }) as Promise<Res>;
  const post = (url: string, key: string | null = k.a!.key, payload?: unknown) =>
    h.inject({ method: 'POST', url, headers: { ...(key ? { 'x-api-key': key } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) }) as Promise<Res>;
  const ok = async (url: string, key?: string) => {
    const r = await get(url, key);
    expect(r.statusCode, r.body).toBe(200);
    return r;
  };

  /** Commits events for `key`'s account and waits until the report projection reflects the ledger head. */
  async function commit(key: string, accountId: string, events: Json[]) {
    const r = await post('/v1/supply-events', key, { events });
    expect(r.statusCode, r.body).toBeLessThan(300);
    await caughtUp(accountId);
  }
  async function caughtUp(accountId: string) {
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
      ['a', 'oss-a', 'full'],
      ['aRead', 'oss-a', 'read-only'],
      ['aCalc', 'oss-a', 'calculate-only'],
      ['b', 'oss-b', 'full'],
      ['none', 'oss-none', 'full'],
      ['split', 'oss-split', 'full'],
      ['dk', 'oss-dk', 'full'],
      ['stale', 'oss-stale', 'full'],
      ['late', 'oss-late', 'full'],
      ['clean', 'oss-clean', 'full'],
    ] as const) {
      k[name] = await h.key(account, scope);
    }
    db = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
    // The harness drops the database at the end, terminating whatever is still connected.
    db.on('error', () => undefined);
    await register(k.a!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    await register(k.b!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    await register(k.late!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    await register(k.clean!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    await register(k.stale!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
    await register(k.dk!.key, { scheme_type: 'union_oss', member_state_identification: 'DK', effective_from: '2021-07-01', status: 'active' });
    await register(k.split!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', effective_to: '2025-08-15', status: 'ended' });
    await register(k.split!.key, { scheme_type: 'union_oss', member_state_identification: 'FR', effective_from: '2025-08-16', status: 'active' });
    await register(k.none!.key, { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2025-01-01', status: 'pending' });
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  it('2024-Q1: a USD sale at the rate of the next publication day after a quarter ending on a Sunday, beside EUR goods', async () => {
    await commit(k.a!.key, k.a!.accountId, [
      // 100.00 USD net, 20.00 USD VAT; 2024-03-31 is a Sunday, 2024-04-01 Easter Monday: ECB rate of 2024-04-02 = 1.0749
      //   10000 / 1.0749 = 9303.19… → 9303 cents; 2000 / 1.0749 = 1860.63… → 1861 cents
      ev('q1-usd', { occurred_at: '2024-02-10', currency: 'USD' }),
      // goods dispatched from DE to AT at 20 %: 50.00 / 10.00 EUR
      ev('q1-eur', { occurred_at: '2024-03-31T23:59:59Z', supply_kind: 'goods', dispatch_country: 'DE', supplier_establishment_country: null, country_of_consumption: 'AT', net_amount_minor: 5000, vat_amount_minor: 1000 }),
    ]);
    const s = (await ok(`${R}/oss-quarterly-summary?period=2024-Q1`)).json();
    expect(s).toMatchObject({ scheme_type: 'union_oss', period_key: '2024-Q1', member_state_identification: 'DE', return_currency: 'EUR', period_status: 'open' });
    expect(s.rows).toEqual([
      { section: '2a', member_state_of_consumption: 'FR', origin_member_state: null, supply_kind: 'services', vat_rate_bps: 2000, rate_type: 'STANDARD', taxable_amount_minor: 9303, vat_amount_minor: 1861, source_event_count: 1 },
      { section: '2b', member_state_of_consumption: 'AT', origin_member_state: null, supply_kind: 'goods', vat_rate_bps: 2000, rate_type: 'STANDARD', taxable_amount_minor: 5000, vat_amount_minor: 1000, source_event_count: 1 },
    ]);
    expect(s.totals).toEqual({ taxable_amount_minor: 14303, current_vat_minor: 2861, correction_vat_minor: 0, payable_vat_minor: 2861 });
    expect(s.exchange_rates).toEqual([{ currency: 'USD', period_key: '2024-Q1', requested_date: '2024-03-31', rate_date: '2024-04-02', rate: '1.0749' }]);
    expect([s.total_source_event_count, s.included_source_event_count, s.excluded_source_event_count]).toEqual([2, 2, 0]);

    const json = (await ok(`${R}/oss-quarterly-summary/export?period=2024-Q1&format=json`)).json();
    expect(json.manifest).toMatchObject({ export_kind: 'union_oss_quarterly_summary_preview', export_version: 1, scheme_type: 'union_oss', period_key: '2024-Q1', return_currency: 'EUR', source_event_counts: { total: 2, included: 2, excluded: 0 }, warnings: [] });
    expect(typeof json.manifest.conversion_rule).toBe('string');
    expect(typeof json.manifest.scope_note).toBe('string');
    expect(json.report.rows[0]).toMatchObject({ vat_rate_pct: '20.00', taxable_amount: '93.03', vat_amount: '18.61' });
    expect(json.report.totals).toEqual({ taxable_amount: '143.03', current_vat: '28.61', correction_vat: '0.00', payable_vat: '28.61' });

    const csv = await ok(`${R}/country-vat-breakdown/export?period=2024-Q1&format=csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('country-vat-breakdown-2024-Q1.csv');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]!.startsWith('export_kind,export_version,generated_at,scheme_type,period_key')).toBe(true);
    // AT country line, its row, FR country line, its row, total: each repeats the manifest
    expect(lines).toHaveLength(6);
    for (const l of lines.slice(1)) expect(l.startsWith('union_oss_country_vat_breakdown_preview,1,')).toBe(true);
    // total: taxable 143.03, current VAT 28.61, correction VAT 0.00, payable 28.61
    expect(lines.at(-1)!.endsWith(',total,,,,,,,,143.03,,28.61,0.00,,28.61,,')).toBe(true);

    const b = (await ok(`${R}/country-vat-breakdown?period=2024-Q1`)).json();
    expect(b.countries.map((c: Json) => [c.member_state_of_consumption, c.taxable_amount_minor, c.current_vat_minor, c.payable_vat_minor, c.rows.length])).toEqual([
      ['AT', 5000, 1000, 1000, 1],
      ['FR', 9303, 1861, 1861, 1],
    ]);
    expect(b.rows).toBeUndefined();
  });

  it('a read asks calculation nothing: rates, source-profile defaults and ECB rates come from compliance-reports\' own projections (it uses only the ledger)', async () => {
    const service = h.built.services.find((s) => s.module.name === 'compliance-reports')!;
    expect(service.module.uses).toEqual(['ledger']);
    const clients = (service.deps as ServiceDeps<'ledger'>).clients as unknown as Record<string, unknown>;
    for (const name of ['calculation', 'taxClasses', 'sources', 'exchangeRates', 'governed']) {
      expect(() => clients[name], name).toThrow(/compliance-reports calls calculation .* without declaring it/);
    }
    const s = (await ok(`${R}/oss-quarterly-summary?period=2024-Q1`)).json();
    expect(s.rows.length).toBeGreaterThan(0);
  });

  it('a nil quarter: empty preview, one manifest-only nil-return CSV row, nil_return_eligible', async () => {
    const s = (await ok(`${R}/oss-quarterly-summary?period=2025-Q3`)).json();
    expect(s).toMatchObject({ rows: [], corrections: [], balances: [], warnings: [], total_source_event_count: 0 });
    const lines = (await ok(`${R}/oss-quarterly-summary/export?period=2025-Q3&format=csv`)).body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/,nil_return,{15}$/);
    const a = (await ok(`${R}/oss-accountant-report?period=2025-Q3`)).json();
    expect(a.filing_context).toMatchObject({ period_key: '2025-Q3', filing_due_date: '2025-10-31', nil_return_eligible: true, status: 'nil_return' });
    expect(a.manifest.export_kind).toBe('union_oss_accountant_report_preview');
  });

  it('events stored before the ledger checked rates, at a rate not in force, are excluded (unsupported_rate_category_excluded), never reported', async () => {
    // As committed before issue 19: FR at 19 % "standard" and at 0 % "standard", beside a real FR 20 % sale.
    const facts = [
      ['stale-19', 1900, 'standard', 1900],
      ['stale-0', 0, 'standard', 0],
      ['stale-550-std', 550, 'standard', 550],
      ['real-20', 2000, 'standard', 2000],
      ['real-550', 550, 'reduced', 550],
    ] as const;
    for (const [i, [eventId, bps, category, vat]] of facts.entries()) {
      await db.query(
        `insert into compliance_reports.supply_fact (id, account_id, sequence, event_id, recorded_at, event_type, occurred_at, supply_kind, customer_type, country_of_consumption,
           supplier_establishment_country, currency, net_amount_minor, vat_amount_minor, vat_rate_bps, rate_category, classification_status)
         values (gen_random_uuid(), $1, $2, $3, now(), 'sale', '2025-02-10', 'services', 'b2c', 'FR', 'DE', 'EUR', 10000, $4, $5, $6, 'classified')`,
        [k.stale!.accountId, i + 1, eventId, vat, bps, category],
      );
    }
    const s = (await ok(`${R}/oss-quarterly-summary?period=2025-Q1`, k.stale!.key)).json();
    expect(s.rows.map((r: Json) => [r.vat_rate_bps, r.rate_type, r.source_event_count])).toEqual([[2000, 'STANDARD', 1], [550, 'REDUCED', 1]]);
    expect(s.warnings).toEqual([{ code: 'unsupported_rate_category_excluded', reason: 'rate_not_in_force', review: 'needs_review', count: 3 }]);
    const a = (await ok(`${R}/oss-accountant-report?period=2025-Q1`, k.stale!.key)).json();
    expect(a.filing_context.status).toBe('ready_with_warnings');
    expect(a.manifest.source_event_counts).toEqual({ total: 5, included: 2, excluded: 3 });
  });

  it('events that are all excluded: review_required, warnings with counts, not nil-return eligible', async () => {
    await commit(k.a!.key, k.a!.accountId, [
      ev('q2-review', { occurred_at: '2025-05-02', classification_status: 'needs_review' }),
      ev('q2-b2b', { occurred_at: '2025-05-03', customer_type: 'b2b' }),
      ev('q2-domestic', { occurred_at: '2025-05-04', country_of_consumption: 'DE', vat_rate_bps: 1900, vat_amount_minor: 1900 }),
      // Ireland zero-rates some supplies (France has no zero rate: the ledger refuses one there).
      ev('q2-zero', { occurred_at: '2025-05-05', country_of_consumption: 'IE', rate_category: 'zero', vat_rate_bps: 0, vat_amount_minor: 0 }),
      ev('q2-orphan', { occurred_at: '2025-05-06', event_type: 'refund', original_event_id: 'never-sent', net_amount_minor: -100, vat_amount_minor: -20 }),
    ]);
    const a = (await ok(`${R}/oss-accountant-report?period=2025-Q2`)).json();
    expect(a.filing_context).toMatchObject({ nil_return_eligible: false, status: 'review_required', filing_due_date: '2025-07-31' });
    expect(a.manifest.warnings).toEqual([
      { code: 'needs_review_excluded', reason: 'needs_review_excluded', review: 'needs_review', count: 1 },
      { code: 'correction_reference_missing_excluded', reason: 'correction_reference_missing_excluded', review: 'needs_review', count: 1 },
      { code: 'unsupported_rate_category_excluded', reason: 'zero_rate', review: 'needs_review', count: 1 },
      // b2b on the caller's word, without a VAT number checked in VIES: reviewed (Art. 18 of Reg. 282/2011)
      { code: 'unsupported_supply_kind_excluded', reason: 'b2b_without_vat_number_evidence', review: 'needs_review', count: 1 },
      { code: 'unsupported_supply_kind_excluded', reason: 'domestic_supply', review: 'informational', count: 1 },
    ]);
    expect(a.manifest.source_event_counts).toEqual({ total: 5, included: 0, excluded: 5 });
  });

  it('supplies outside the Union scheme by law (imported goods, domestic) are informational warnings: the quarter is ready', async () => {
    await commit(k.clean!.key, k.clean!.accountId, [
      ev('c-fr', { occurred_at: '2025-02-10' }),
      // imported goods: reported in IOSS (Art. 369l), not in the Union OSS return
      ev('c-ioss', { occurred_at: '2025-02-11', supply_kind: 'imported_goods', supplier_establishment_country: null, intrinsic_value_eur_minor: 10000, third_country_origin: 'CN' }),
      // domestic: a DE service consumed in DE, taxed in the domestic return
      ev('c-de', { occurred_at: '2025-02-12', country_of_consumption: 'DE', vat_rate_bps: 1900, vat_amount_minor: 1900 }),
    ]);
    const a = (await ok(`${R}/oss-accountant-report?period=2025-Q1`, k.clean!.key)).json();
    expect(a.filing_context).toMatchObject({ status: 'ready', nil_return_eligible: false });
    expect(a.manifest.warnings).toEqual([
      { code: 'unsupported_supply_kind_excluded', reason: 'domestic_supply', review: 'informational', count: 1 },
      { code: 'unsupported_supply_kind_excluded', reason: 'imported_goods', review: 'informational', count: 1 },
    ]);
    expect(a.manifest.source_event_counts).toEqual({ total: 3, included: 1, excluded: 2 });
  });

  it('drill-down: each excluded event with its reason; filters, keyset paging, scopes, tenant isolation and bad input', async () => {
    const EV = `${R}/oss-quarterly-summary/events`;
    const ex = (await ok(`${EV}?period=2025-Q1&disposition=excluded`, k.clean!.key)).json();
    expect(ex).toMatchObject({ scheme_type: 'union_oss', period_key: '2025-Q1', period_status: 'open', source: 'preview', next_cursor: null });
    expect(ex.items.map((i: Json) => [i.event_id, i.disposition, i.warning_code, i.reason, i.review])).toEqual([
      ['c-ioss', 'excluded', 'unsupported_supply_kind_excluded', 'imported_goods', 'informational'],
      ['c-de', 'excluded', 'unsupported_supply_kind_excluded', 'domestic_supply', 'informational'],
    ]);
    expect(ex.items[1]).toMatchObject({ member_state_of_consumption: 'DE', currency: 'EUR', net_amount_minor: 10000, vat_amount_minor: 1900, late: false });
    const inc = (await ok(`${EV}?period=2025-Q1&disposition=included`, k.clean!.key)).json();
    expect(inc.items.map((i: Json) => [i.event_id, i.warning_code, i.reason])).toEqual([['c-fr', null, null]]);
    expect((await ok(`${EV}?period=2025-Q1&reason=domestic_supply`, k.clean!.key)).json().items.map((i: Json) => i.event_id)).toEqual(['c-de']);
    expect((await ok(`${EV}?period=2025-Q1&reason=unsupported_supply_kind_excluded&member_state=FR`, k.clean!.key)).json().items.map((i: Json) => i.event_id)).toEqual(['c-ioss']);
    expect((await ok(`${EV}?period=2025-Q1&disposition=included&member_state=DE`, k.clean!.key)).json().items).toEqual([]);
    // keyset paging: one at a time, in ledger order, then no cursor
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = (await ok(`${EV}?period=2025-Q1&limit=1${cursor ? `&cursor=${cursor}` : ''}`, k.clean!.key)).json();
      seen.push(...page.items.map((i: Json) => i.event_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['c-fr', 'c-ioss', 'c-de']);
    // read-only may read; calculate-only may not; another account's events do not exist for this one
    expect((await get(`${EV}?period=2025-Q1`, k.aRead!.key)).statusCode).toBe(200);
    expect((await get(`${EV}?period=2025-Q1`, k.aCalc!.key)).statusCode).toBe(403);
    expect((await ok(`${EV}?period=2025-Q1`, k.b!.key)).json().items.map((i: Json) => i.event_id)).not.toContain('c-de');
    // bad input
    expectError(await get(`${EV}?period=2025-Q1&disposition=maybe`, k.clean!.key), 400, 'invalid_disposition');
    expectError(await get(`${EV}?period=2025-Q1&reason=no_such_reason`, k.clean!.key), 400, 'invalid_reason');
    expectError(await get(`${EV}?period=2025-Q1&member_state=XX`, k.clean!.key), 400, 'invalid_member_state');
    expectError(await get(`${EV}?period=2025-Q1&cursor=bogus`, k.clean!.key), 400, 'invalid_cursor');
    expectError(await get(`${EV}?period=2025-Q1&limit=0`, k.clean!.key), 400, 'invalid_limit');
    expectError(await get(`${EV}?period=2025-Q1&limit=501`, k.clean!.key), 400, 'invalid_limit');
    expectError(await get(`${EV}?period=2025-Q5`, k.clean!.key), 400, 'invalid_period');
    expectError(await get(`${EV}?period=2025-Q1&sort=asc`, k.clean!.key), 400, 'unknown_parameter');
  });

  it('a Danish MSI files in DKK: EUR sales converted at the quarter-end rate', async () => {
    // 100.00 EUR → 100 × the 2026-03-31 EUR/DKK rate, 20.00 EUR → 20 × that rate, each rounded half-up to øre
    await commit(k.dk!.key, k.dk!.accountId, [ev('dk-1', { supplier_establishment_country: 'DK' })]);
    const s = (await ok(`${R}/oss-quarterly-summary?period=2026-Q1`, k.dk!.key)).json();
    expect(s.return_currency).toBe('DKK');
    const dkk = s.exchange_rates.find((x: Json) => x.currency === 'DKK');
    expect(dkk).toMatchObject({ period_key: '2026-Q1', requested_date: '2026-03-31', rate_date: '2026-03-31' });
    const [int, frac = ''] = String(dkk.rate).split('.');
    const mantissa = BigInt(int + frac);
    const scale = 10n ** BigInt(frac.length);
    const halfUp = (minor: bigint) => (2n * minor * mantissa + scale) / (2n * scale);
    expect(s.rows[0]).toMatchObject({ section: '2a', taxable_amount_minor: Number(halfUp(10000n)), vat_amount_minor: Number(halfUp(2000n)) });
  });

  it("a source profile's dispatch and establishment countries fill only what an event lacks", async () => {
    const src = await post('/v1/sources', k.b!.key, { source_key: 'pl-warehouse', display_name: 'PL warehouse', channel_type: 'owned_store', dispatch_country: 'PL', supplier_establishment_country: 'ES' });
    expect(src.statusCode, src.body).toBe(201);
    await commit(k.b!.key, k.b!.accountId, [
      // goods without a dispatch State: the profile's PL → 2d from PL
      ev('src-1', { occurred_at: '2023-02-01', supply_kind: 'goods', supplier_establishment_country: null, source_id: 'pl-warehouse' }),
      // services without an establishment: the profile's ES → 2c from ES
      ev('src-2', { occurred_at: '2023-02-02', supplier_establishment_country: null, source_id: 'pl-warehouse' }),
      // a stated establishment wins over the profile: DE (the MSI) → 2a
      ev('src-3', { occurred_at: '2023-02-03', source_id: 'pl-warehouse' }),
      // goods without a dispatch State and no profile: cannot be placed
      ev('src-4', { occurred_at: '2023-02-04', supply_kind: 'goods', supplier_establishment_country: null, source_id: 'unknown-tag' }),
    ]);
    const s = (await ok(`${R}/oss-quarterly-summary?period=2023-Q1`, k.b!.key)).json();
    expect(s.rows.map((r: Json) => [r.section, r.origin_member_state, r.vat_amount_minor])).toEqual([
      ['2a', null, 2000],
      ['2c', 'ES', 2000],
      ['2d', 'PL', 2000],
    ]);
    expect(s.warnings).toEqual([{ code: 'unsupported_supply_kind_excluded', reason: 'dispatch_country_missing', review: 'needs_review', count: 1 }]);
  });

  describe('locks, late events and filing', () => {
    let locked: Json;
    let before: Record<string, Buffer> = {};

    it('locks 2025-Q4 at the ledger head and stores JSON and CSV artifacts with their SHA-256', async () => {
      await commit(k.a!.key, k.a!.accountId, [ev('q4-sale', { occurred_at: '2025-11-05' })]);
      const r = await post(`${LOCKED}?period=2025-Q4`);
      expect(r.statusCode, r.body).toBe(201);
      locked = r.json();
      expect(locked).toMatchObject({ scheme_type: 'union_oss', period_key: '2025-Q4', status: 'locked', filing_status: 'ready', nil_return_eligible: false, total_source_event_count: 1, included_source_event_count: 1, excluded_source_event_count: 0, warning_count: 0, jurisdiction_count: 1, export_count: 6, filed_at: null });
      // by file name; a German MSI also gets the BZSt upload file and its manifest, every lock the Annex III document (issue 21)
      expect(locked.exports.map((e: Json) => [e.format, e.export_kind])).toEqual([
        ['json', 'union_oss_accountant_report_locked'],
        ['pdf', 'union_oss_accountant_report_pdf_locked'],
        ['csv', 'union_oss_bzst_upload_locked'],
        ['json', 'union_oss_bzst_manifest_locked'],
        ['csv', 'union_oss_quarterly_summary_locked'],
        ['json', 'union_oss_return_locked'],
      ]);
      const { createHash } = await import('node:crypto');
      for (const e of locked.exports) {
        const d = await ok(e.download_path, k.aRead!.key);
        expect(createHash('sha256').update(d.rawPayload).digest('hex')).toBe(e.sha256);
        expect(d.rawPayload.length).toBe(e.byte_size);
        before[e.export_id] = d.rawPayload;
      }
      const report = JSON.parse(before[locked.exports[0].export_id]!.toString('utf8'));
      expect(report.filing_context).toMatchObject({ period_status: 'locked', filing_due_date: '2026-01-31' });
      // The stored CSV is layout 2: each row repeats the manifest fields with the notes as codes; their text is in the report's manifest.
      const csvLines = before[locked.exports.find((e: Json) => e.export_kind === 'union_oss_quarterly_summary_locked').export_id]!.toString('utf8').trimEnd().split('\r\n');
      for (const l of csvLines.slice(1)) expect(l).toMatch(/^union_oss_quarterly_summary_locked,1,[^,]+,union_oss,2025-Q4,DE,EUR,ecb_quarter_end_v1,union_oss_locked_v1,/);
      expect(report.manifest).toMatchObject({ conversion_rule_code: 'ecb_quarter_end_v1', scope_note_code: 'union_oss_locked_v1' });
      expect(report.manifest.conversion_rule).toContain('Art. 366(2) of Directive 2006/112/EC');
      expect(report.summary.totals).toEqual({ taxable_amount: '100.00', current_vat: '20.00', correction_vat: '0.00', payable_vat: '20.00' });
    });

    it('a repeat lock is 409 period_already_locked; the ledger is unchanged by a lock', async () => {
      const head = (await db.query('select sequence::text as s from ledger.ledger_head where account_id = $1', [k.a!.accountId])).rows[0].s;
      expectError(await post(`${LOCKED}?period=2025-Q4`), 409, 'period_already_locked');
      expect((await db.query('select sequence::text as s from ledger.ledger_head where account_id = $1', [k.a!.accountId])).rows[0].s).toBe(head);
    });

    it('the running quarter and a future one cannot be locked or filed (409 period_not_ended); nothing is fenced or stored', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const running = `${today.slice(0, 4)}-Q${Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1}`;
      for (const period of [running, '2030-Q1']) {
        const body = expectError(await post(`${LOCKED}?period=${period}`), 409, 'period_not_ended');
        expect(body.detail).toMatch(/after its last day has passed/);
        expectError(await post(`${LOCKED}/filed?period=${period}`), 409, 'period_not_ended');
      }
      expect((await db.query(`select count(*)::int as n from compliance_reports.union_oss_locked_period where period_key in ($1, '2030-Q1')`, [running])).rows[0].n).toBe(0);
      expect((await db.query(`select count(*)::int as n from ledger.return_period_fence where period_key in ($1, '2030-Q1')`, [running])).rows[0].n).toBe(0);
    });

    it('late events after the lock go to the next open quarter as corrections; the locked artifacts stay byte-identical', async () => {
      await commit(k.a!.key, k.a!.accountId, [
        // recorded after 2025-Q4 was locked: +10.00 VAT for 2025-Q4
        ev('q4-late', { occurred_at: '2025-12-15', net_amount_minor: 5000, vat_amount_minor: 1000 }),
        // a 2026-Q1 refund of the locked sale: -6.00 VAT for 2025-Q4
        ev('q1-refund', { occurred_at: '2026-01-20', event_type: 'refund', original_event_id: 'q4-sale', net_amount_minor: -3000, vat_amount_minor: -600 }),
        // a 2026-Q1 refund of a 2025-Q4 sale to NL recorded late: NL ends negative, never offsetting AT
        ev('q4-nl', { occurred_at: '2025-10-02', country_of_consumption: 'NL', vat_rate_bps: 2100, net_amount_minor: 1000, vat_amount_minor: 210 }),
        ev('q1-nl-refund', { occurred_at: '2026-02-02', event_type: 'refund', original_event_id: 'q4-nl', country_of_consumption: 'NL', vat_rate_bps: 2100, net_amount_minor: -3000, vat_amount_minor: -630 }),
        // 2026-Q1 goods from DE to AT at 20 %: 200.00 / 40.00
        ev('q1-at', { occurred_at: '2026-03-01', supply_kind: 'goods', dispatch_country: 'DE', supplier_establishment_country: null, country_of_consumption: 'AT', net_amount_minor: 20000, vat_amount_minor: 4000 }),
      ]);
      const s = (await ok(`${R}/oss-quarterly-summary?period=2026-Q1`)).json();
      expect(s.rows).toEqual([{ section: '2b', member_state_of_consumption: 'AT', origin_member_state: null, supply_kind: 'goods', vat_rate_bps: 2000, rate_type: 'STANDARD', taxable_amount_minor: 20000, vat_amount_minor: 4000, source_event_count: 1 }]);
      // FR 2025-Q4: +10.00 (late sale) - 6.00 (refund) = 4.00; NL 2025-Q4: +2.10 (late sale) - 6.30 (refund) = -4.20
      expect(s.corrections).toEqual([
        { member_state_of_consumption: 'FR', original_period: '2025-Q4', vat_amount_minor: 400, source_event_count: 2 },
        { member_state_of_consumption: 'NL', original_period: '2025-Q4', vat_amount_minor: -420, source_event_count: 2 },
      ]);
      expect(s.balances).toEqual([
        { member_state_of_consumption: 'AT', current_vat_minor: 4000, correction_vat_minor: 0, balance_minor: 4000, payable_vat_minor: 4000, included_in_grand_total: true },
        { member_state_of_consumption: 'FR', current_vat_minor: 0, correction_vat_minor: 400, balance_minor: 400, payable_vat_minor: 400, included_in_grand_total: true },
        { member_state_of_consumption: 'NL', current_vat_minor: 0, correction_vat_minor: -420, balance_minor: -420, payable_vat_minor: 0, included_in_grand_total: false },
      ]);
      // 40.00 + 4.00 = 44.00 payable; NL's -4.20 offsets nothing
      expect(s.totals).toEqual({ taxable_amount_minor: 20000, current_vat_minor: 4000, correction_vat_minor: -20, payable_vat_minor: 4400 });

      // the same in the summary CSV: rows, corrections (keyed by original period), balances (a negative one shown), total
      const lines = (await ok(`${R}/oss-quarterly-summary/export?period=2026-Q1&format=csv`)).body.trimEnd().split('\r\n');
      const detail = lines.slice(1).map((l) => l.split(',').slice(-16).join(','));
      expect(detail).toEqual([
        'row,2b,AT,,goods,20.00,STANDARD,,200.00,40.00,,,,,,1',
        'correction,,FR,,,,,2025-Q4,,4.00,,,,,,2',
        'correction,,NL,,,,,2025-Q4,,-4.20,,,,,,2',
        'balance,,AT,,,,,,,,40.00,0.00,40.00,40.00,true,',
        'balance,,FR,,,,,,,,0.00,4.00,4.00,4.00,true,',
        'balance,,NL,,,,,,,,0.00,-4.20,-4.20,0.00,false,',
        'total,,,,,,,,200.00,,40.00,-0.20,,44.00,,',
      ]);
      const acc = (await ok(`${R}/oss-accountant-report?period=2026-Q1`)).json();
      expect(acc.summary.totals).toEqual({ taxable_amount: '200.00', current_vat: '40.00', correction_vat: '-0.20', payable_vat: '44.00' });
      expect(acc.country_breakdown.map((c: Json) => [c.member_state_of_consumption, c.balance, c.payable_vat, c.included_in_grand_total])).toEqual([
        ['AT', '40.00', '40.00', true],
        ['FR', '4.00', '4.00', true],
        ['NL', '-4.20', '0.00', false],
      ]);

      // the locked quarter's preview still shows the frozen position; its artifacts are unchanged
      const q4 = (await ok(`${R}/oss-quarterly-summary?period=2025-Q4`)).json();
      expect(q4).toMatchObject({ period_status: 'locked', ledger_position: locked.ledger_position, totals: { current_vat_minor: 2000, payable_vat_minor: 2000 } });
      for (const e of locked.exports) expect((await ok(e.download_path)).rawPayload.equals(before[e.export_id]!), e.filename).toBe(true);
    });

    it('a new event of a locked quarter is answered with a notice naming the quarter it corrects and the earliest open return', async () => {
      const acct = k.late!;
      await commit(acct.key, acct.accountId, [ev('l-sale', { occurred_at: '2025-04-10' })]);
      for (const p of ['2025-Q2', '2025-Q3']) expect((await post(`${LOCKED}?period=${p}`, acct.key)).statusCode).toBe(201);
      const r = await post('/v1/supply-events', acct.key, {
        events: [
          ev('l-late', { occurred_at: '2025-05-10' }),
          ev('l-refund', { occurred_at: '2025-08-01', event_type: 'refund', original_event_id: 'l-sale', net_amount_minor: -5000, vat_amount_minor: -1000 }),
          ev('l-open', { occurred_at: '2025-10-05' }),
          ev('l-ioss', { occurred_at: '2025-05-11', supply_kind: 'imported_goods', supplier_establishment_country: null, intrinsic_value_eur_minor: 10000, third_country_origin: 'CN' }),
        ],
      });
      expect(r.statusCode, r.body).toBe(201);
      const items = r.json().items;
      expect(items[0].notice).toEqual({ code: 'late_for_locked_period', corrects_period: '2025-Q2', reported_in_period: '2025-Q4', detail: expect.stringMatching(/correction of 2025-Q2 in the 2025-Q4 Union OSS return/) });
      // A refund dated in locked 2025-Q3 corrects its sale's quarter, 2025-Q2.
      expect(items[1].notice).toMatchObject({ corrects_period: '2025-Q2', reported_in_period: '2025-Q4' });
      expect(items[2].notice).toBeUndefined();
      expect(items[3].notice).toBeUndefined();
      // A repeat is not new: no notice. The single-event form carries it too.
      expect((await post('/v1/supply-events', acct.key, ev('l-late', { occurred_at: '2025-05-10' }))).json().notice).toBeUndefined();
      const single = (await post('/v1/supply-events', acct.key, ev('l-late-2', { occurred_at: '2025-06-30' }))).json();
      expect(single.notice).toMatchObject({ corrects_period: '2025-Q2', reported_in_period: '2025-Q4' });
      // The return named reports them: 2025-Q4 corrects 2025-Q2 by +20.00 +20.00 -10.00 VAT.
      await caughtUp(acct.accountId);
      const q4 = (await ok(`${R}/oss-quarterly-summary?period=2025-Q4`, acct.key)).json();
      expect(q4.corrections).toEqual([expect.objectContaining({ member_state_of_consumption: 'FR', original_period: '2025-Q2', vat_amount_minor: 3000 })]);
    });

    it('drill-down of a locked quarter: exactly the events its lock sealed, not today\'s preview', async () => {
      const EV = `${R}/oss-quarterly-summary/events`;
      // 2025-Q4 sealed q4-sale; q4-late and q4-nl (tax points in 2025-Q4) arrived after the lock.
      // The lock sealed its basis (one included key of one event), not a copy of the events.
      const basis = (await db.query(`select dispositions from compliance_reports.union_oss_sealed_basis where account_id = $1 and period_key = '2025-Q4'`, [k.a!.accountId])).rows;
      expect(basis.map((r) => r.dispositions.map((d: Json) => [d.count, d.disposition]))).toEqual([[[1, 'included']]]);
      // The facts it reads are frozen in the database: a sealed one refuses every update.
      await expect(db.query(`update compliance_reports.supply_fact set classification_status = 'needs_review' where account_id = $1 and event_id = 'q4-sale'`, [k.a!.accountId])).rejects.toThrow(/sealed by a Union OSS lock/);
      const q4 = (await ok(`${EV}?period=2025-Q4`, k.aRead!.key)).json();
      expect(q4).toMatchObject({ period_key: '2025-Q4', period_status: 'locked', source: 'sealed_by_lock', next_cursor: null });
      expect(q4.items.map((i: Json) => [i.event_id, i.disposition])).toEqual([['q4-sale', 'included']]);
      // the late events are listed by the open quarter that reports them, as late corrections
      const q1 = (await ok(`${EV}?period=2026-Q1&disposition=included`)).json();
      expect(q1.items.filter((i: Json) => i.late).map((i: Json) => i.event_id).sort()).toEqual(['q4-late', 'q4-nl']);
    });

    it('the artifacts and the lock are immutable in the database, whatever the role', async () => {
      const id = locked.exports[0].export_id;
      await expect(db.query(`update compliance_reports.union_oss_export set content = 'x' where id = $1`, [id])).rejects.toThrow(/immutable/);
      await expect(db.query(`delete from compliance_reports.union_oss_export where id = $1`, [id])).rejects.toThrow(/immutable/);
      await expect(db.query(`update compliance_reports.union_oss_locked_period set ledger_position = 0 where period_key = '2025-Q4'`)).rejects.toThrow(/locked to filed/);
      await expect(db.query(`delete from compliance_reports.union_oss_locked_period where period_key = '2025-Q4'`)).rejects.toThrow(/immutable/);
      await expect(db.query(`truncate compliance_reports.union_oss_export`)).rejects.toThrow(/immutable/);
    });

    it('filed: locked -> filed once with the filing record; a repeat keeps the first audit and record; an unlocked quarter is 409 period_not_locked', async () => {
      expectError(await post(`${LOCKED}/filed?period=2026-Q1`), 409, 'period_not_locked');
      // The record is checked before anything is stored: 2025-Q4 ends 2025-12-31, so the earliest filing day is 2026-01-01.
      const FILED = `${LOCKED}/filed?period=2025-Q4`;
      expectError(await post(FILED, k.a!.key, { filed_on: '2025-12-31' }), 400, 'invalid_filed_on');
      expectError(await post(FILED, k.a!.key, { filed_on: '2026-02-30' }), 400, 'invalid_filed_on');
      expectError(await post(FILED, k.a!.key, { filed_on: '2999-01-01' }), 400, 'invalid_filed_on');
      expectError(await post(FILED, k.a!.key, { submission_reference: '' }), 400, 'invalid_submission_reference');
      expectError(await post(FILED, k.a!.key, { submission_reference: 'x'.repeat(101) }), 400, 'invalid_submission_reference');
      expectError(await post(FILED, k.a!.key, { submission_reference: 42 }), 400, 'invalid_submission_reference');
      expectError(await post(FILED, k.a!.key, { note: 'line one\nline two' }), 400, 'invalid_note');
      expectError(await post(FILED, k.a!.key, { note: 'x'.repeat(1001) }), 400, 'invalid_note');
      expectError(await post(FILED, k.a!.key, { reference: 'OSS-1' }), 400, 'unknown_field');
      expect((await ok(`${LOCKED}?period=2025-Q4`)).json().current_period).toMatchObject({ status: 'locked', filing_record: null, filing_due_date: '2026-01-31' });
      const first = await post(FILED, k.a!.key, { submission_reference: 'OSS-DE-2025-Q4-0815', filed_on: '2026-01-20', note: 'Submitted in BZSt Mein BOP' });
      expect(first.statusCode, first.body).toBe(200);
      const f = first.json();
      expect(f).toMatchObject({ status: 'filed', filing_status: 'filed', filed_by_api_key_id: Number(k.a!.id), overdue: false, filing_due_date: '2026-01-31' });
      expect(f.filing_record).toEqual({ submission_reference: 'OSS-DE-2025-Q4-0815', filed_on: '2026-01-20', note: 'Submitted in BZSt Mein BOP' });
      expect(typeof f.filed_at).toBe('string');
      const again = (await post(FILED, k.a!.key, { submission_reference: 'ANOTHER' })).json();
      expect([again.status, again.filed_at, again.filed_by_api_key_id, again.filing_record]).toEqual(['filed', f.filed_at, f.filed_by_api_key_id, f.filing_record]);
      expect((await ok(`${LOCKED}?period=2025-Q4`)).json().current_period.filing_record).toEqual(f.filing_record);
      const report = (await ok(`${R}/oss-accountant-report?period=2025-Q4`)).json();
      expect(report.filing_context).toMatchObject({ period_status: 'filed', overdue: false, filing_record: { ...f.filing_record, filed_at: f.filed_at } });
      for (const e of locked.exports) expect((await ok(e.download_path)).rawPayload.equals(before[e.export_id]!), e.filename).toBe(true);
    });

    it('after a restart (a fresh instance on the same database) the artifacts are the same bytes', async () => {
      const second = await build('all', h.config, pino({ level: 'silent' }));
      try {
        const app = second.gateway!.app;
        await app.ready();
        for (const e of locked.exports) {
          const r = await app.inject({ method: 'GET', url: e.download_path, headers: { 'x-api-key': k.aRead!.key } });
          expect(r.statusCode, r.body).toBe(200);
          expect(r.rawPayload.equals(before[e.export_id]!), e.filename).toBe(true);
        }
      } finally {
        await second.stop();
      }
    });

    it('a filed quarter cannot be re-filed or unfiled in the database either', async () => {
      await expect(db.query(`update compliance_reports.union_oss_locked_period set filed_at = now() where period_key = '2025-Q4'`)).rejects.toThrow(/locked to filed/);
      await expect(db.query(`update compliance_reports.union_oss_locked_period set status = 'locked', filed_at = null where period_key = '2025-Q4'`)).rejects.toThrow(/locked to filed/);
    });

    it('two concurrent locks of one quarter: one 201, one 409, one stored period', async () => {
      const [x, y] = await Promise.all([post(`${LOCKED}?period=2025-Q1`), post(`${LOCKED}?period=2025-Q1`)]);
      expect([x.statusCode, y.statusCode].sort()).toEqual([201, 409]);
      expect((await db.query(`select count(*)::int as n from compliance_reports.union_oss_locked_period where account_id = $1 and period_key = '2025-Q1'`, [k.a!.accountId])).rows[0].n).toBe(1);
      expect((await db.query(`select count(*)::int as n from compliance_reports.union_oss_export where account_id = $1 and period_key = '2025-Q1'`, [k.a!.accountId])).rows[0].n).toBe(6);
    });

    it('lists locked quarters latest first, with current_period and its exports when asked', async () => {
      const r = await post(`${LOCKED}?period=2026-Q1`);
      expect(r.statusCode, r.body).toBe(201);
      const list = (await ok(`${LOCKED}?period=2025-Q4`, k.aRead!.key)).json();
      expect(list.items.map((i: Json) => [i.period_key, i.status])).toEqual([
        ['2026-Q1', 'locked'],
        ['2025-Q4', 'filed'],
        ['2025-Q1', 'locked'],
      ]);
      expect(list.current_period).toMatchObject({ period_key: '2025-Q4', status: 'filed', export_count: 6 });
      expect(list.current_period.exports).toHaveLength(6);
      expect((await ok(`${LOCKED}?period=2024-Q1`)).json().current_period).toBeNull();
      expect((await ok(LOCKED, k.b!.key)).json()).toEqual({ items: [] });
    });

    it('refuses to lock while the projection is behind the ledger head (503 projection_lagging)', async () => {
      await db.query('update compliance_reports.supply_projection_position set applied = applied - 1 where account_id = $1', [k.a!.accountId]);
      try {
        expectError(await post(`${LOCKED}?period=2026-Q2`), 503, 'projection_lagging');
      } finally {
        await db.query('update compliance_reports.supply_projection_position set applied = applied + 1 where account_id = $1', [k.a!.accountId]);
      }
      expect((await ok(`${LOCKED}?period=2026-Q2`)).json().current_period).toBeNull();
    });

    it('a CSV artifact stored in layout 1 (the notes in full on every row, before the coded layout) is served as stored, byte for byte', async () => {
      const period = (await db.query(`select id from compliance_reports.union_oss_locked_period where account_id = $1 and period_key = '2026-Q1'`, [k.a!.accountId])).rows[0].id;
      const note = 'Locked Union OSS snapshot from committed supply events at the stated ledger position; immutable. Not legal advice.';
      const rule = 'Amounts in other currencies are converted per event, half-up, at the ECB euro reference rate of the last day of the quarter or, when none was published that day, of the next publication day (Art. 366(2) of Directive 2006/112/EC); corrections at the rate of their original period.';
      const layout1 = Buffer.from(`export_kind,export_version,conversion_rule,scope_note\r\nunion_oss_quarterly_summary_locked,1,${rule},${note}\r\n`);
      const { createHash, randomUUID } = await import('node:crypto');
      const id = randomUUID();
      await db.query(
        `insert into compliance_reports.union_oss_export (id, account_id, locked_period_id, period_key, export_kind, format, media_type, filename, content, sha256, byte_size, created_at)
         values ($1, $2, $3, '2026-Q1', 'union_oss_quarterly_summary_locked', 'csv', 'text/csv; charset=utf-8', 'oss-quarterly-summary-2026-Q1-layout1.csv', $4, $5, $6, now())`,
        [id, k.a!.accountId, period, layout1, createHash('sha256').update(layout1).digest('hex'), layout1.length],
      );
      const d = await ok(`${LOCKED}/exports/${id}`, k.aRead!.key);
      expect(d.rawPayload.equals(layout1)).toBe(true);
    });

    it("another account's export ids, and malformed ones, are 404 export_not_found", async () => {
      for (const e of locked.exports) expectError(await get(e.download_path, k.b!.key), 404, 'export_not_found');
      expectError(await get(`${LOCKED}/exports/not-a-uuid`), 404, 'export_not_found');
      expectError(await get(`${LOCKED}/exports/00000000-0000-4000-8000-000000000000`), 404, 'export_not_found');
      expectError(await post(`${LOCKED}/filed?period=2025-Q4`, k.b!.key), 409, 'period_not_locked');
    });
  });

  describe('bad input, eligibility and scopes', () => {
    const GETS = [`${R}/oss-quarterly-summary`, `${R}/country-vat-breakdown`, `${R}/oss-accountant-report`, `${R}/oss-quarterly-summary/export`, `${R}/country-vat-breakdown/export`];
    const withFormat = (u: string, p: string) => `${u}?period=${p}${u.endsWith('/export') ? '&format=json' : ''}`;

    it('a malformed, missing, repeated or out-of-range period is 400 invalid_period on every path', async () => {
      for (const u of GETS) {
        for (const p of ['2025-Q5', '2025-Q0', '25-Q1', '2025Q1', '2025-q1', '', '2021-Q2', '1900-Q1', '10000-Q1']) expectError(await get(withFormat(u, encodeURIComponent(p))), 400, 'invalid_period');
        expectError(await get(u.endsWith('/export') ? `${u}?format=csv` : u), 400, 'invalid_period');
        expectError(await get(`${withFormat(u, '2025-Q1')}&period=2025-Q2`), 400, 'invalid_period');
      }
      expectError(await post(`${LOCKED}?period=2025-Q9`), 400, 'invalid_period');
      expectError(await post(LOCKED), 400, 'invalid_period');
      expectError(await post(`${LOCKED}/filed?period=x`), 400, 'invalid_period');
      expectError(await get(`${LOCKED}?period=2021-Q1`), 400, 'invalid_period');
    });

    it('9999-Q3 is the last quarter (due 9999-10-31): 9999-Q4 is 400 invalid_period on all seven reads and the lock, never a 500, and locks nothing', async () => {
      const SEVEN = [...GETS, `${R}/filing-prep`, `${R}/multi-jurisdiction`];
      for (const u of SEVEN) {
        expectError(await get(withFormat(u, '9999-Q4')), 400, 'invalid_period');
        expect((await get(withFormat(u, '9999-Q3'))).statusCode, u).toBe(200);
      }
      const accountant = (await ok(`${R}/oss-accountant-report?period=9999-Q3`)).json();
      expect(JSON.stringify(accountant)).toContain('"9999-10-31"');
      expectError(await post(`${LOCKED}?period=9999-Q4`), 400, 'invalid_period');
      expectError(await post(`${LOCKED}/filed?period=9999-Q4`), 400, 'invalid_period');
      expectError(await get(`${LOCKED}?period=9999-Q4`), 400, 'invalid_period');
      const stored = await db.query(`select (select count(*) from compliance_reports.union_oss_locked_period where period_key like '9999-%')::int as locks, (select count(*) from ledger.return_period_fence where period_key like '9999-%')::int as fences`);
      expect(stored.rows[0]).toEqual({ locks: 0, fences: 0 });
    });

    it('unknown parameters, a bad format and a body on POST are refused', async () => {
      for (const u of GETS) expectError(await get(`${withFormat(u, '2025-Q1')}&extra=1`), 400, 'unknown_parameter');
      expectError(await get(`${R}/oss-quarterly-summary/export?period=2025-Q1&format=xml`), 400, 'invalid_format');
      expectError(await get(`${R}/oss-quarterly-summary/export?period=2025-Q1`), 400, 'invalid_format');
      for (const v of ['2', '0', 'x', '1.0', '-1']) expectError(await get(`${R}/country-vat-breakdown/export?period=2025-Q1&format=csv&export_version=${v}`), 400, 'invalid_export_version');
      expect((await get(`${R}/country-vat-breakdown/export?period=2025-Q1&format=csv&export_version=1`)).statusCode).toBe(200);
      expectError(await get(`${R}/oss-quarterly-summary?period=2025-Q1&format=csv`), 400, 'unknown_parameter');
      expectError(await post(`${LOCKED}?period=2025-Q1&x=1`), 400, 'unknown_parameter');
      expectError(await post(`${LOCKED}?period=2025-Q1`, k.a!.key, { period: '2025-Q1' }), 400, 'unexpected_body');
      expectError(await get(`${LOCKED}/exports/abc?x=1`), 400, 'unknown_parameter');
    });

    it('422 registration_required / registration_conflict naming the blocking rows', async () => {
      const none = expectError(await get(`${R}/oss-quarterly-summary?period=2025-Q1`, k.none!.key), 422, 'registration_required');
      expect(none.blocking_registration_ids).toHaveLength(1);
      expect(Number.isInteger(none.blocking_registration_ids[0])).toBe(true);
      const split = expectError(await get(`${R}/oss-accountant-report?period=2025-Q3`, k.split!.key), 422, 'registration_conflict');
      expect(split.blocking_registration_ids).toHaveLength(2);
      expectError(await post(`${LOCKED}?period=2025-Q3`, k.split!.key), 422, 'registration_conflict');
      // before the registration began
      expectError(await get(`${R}/oss-quarterly-summary?period=2024-Q4`, k.none!.key), 422, 'registration_required');
      // the split account's quarters on either side are fine
      expect((await get(`${R}/oss-quarterly-summary?period=2025-Q4`, k.split!.key)).json().member_state_identification).toBe('FR');
    });

    it("another account's events never show in a report", async () => {
      const s = (await ok(`${R}/oss-quarterly-summary?period=2024-Q1`, k.b!.key)).json();
      expect(s).toMatchObject({ rows: [], total_source_event_count: 0 });
    });

    it('scopes: read-only reads, only full locks and files; other scopes 403; no key 401', async () => {
      for (const u of GETS) expect((await get(withFormat(u, '2025-Q3'), k.aRead!.key)).statusCode).toBe(200);
      expectError(await post(`${LOCKED}?period=2025-Q3`, k.aRead!.key), 403, 'insufficient_scope');
      expectError(await post(`${LOCKED}/filed?period=2025-Q4`, k.aRead!.key), 403, 'insufficient_scope');
      for (const u of [...GETS.map((x) => withFormat(x, '2025-Q3')), LOCKED]) {
        expectError(await get(u, k.aCalc!.key), 403, 'insufficient_scope');
        expectError(await get(u, null), 401, 'missing_api_key');
      }
      expectError(await post(`${LOCKED}?period=2025-Q3`, k.aCalc!.key), 403, 'insufficient_scope');
      expectError(await post(`${LOCKED}?period=2025-Q3`, null), 401, 'missing_api_key');
      // a read never locks
      expect((await ok(`${LOCKED}?period=2025-Q3`)).json().current_period).toBeNull();
    });
  });
});

describe('Union OSS reports on the embedded database (npm start)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ embedded: true, env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('previews, locks and downloads the same bytes', async () => {
    const key = (await h.key('oss-embedded', 'full')).key;
    const send = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      h.inject({ method, url, headers: { 'x-api-key': key, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
    expect((await send('POST', '/v1/tax-registrations', { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' })).statusCode).toBe(201);
    expect((await send('POST', '/v1/supply-events', ev('emb-1', { occurred_at: '2025-11-05' }))).statusCode).toBe(201);
    await waitUntil(async () => (await send('GET', '/v1/reports/oss-quarterly-summary?period=2025-Q4')).json().total_source_event_count === 1);
    const s = (await send('GET', '/v1/reports/oss-quarterly-summary?period=2025-Q4')).json();
    expect(s.totals).toEqual({ taxable_amount_minor: 10000, current_vat_minor: 2000, correction_vat_minor: 0, payable_vat_minor: 2000 });
    const lock = await send('POST', '/v1/reports/locked-return-periods/union-oss?period=2025-Q4');
    expect(lock.statusCode, lock.body).toBe(201);
    for (const e of lock.json().exports) {
      const d = await send('GET', e.download_path);
      expect(d.statusCode).toBe(200);
      expect(d.rawPayload.length).toBe(e.byte_size);
    }
  }, 60_000);
});
