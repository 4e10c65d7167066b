import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';

const backends = await requireBackends(['postgres']);

type Json = Record<string, any>;
type Res = { statusCode: number; body: string; json(): any };

function expectError(res: Res, status: number, code?: string): Json {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as Json;
  if (code) expect(body.error, res.body).toBe(code);
  expect(typeof body.detail).toBe('string');
  return body;
}

const Y = new Date().getUTCFullYear();
const P = Y - 1;

/**
 * A DE-established seller shipping from DE to consumers in FR (20 %): vat = net × 2000 / 10000.
 * The threshold of DE is EUR 10,000 = 1,000,000 cents (seeds/article59c-thresholds).
 */
function sale(event_id: string, occurred_at: string, net: number, over: Json = {}): Json {
  return {
    event_id,
    event_type: 'sale',
    occurred_at,
    supply_kind: 'goods',
    customer_type: 'b2c',
    country_of_consumption: 'FR',
    dispatch_country: 'DE',
    supplier_establishment_country: 'DE',
    currency: 'EUR',
    net_amount_minor: net,
    vat_amount_minor: (net * 2000) / 10000,
    vat_rate_bps: 2000,
    rate_category: 'standard',
    classification_status: 'classified',
    ...over,
  };
}

describe.skipIf(!backends.ok)('Article 59c threshold status, check and notifications (REST, PostgreSQL)', () => {
  let h: Harness;
  const k: Record<string, string> = {};

  const req = (key: string | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    h.inject({ method, url, headers: { ...(key ? { 'x-api-key': key } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  const status = async (key: string) => {
    const r = await req(key, 'GET', '/v1/compliance/threshold-status');
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Json;
  };
  const check = (key: string, body: Json) => req(key, 'POST', '/v1/vat/threshold-check', body);
  const commit = async (key: string, events: Json[]) => {
    const r = await req(key, 'POST', '/v1/supply-events', { events });
    expect(r.statusCode, r.body).toBe(201);
  };
  /** Waits until the thresholds projection reflects the account's ledger head. */
  const caughtUp = async (key: string, head: number) => {
    const end = Date.now() + 15_000;
    for (;;) {
      const s = await status(key);
      if (s.ledger_position === head && s.ledger_head === head) return s;
      if (Date.now() > end) throw new Error(`projection not caught up: ${JSON.stringify([s.ledger_position, s.ledger_head])}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    h = await startHarness();
    for (const [name, account, scope, legacy] of [
      ['a', 'thr-a', 'full', false],
      ['aRead', 'thr-a', 'read-only', false],
      ['aCalc', 'thr-a', 'calculate-only', false],
      ['aLegacy', 'thr-a', 'legacy', true],
      ['b', 'thr-b', 'full', false],
      ['c', 'thr-c', 'full', false],
      ['d', 'thr-d', 'full', false],
      ['e', 'thr-e', 'full', false],
      ['f', 'thr-f', 'full', false],
      ['g', 'thr-g', 'full', false],
      ['h', 'thr-h', 'full', false],
      ['i', 'thr-i', 'full', false],
    ] as const) {
      k[name] = (await h.key(account, scope, legacy)).key;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  it('with no supply events: not applicable, no checks, and the OSS check is 422 article_59c_evidence_incomplete', async () => {
    const s = await status(k.a!);
    expect(s).toMatchObject({ checks: [], evidence_status: 'not_applicable', threshold_evidence_status: 'not_applicable', article_59c_applicability_status: 'no_candidate_events', current_year: Y });
    expect(s.disclaimer.length).toBeGreaterThan(0);
    expectError(await check(k.a!, { threshold_type: 'oss' }), 422, 'article_59c_evidence_incomplete');
  });

  it('crossing mid-year then a refund below the line: the crossing stays proven, remaining 0, percentage below 100', async () => {
    // preceding year: 700,000 (at or below). Current year: 600,000 + 300,000 = 900,000 (90 %: warning band)
    // + 250,000 = 1,150,000 > 1,000,000 (crossing at s3); linked refund of s1 −300,000 → 850,000 (85 %).
    // A B2B sale without dispatch is a conclusive exclusion (not blocking); without a customer VAT number
    // checked in VIES it is flagged for review (Art. 18(1)(b) of Reg. 282/2011), still not blocking.
    await commit(k.a!, [
      sale('p1', `${P}-05-01`, 700000),
      sale('s1', `${Y}-03-01`, 600000),
      sale('s2', `${Y}-04-01`, 300000),
      sale('s3', `${Y}-06-15`, 250000),
      sale('r1', `${Y}-09-01`, -300000, { event_type: 'refund', original_event_id: 's1' }),
      sale('b2b-1', `${Y}-02-01`, 500000, { customer_type: 'b2b', dispatch_country: undefined }),
    ]);
    const s = await caughtUp(k.a!, 6);
    expect(s).toMatchObject({ evidence_status: 'resolved', threshold_evidence_status: 'complete', article_59c_applicability_status: 'sole_establishment', eur_only: false, issues: ['b2b_without_vat_number_evidence'], unconverted_currencies: [] });
    expect(s).toMatchObject({ current_year_candidate_event_count: 5, current_year_excluded_event_count: 1, current_year_blocking_event_count: 0, preceding_year_candidate_event_count: 1 });
    expect(s.current_year_coverage).toContainEqual({ reason: 'b2b_without_vat_number_evidence', disposition: 'excluded', evidence_quality: 'vat_number_evidence_missing', materiality: 'immaterial', currency: 'EUR', event_count: 1, net_minor: 500000 });
    expect(s.checks).toHaveLength(1);
    const c = s.checks[0];
    expect(c).toMatchObject({
      currency: 'EUR',
      currency_scale: 2,
      threshold_minor: 1000000,
      current_minor: 850000,
      previous_year_minor: 700000,
      current_comparison: 'above',
      previous_comparison: 'at_or_below',
      remaining_minor: 0,
      percentage_used: 85,
      source_event_count: 4,
      previous_year_event_count: 1,
      historical_crossing_proven: true,
      establishment_country: 'DE',
      release_version: 'article59c-2026-11-24-r2',
      policy_version: 'article59c-policy/v1',
      treatment_triggers: ['threshold_exceeded_current_year'],
      primary_treatment_driver: 'threshold_exceeded_current_year',
      preceding_year_crossing: null,
    });
    expect(c.current_year_crossing).toMatchObject({ year: Y, event_id: 's3', sequence: 4, event_amount_minor: 250000, cumulative_minor: 1150000, threshold_minor: 1000000, currency: 'EUR', occurred_at: `${Y}-06-15T00:00:00.000Z` });
    expect(typeof c.cutoff_at).toBe('string');

    const r = await check(k.aRead!, { threshold_type: 'oss' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ threshold_type: 'oss', threshold_minor: 1000000, currency: 'EUR', currency_scale: 2, current_minor: 850000, remaining_minor: 0, percentage_used: 85, exceeded: true, warning: false, previous_year_minor: 700000, previous_comparison: 'at_or_below', evidence_status: 'resolved', historical_crossing_proven: true, unconverted_currencies: [] });
    // explicit full range, and a cutoff before the crossing: 600,000 + 300,000 = 900,000 → warning, not exceeded
    expect((await check(k.a!, { threshold_type: 'oss', from: `${Y}-01-01` })).statusCode).toBe(200);
    const early = await check(k.a!, { threshold_type: 'oss', from: `${Y}-01-01`, to: `${Y}-05-01` });
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json()).toMatchObject({ current_minor: 900000, remaining_minor: 100000, percentage_used: 90, exceeded: false, warning: true, historical_crossing_proven: false });
  });

  it('the series behind the status: the cumulative counted amount by tax-point day, with the crossing', async () => {
    const series = async (key: string, q = '') => {
      const r = await req(key, 'GET', `/v1/compliance/threshold-status/series${q}`);
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as Json;
    };
    // Account a (the test before): s1 600,000, s2 300,000, s3 250,000, refund r1 of s1 −300,000; the B2B sale is excluded (no point).
    const s = await series(k.aRead!);
    expect(s).toMatchObject({ year: Y, cutoff_date: new Date().toISOString().slice(0, 10), ledger_position: 6 });
    expect(s.series).toHaveLength(1);
    const de = s.series[0];
    expect(de).toMatchObject({ establishment_country: 'DE', currency: 'EUR', currency_scale: 2, threshold_minor: 1000000 });
    expect(de.points).toEqual([
      { date: `${Y}-03-01`, day_minor: 600000, cumulative_minor: 600000, event_count: 1 },
      { date: `${Y}-04-01`, day_minor: 300000, cumulative_minor: 600000 + 300000, event_count: 1 },
      { date: `${Y}-06-15`, day_minor: 250000, cumulative_minor: 900000 + 250000, event_count: 1 },
      { date: `${Y}-09-01`, day_minor: -300000, cumulative_minor: 1150000 - 300000, event_count: 1 },
    ]);
    // The last point is the status's current amount; the crossing is the status's.
    const c = (await status(k.a!)).checks[0];
    expect(de.points.at(-1).cumulative_minor).toBe(c.current_minor);
    expect(de.crossing).toEqual(c.current_year_crossing);
    expect(de.crossing).toMatchObject({ event_id: 's3', cumulative_minor: 1150000, occurred_at: `${Y}-06-15T00:00:00.000Z` });
    // The preceding year, up to its 31 December: p1 700,000, not crossed.
    const prev = await series(k.a!, `?year=${P}`);
    expect(prev).toMatchObject({ year: P, cutoff_date: `${P}-12-31` });
    expect(prev.series.map((x: Json) => [x.points, x.crossing])).toEqual([[[{ date: `${P}-05-01`, day_minor: 700000, cumulative_minor: 700000, event_count: 1 }], null]]);
    expect((await series(k.b!)).series).toEqual([]); // another account's
    for (const [q, code] of [['?year=abc', 'invalid_year'], ['?year=0', 'invalid_year'], ['?year=-1', 'invalid_year'], [`?year=${Y + 1}`, 'year_after_current_year'], ['?month=1', 'unknown_parameter']]) {
      expectError(await req(k.a!, 'GET', `/v1/compliance/threshold-status/series${q}`), 400, code);
    }
    expectError(await req(k.aCalc!, 'GET', '/v1/compliance/threshold-status/series'), 403);
    expectError(await req(undefined, 'GET', '/v1/compliance/threshold-status/series'), 401);
  });

  it('a cumulative amount beyond 2^53 is written as its exact digits', async () => {
    // 10 sales of 999,999,999,999,995 cents (VAT 20 %: 199,999,999,999,999) on 1-10 January, then one of 15 on 11 January:
    // 10 × 999,999,999,999,995 = 9,999,999,999,999,950; + 15 = 9,999,999,999,999,965 > 2^53 = 9,007,199,254,740,992 (and odd: no double holds it).
    const big = Array.from({ length: 10 }, (_, i) => sale(`big-${i + 1}`, `${Y}-01-${String(i + 1).padStart(2, '0')}`, 999999999999995, { vat_amount_minor: 199999999999999 }));
    await commit(k.i!, [...big, sale('small', `${Y}-01-11`, 15, { vat_amount_minor: 3 })]);
    await caughtUp(k.i!, 11);
    const r = await req(k.i!, 'GET', '/v1/compliance/threshold-status/series');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.body).toContain('"date":"' + Y + '-01-09","day_minor":999999999999995,"cumulative_minor":8999999999999955,'); // 9 × 999,999,999,999,995
    expect(r.body).toContain('"date":"' + Y + '-01-10","day_minor":999999999999995,"cumulative_minor":9999999999999950,');
    expect(r.body).toContain('"date":"' + Y + '-01-11","day_minor":15,"cumulative_minor":9999999999999965,');
    expect(r.body).toMatch(/"crossing":\{[^}]*"event_id":"big-1"[^}]*"cumulative_minor":999999999999995,/);
  });

  it('the crossing is found in tax-point order: a backdated sale arriving later moves it earlier, the superseded one stays in the history', async () => {
    // First batch: 600,000 on 03-01, then 500,000 on 07-17 → 1,100,000 > 1,000,000: crossing at f-late (07-17).
    await commit(k.f!, [sale('f-early', `${P + 1}-03-01`, 600000), sale('f-late', `${P + 1}-07-17`, 500000)]);
    const first = await caughtUp(k.f!, 2);
    expect(first.checks[0].current_year_crossing).toMatchObject({ event_id: 'f-late', cumulative_minor: 1100000 });
    expect(first.checks[0].current_year_crossing_history).toEqual([]);
    // Later batch, backdated: 500,000 on 07-02. In tax-point order 600,000 + 500,000 = 1,100,000 on 07-02:
    // f-back is the supply that first moved the year above the threshold.
    await commit(k.f!, [sale('f-back', `${P + 1}-07-02`, 500000)]);
    const s = await caughtUp(k.f!, 3);
    const c = s.checks[0];
    expect(c.current_year_crossing).toMatchObject({ event_id: 'f-back', occurred_at: `${P + 1}-07-02T00:00:00.000Z`, sequence: 3, event_amount_minor: 500000, cumulative_minor: 1100000 });
    expect(c.current_year_crossing_history).toHaveLength(1);
    expect(c.current_year_crossing_history[0]).toMatchObject({ event_id: 'f-late', occurred_at: `${P + 1}-07-17T00:00:00.000Z`, cumulative_minor: 1100000, superseded_by_event_id: 'f-back' });
    expect(typeof c.current_year_crossing_history[0].superseded_at).toBe('string');
    // A refund never removes or moves a stored crossing.
    await commit(k.f!, [sale('f-refund', `${P + 1}-07-03`, -500000, { event_type: 'refund', original_event_id: 'f-back' })]);
    const after = (await caughtUp(k.f!, 4)).checks[0];
    expect(after.current_year_crossing).toMatchObject({ event_id: 'f-back' });
    expect(after.current_year_crossing_history.map((h: Json) => h.event_id)).toEqual(['f-late']);
  });

  it('notifications: one on entering the warning band, one on the crossing, with evidence; read state and paging', async () => {
    const r = await req(k.aRead!, 'GET', '/v1/compliance/notifications');
    expect(r.statusCode, r.body).toBe(200);
    const items = r.json().items as Json[];
    expect(items.map((n) => [n.kind, n.event_id, n.cumulative_minor])).toEqual([
      ['article_59c_warning_band_entered', 's2', 900000],
      ['article_59c_threshold_crossed', 's3', 1150000],
    ]);
    expect(items[0]).toMatchObject({ year: Y, threshold_minor: 1000000, currency: 'EUR', occurred_at: `${Y}-04-01T00:00:00.000Z`, read: false, read_at: null });
    expect(r.json().next_cursor).toBeNull();

    const page1 = await req(k.a!, 'GET', '/v1/compliance/notifications?limit=1');
    expect(page1.json().items).toHaveLength(1);
    const page2 = await req(k.a!, 'GET', `/v1/compliance/notifications?limit=1&cursor=${page1.json().next_cursor}`);
    expect(page2.json().items.map((n: Json) => n.event_id)).toEqual(['s3']);

    const id = items[0]!.id;
    expectError(await req(k.aRead!, 'POST', `/v1/compliance/notifications/${id}/read`), 403);
    expectError(await req(k.b!, 'POST', `/v1/compliance/notifications/${id}/read`), 404, 'notification_not_found');
    const read = await req(k.a!, 'POST', `/v1/compliance/notifications/${id}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ id, read: true });
    const again = await req(k.a!, 'POST', `/v1/compliance/notifications/${id}/read`);
    expect(again.json().read_at).toBe(read.json().read_at);
    expect((await req(k.a!, 'GET', '/v1/compliance/notifications?unread=true')).json().items.map((n: Json) => n.event_id)).toEqual(['s3']);
    expect((await req(k.a!, 'GET', '/v1/compliance/notifications?unread=false')).json().items.map((n: Json) => n.event_id)).toEqual(['s2']);
    // another account sees none of them
    expect((await req(k.b!, 'GET', '/v1/compliance/notifications')).json().items).toEqual([]);
  });

  it('a later B2C goods sale without dispatch blocks the comparison, but the proven crossing is still returned', async () => {
    await commit(k.a!, [sale('s4', `${Y}-02-10`, 10000, { dispatch_country: undefined })]);
    const s = await caughtUp(k.a!, 7);
    expect(s).toMatchObject({ evidence_status: 'incomplete_evidence', threshold_evidence_status: 'incomplete', current_year_blocking_event_count: 1, eur_only: true });
    expect(s.issues).toContain('dispatch_country_missing');
    expect(s.checks[0]).toMatchObject({ current_comparison: 'above', previous_comparison: 'unknown', historical_crossing_proven: true, remaining_minor: 0 });
    const r = await check(k.a!, { threshold_type: 'oss' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ exceeded: true, evidence_status: 'incomplete_evidence', historical_crossing_proven: true });
  });

  it('a B2C goods sale without dispatch and no proven crossing: no checks and 422 article_59c_evidence_incomplete', async () => {
    await commit(k.b!, [sale('x1', `${Y}-01-15`, 10000, { dispatch_country: undefined }), sale('x2', `${Y}-01-16`, 5000, { customer_type: 'b2b', dispatch_country: undefined })]);
    const s = await caughtUp(k.b!, 2);
    expect(s).toMatchObject({ checks: [], evidence_status: 'incomplete_evidence', current_year_blocking_event_count: 1, current_year_excluded_event_count: 1 });
    expect(s.current_year_coverage).toContainEqual({ reason: 'dispatch_country_missing', disposition: 'unresolved', evidence_quality: 'dispatch_country_missing', materiality: 'material', currency: 'EUR', event_count: 1, net_minor: 10000 });
    const body = expectError(await check(k.b!, { threshold_type: 'oss' }), 422, 'article_59c_evidence_incomplete');
    expect(Object.keys(body).sort()).toEqual(['detail', 'error']);
  });

  it('an amount in a currency without an ECB rate that day is listed as unconverted and blocks', async () => {
    // DE threshold is in EUR; the ECB has published no RUB rate since 2022-03-01 (seeds/ecb: N/A), so a RUB
    // sale (PL consumer 23 %) cannot be converted and cannot be compared.
    await commit(k.c!, [sale('eur-1', `${Y}-01-15`, 10000), sale('rub-1', `${Y}-01-16`, 10000, { currency: 'RUB', country_of_consumption: 'PL', vat_rate_bps: 2300, vat_amount_minor: 2300 })]);
    const s = await caughtUp(k.c!, 2);
    expect(s).toMatchObject({ checks: [], unconverted_currencies: ['RUB'], eur_only: true, evidence_status: 'incomplete_evidence' });
    expectError(await check(k.c!, { threshold_type: 'oss' }), 422, 'article_59c_evidence_incomplete');
  });

  it('PLN and SEK sales of a DE seller are converted into EUR at the ECB rate last published at the tax point (Art. 91(2)), per event', async () => {
    // seeds/ecb/eurofxref-hist.csv (units per 1 EUR):
    //   2026-01-17 is a Saturday: the last rate published is 2026-01-16's, PLN 4.2248
    //     100000 PLN grosze = 1,000.00 PLN → 1000.00 / 4.2248 = 236.6975…  EUR → 23670 cents (half-up)
    //   2026-01-15 (Thursday): SEK 10.6985
    //     500000 öre = 5,000.00 SEK → 5000.00 / 10.6985 = 467.3552… EUR → 46736 cents
    //   plus an EUR sale of 10000 cents: 10000 + 23670 + 46736 = 80406 cents
    await commit(k.g!, [
      sale('g-eur', '2026-01-14', 10000),
      sale('g-pln', '2026-01-17', 100000, { currency: 'PLN', country_of_consumption: 'PL', vat_rate_bps: 2300, vat_amount_minor: 23000 }),
      sale('g-sek', '2026-01-15', 500000, { currency: 'SEK', country_of_consumption: 'SE', vat_rate_bps: 2500, vat_amount_minor: 125000 }),
    ]);
    const s = await caughtUp(k.g!, 3);
    expect(s).toMatchObject({ unconverted_currencies: [], evidence_status: 'resolved', eur_only: false });
    expect(s.checks).toHaveLength(1);
    // The tax points are in 2026: the current year while it runs, then the preceding one.
    const field = Y === 2026 ? 'current_minor' : 'previous_year_minor';
    expect(s.checks[0]).toMatchObject({ currency: 'EUR', threshold_minor: 1000000, [field]: 80406 });
    const year = Y === 2026 ? s.current_year_coverage : s.preceding_year_coverage;
    expect(year).toContainEqual(expect.objectContaining({ reason: 'counted', disposition: 'counted', evidence_quality: 'converted_at_ecb_rate', currency: 'PLN', event_count: 1, net_minor: 100000 }));
    expect(year).toContainEqual(expect.objectContaining({ reason: 'counted', evidence_quality: 'converted_at_ecb_rate', currency: 'SEK', event_count: 1, net_minor: 500000 }));
  });

  it('a crossing reached by a converted sale is stated in the threshold currency', async () => {
    // 2026-01-15: PLN 4.2093 per EUR; 5000000 grosze = 50,000.00 PLN → 50000 / 4.2093 = 11878.4596… EUR → 1187846 cents > 1000000
    await commit(k.h!, [sale('h-pln', '2026-01-15', 5000000, { currency: 'PLN', country_of_consumption: 'PL', vat_rate_bps: 2300, vat_amount_minor: 1150000 })]);
    const c = (await caughtUp(k.h!, 1)).checks[0];
    expect(c[Y === 2026 ? 'current_year_crossing' : 'preceding_year_crossing']).toMatchObject({ event_id: 'h-pln', event_amount_minor: 1187846, cumulative_minor: 1187846, currency: 'EUR' });
  });

  it('source-profile defaults apply only where the event lacks the fact; changing a default recomputes a successor view', async () => {
    const created = await req(k.d!, 'POST', '/v1/sources', { source_key: 'shop-de', display_name: 'DE shop', channel_type: 'owned_store', supplier_establishment_country: 'DE', dispatch_country: 'DE' });
    expect(created.statusCode, created.body).toBe(201);
    // two events lacking establishment and dispatch (defaults DE/DE → counted); one states dispatch FR itself
    // (the event wins over the default: FR → FR is a local supply, excluded as domestic).
    await commit(k.d!, [
      sale('d1', `${Y}-01-15`, 300000, { supplier_establishment_country: undefined, dispatch_country: undefined, source_id: 'shop-de' }),
      sale('d2', `${Y}-01-16`, 300000, { supplier_establishment_country: undefined, dispatch_country: undefined, source_id: 'shop-de' }),
      sale('d3', `${Y}-01-17`, 50000, { supplier_establishment_country: undefined, dispatch_country: 'FR', source_id: 'shop-de' }),
    ]);
    const s = await caughtUp(k.d!, 3);
    expect(s).toMatchObject({ evidence_status: 'resolved', issues: ['profile_default_applied'] });
    expect(s.checks[0]).toMatchObject({ establishment_country: 'DE', current_minor: 600000 });
    expect(s.current_year_coverage).toContainEqual({ reason: 'counted', disposition: 'counted', evidence_quality: 'profile_default_applied', materiality: 'immaterial', currency: 'EUR', event_count: 2, net_minor: 600000 });
    expect(s.current_year_coverage).toContainEqual({ reason: 'domestic', disposition: 'excluded', evidence_quality: 'profile_default_applied', materiality: 'immaterial', currency: 'EUR', event_count: 1, net_minor: 50000 });
    // a further defaulted sale of 500,000: 600,000 + 500,000 = 1,100,000 > 1,000,000 → the crossing (d4) is recorded with the default in force
    await commit(k.d!, [sale('d4', `${Y}-01-20`, 500000, { supplier_establishment_country: undefined, dispatch_country: undefined, source_id: 'shop-de' })]);
    const crossed = await caughtUp(k.d!, 4);
    expect(crossed.checks[0].current_year_crossing).toMatchObject({ event_id: 'd4', cumulative_minor: 1100000, establishment_country: 'DE' });
    const notes = (await req(k.d!, 'GET', '/v1/compliance/notifications')).json().items as Json[];
    expect(notes.map((n) => [n.kind, n.event_id])).toEqual([
      ['article_59c_warning_band_entered', 'd4'],
      ['article_59c_threshold_crossed', 'd4'],
    ]);
    // the default moves to FR: the defaulted sales become domestic (FR → FR) in the successor view; the stored
    // crossing, the notifications and the ledger are not rewritten.
    const patched = await req(k.d!, 'PATCH', `/v1/sources/${created.json().id}`, { supplier_establishment_country: 'FR', dispatch_country: 'FR' });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await status(k.d!);
    expect(after.checks[0]).toMatchObject({ establishment_country: 'FR', current_minor: 0, historical_crossing_proven: true });
    expect(after.checks[0].current_year_crossing).toMatchObject({ event_id: 'd4', establishment_country: 'DE' });
    expect((await req(k.d!, 'GET', '/v1/compliance/notifications')).json().items).toHaveLength(2);
    expect(after.ledger_head).toBe(4);
  });

  it('a previous-year crossing: the current year is exceeded through the preceding year', async () => {
    // preceding year: 700,000 + 500,000 = 1,200,000 > 1,000,000 → crossing at pe2; current year 100,000 (10 %).
    await commit(k.e!, [sale('pe1', `${P}-03-01`, 700000), sale('pe2', `${P}-10-01`, 500000), sale('ce1', `${Y}-01-20`, 100000)]);
    const s = await caughtUp(k.e!, 3);
    expect(s.checks[0]).toMatchObject({
      current_minor: 100000,
      previous_year_minor: 1200000,
      current_comparison: 'at_or_below',
      previous_comparison: 'above',
      historical_crossing_proven: true,
      current_year_crossing: null,
      treatment_triggers: ['threshold_exceeded_preceding_year'],
      primary_treatment_driver: 'threshold_exceeded_preceding_year',
      remaining_minor: 0,
      percentage_used: 10,
    });
    expect(s.checks[0].preceding_year_crossing).toMatchObject({ year: P, event_id: 'pe2', cumulative_minor: 1200000 });
    const r = await check(k.e!, { threshold_type: 'oss' });
    expect(r.json()).toMatchObject({ exceeded: true, warning: false, previous_comparison: 'above', current_minor: 100000 });
    // a cutoff in the preceding year makes it the current year of the check: 1,200,000, crossed at pe2 (1 October)
    const inP = await check(k.e!, { threshold_type: 'oss', from: `${P}-01-01`, to: `${P}-12-31` });
    expect(inP.json()).toMatchObject({ current_minor: 1200000, previous_year_minor: 0, exceeded: true, historical_crossing_proven: true, remaining_minor: 0, percentage_used: 120 });
    const beforeCrossing = await check(k.e!, { threshold_type: 'oss', to: `${P}-09-30` });
    expect(beforeCrossing.json()).toMatchObject({ current_minor: 700000, exceeded: false, warning: false, historical_crossing_proven: false, remaining_minor: 300000, percentage_used: 70 });
    const notes = (await req(k.e!, 'GET', '/v1/compliance/notifications')).json().items as Json[];
    expect(notes.map((n) => [n.kind, n.year, n.event_id])).toEqual([
      ['article_59c_warning_band_entered', P, 'pe2'],
      ['article_59c_threshold_crossed', P, 'pe2'],
    ]);
  });

  it('IOSS: one consignment against EUR 150 (150.00 within with warning, 150.01 exceeded), no aggregation', async () => {
    const at = await check(k.aRead!, { threshold_type: 'ioss', amount_minor: 15000 });
    expect(at.statusCode, at.body).toBe(200);
    expect(at.json()).toEqual({
      threshold_type: 'ioss',
      threshold_minor: 15000,
      currency: 'EUR',
      currency_scale: 2,
      current_minor: 15000,
      remaining_minor: 0,
      percentage_used: 100,
      exceeded: false,
      warning: true,
      evidence_status: 'resolved',
      historical_crossing_proven: false,
      unconverted_currencies: [],
      disclaimer: expect.any(String),
    });
    expect((await check(k.a!, { threshold_type: 'ioss', amount_minor: 15001 })).json()).toMatchObject({ exceeded: true, warning: false, remaining_minor: 0 });
    expect((await check(k.a!, { threshold_type: 'ioss', amount_minor: 13499 })).json()).toMatchObject({ exceeded: false, warning: false, remaining_minor: 1501, percentage_used: 89 });
  });

  it('bad input is a 400 with a documented code, never a 500', async () => {
    const cases: [Json | string, string][] = [
      [{ threshold_type: 'vat' }, 'invalid_threshold_type'],
      [{ threshold_type: 5 }, 'invalid_threshold_type'],
      [{ threshold_type: 'oss', from: `${Y}-02-01` }, 'invalid_threshold_range'],
      [{ threshold_type: 'oss', from: `${P}-01-01` }, 'invalid_threshold_range'],
      [{ threshold_type: 'oss', from: `${P}-01-01`, to: `${Y}-01-31` }, 'invalid_threshold_range'],
      [{ threshold_type: 'oss', to: `${Y + 1}-01-01` }, 'to_after_today'],
      [{ threshold_type: 'oss', to: 'yesterday' }, 'invalid_to'],
      [{ threshold_type: 'oss', to: `${Y}-02-30` }, 'invalid_to'],
      [{ threshold_type: 'oss', from: `${Y}-13-01` }, 'invalid_from'],
      [{ threshold_type: 'oss', amount_minor: 100 }, 'unexpected_amount_minor'],
      [{ threshold_type: 'ioss' }, 'missing_amount_minor'],
      [{ threshold_type: 'ioss', amount_minor: -1 }, 'invalid_amount_minor'],
      [{ threshold_type: 'ioss', amount_minor: 1.5 }, 'invalid_amount_minor'],
      [{ threshold_type: 'ioss', amount_minor: '15000' }, 'invalid_amount_minor'],
      [{ threshold_type: 'ioss', amount_minor: 100, to: `${Y}-01-01` }, 'unexpected_date_range'],
    ];
    for (const [payload, code] of cases) expectError(await check(k.a!, payload as Json), 400, code);
    expectError(await check(k.a!, { threshold_type: 'oss', extra: 1 }), 400);
    expectError(await check(k.a!, {}), 400);
    expectError(await req(k.a!, 'GET', '/v1/compliance/threshold-status?year=2026'), 400);
    expectError(await req(k.a!, 'GET', '/v1/compliance/notifications?cursor=zzz'), 400, 'invalid_cursor');
    expectError(await req(k.a!, 'GET', '/v1/compliance/notifications?limit=0'), 400, 'invalid_limit');
    expectError(await req(k.a!, 'GET', '/v1/compliance/notifications?limit=101'), 400, 'invalid_limit');
    expectError(await req(k.a!, 'GET', '/v1/compliance/notifications?unread=maybe'), 400, 'invalid_unread');
    for (const id of ['abc', '0', '-1', '99999999999999999999', '999999']) expectError(await req(k.a!, 'POST', `/v1/compliance/notifications/${id}/read`), 404, 'notification_not_found');
  });

  it('scopes: full and read-only read; calculate-only, legacy and no key are refused', async () => {
    for (const key of [k.aCalc!, k.aLegacy!]) {
      expectError(await req(key, 'GET', '/v1/compliance/threshold-status'), 403);
      expectError(await check(key, { threshold_type: 'ioss', amount_minor: 1 }), 403);
      expectError(await req(key, 'GET', '/v1/compliance/notifications'), 403);
      expectError(await req(key, 'POST', '/v1/compliance/notifications/1/read'), 403);
    }
    expectError(await req(undefined, 'GET', '/v1/compliance/threshold-status'), 401);
    expectError(await check('vat_not-a-key', { threshold_type: 'ioss', amount_minor: 1 }), 401);
    expect((await req(k.aRead!, 'GET', '/v1/compliance/threshold-status')).statusCode).toBe(200);
  });

  it('POST /v1/vat/calculate does not change the threshold view', async () => {
    const before = await status(k.c!);
    const calc = await req(k.c!, 'POST', '/v1/vat/calculate', { amount: 100000, country: 'FR', tax_class_id: 'standard', price_includes_vat: false });
    expect([200, 201, 400, 422]).toContain(calc.statusCode);
    const after = await status(k.c!);
    expect(after.current_year_candidate_event_count).toBe(before.current_year_candidate_event_count);
    expect(after.ledger_head).toBe(before.ledger_head);
  });
});

describe('source-profile defaults on the embedded database (npm start: one database session)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ embedded: true });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('a profile write, its projection by thresholds and the status read never wait on each other', async () => {
    const { key } = await h.key('thr-embedded', 'full');
    const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
      h.inject({ method, url, headers: { 'x-api-key': key, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
    const created = await send('POST', '/v1/sources', { source_key: 'shop-de', display_name: 'DE shop', channel_type: 'owned_store', supplier_establishment_country: 'DE', dispatch_country: 'DE' });
    expect(created.statusCode, created.body).toBe(201);
    const committed = await send('POST', '/v1/supply-events', { events: [sale('emb-1', `${Y}-01-15`, 300000, { supplier_establishment_country: undefined, dispatch_country: undefined, source_id: 'shop-de' })] });
    expect(committed.statusCode, committed.body).toBe(201);
    const caughtUp = async (): Promise<Json> => {
      for (const end = Date.now() + 15_000; ; await new Promise((r) => setTimeout(r, 50))) {
        const s = (await send('GET', '/v1/compliance/threshold-status')).json() as Json;
        if (s.ledger_position === 1 || Date.now() > end) return s;
      }
    };
    const s = await caughtUp();
    expect(s).toMatchObject({ ledger_position: 1, evidence_status: 'resolved', issues: ['profile_default_applied'] });
    expect(s.checks[0]).toMatchObject({ establishment_country: 'DE', current_minor: 300000 });
    const patched = await send('PATCH', `/v1/sources/${created.json().id}`, { supplier_establishment_country: 'FR', dispatch_country: 'FR' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await send('GET', '/v1/compliance/threshold-status')).json().checks[0]).toMatchObject({ establishment_country: 'FR', current_minor: 0 });
  }, 60_000);
});
