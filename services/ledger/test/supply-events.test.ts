import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';

const backends = await requireBackends(['postgres']);

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for the projection');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A German B2C sale: net 10000 at 19 % → vat half_up(10000·1900/10000) = 1900. */
const SALE = {
  event_id: 'order-1/line-1',
  event_type: 'sale',
  occurred_at: '2026-02-10',
  supply_kind: 'goods',
  customer_type: 'b2c',
  country_of_consumption: 'DE',
  dispatch_country: 'FR',
  supplier_establishment_country: 'FR',
  currency: 'EUR',
  net_amount_minor: 10000,
  vat_amount_minor: 1900,
  vat_rate_bps: 1900,
  rate_category: 'standard',
  classification_status: 'classified',
};

describe.skipIf(!backends.ok)('supply events over REST (PostgreSQL)', () => {
  let h: Harness;
  let full: string;
  let readOnly: string;
  let other: string;
  let db: pg.Pool;
  beforeAll(async () => {
    h = await startHarness();
    full = (await h.key('ledger-acme', 'full')).key;
    readOnly = (await h.key('ledger-acme', 'read-only')).key;
    other = (await h.key('ledger-other', 'full')).key;
    db = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  const post = (payload: unknown, key = full) => h.inject({ method: 'POST', url: '/v1/supply-events', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const get = (url: string, key = full) => h.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  const stored = async () => Number((await db.query('select count(*) from ledger.supply_event')).rows[0].count);

  it('commits one event (201), stores it as sent with the ledger position and knowledge time', async () => {
    const r = await post(SALE);
    expect(r.statusCode, r.body).toBe(201);
    const e = r.json();
    expect(e).toMatchObject({ ...SALE, occurred_at: '2026-02-10T00:00:00.000Z', sequence: 1, original_event_id: null, source_id: null });
    expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(e.recorded_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await get(`/v1/supply-events/${e.id}`)).json()).toEqual(e);
  });

  it('a repeat with the same content returns the stored event (200); other content is 409 supply_event_conflict', async () => {
    const again = await post(SALE);
    expect(again.statusCode).toBe(200);
    expect(again.json().sequence).toBe(1);
    const before = await stored();
    const changed = await post({ ...SALE, net_amount_minor: 10001, vat_amount_minor: 1900 });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ error: 'supply_event_conflict', errors: [{ index: 0, event_id: SALE.event_id, error: 'supply_event_conflict' }] });
    expect(await stored()).toBe(before);
  });

  it('a batch is all-or-nothing and lists every refused item', async () => {
    const before = await stored();
    const events = [
      { ...SALE, event_id: 'b-1' },
      { ...SALE, event_id: 'b-2', event_type: 'refund', original_event_id: 'b-1' }, // positive refund: wrong sign
      { ...SALE, event_id: 'b-3', vat_amount_minor: 1902 }, // 1902 vs 1900: more than one minor unit off
      { ...SALE, event_id: 'b-4', occurred_at: '2026-02-30' },
      { ...SALE, event_id: 'b-5', net_amount_minor: '10000' },
      { ...SALE, event_id: 'b-6', colour: 'red' },
    ];
    const r = await post({ events });
    expect(r.statusCode).toBe(400);
    const errors = r.json().errors as { index: number; error: string; field: string }[];
    // type errors are found first (the gateway maps JSON types); the rest by the ledger
    expect(errors.map((e) => [e.index, e.error])).toEqual([[4, 'invalid_net_amount_minor'], [5, 'unknown_field']]);
    const typed = await post({ events: events.slice(0, 4) });
    expect(typed.statusCode).toBe(400);
    expect((typed.json().errors as { index: number; error: string }[]).map((e) => [e.index, e.error])).toEqual([[1, 'invalid_amount_sign'], [2, 'vat_amount_mismatch'], [3, 'invalid_occurred_at']]);
    expect(await stored()).toBe(before);
  });

  it('a batch commits in order with consecutive sequences; refund, cancellation and credit note are <= 0, an adjustment either way', async () => {
    const r = await post({
      events: [
        { ...SALE, event_id: 'c-1' },
        // refund of 2500 net: vat half_up(2500·1900/10000) = 475, negative
        { ...SALE, event_id: 'c-2', event_type: 'refund', original_event_id: 'c-1', net_amount_minor: -2500, vat_amount_minor: -475 },
        { ...SALE, event_id: 'c-3', event_type: 'adjustment', original_event_id: 'c-1', net_amount_minor: 100, vat_amount_minor: 19 },
        // vat within one minor unit of half_up(333·1900/10000) = half_up(63.27) = 63: 64 is accepted
        { ...SALE, event_id: 'c-4', net_amount_minor: 333, vat_amount_minor: 64 },
        // a correction whose original has not arrived is stored (reports exclude it until it does)
        { ...SALE, event_id: 'c-5', event_type: 'credit_note', original_event_id: 'not-yet', net_amount_minor: -100, vat_amount_minor: -19 },
      ],
    });
    expect(r.statusCode, r.body).toBe(201);
    const items = r.json().items as { sequence: number; status: string }[];
    expect(items.map((i) => i.status)).toEqual(['committed', 'committed', 'committed', 'committed', 'committed']);
    expect(items.map((i) => i.sequence)).toEqual([2, 3, 4, 5, 6]);
  });

  it('stores each event\'s ECB evidence: the last publication on or before its day, every non-euro EU currency and the batch\'s own currencies of that day', async () => {
    // 2026-02-28 is a Saturday: its evidence is Friday 2026-02-27's publication. USD is in the first day's evidence
    // (an event of that day is in USD, so every event of that day carries it), not in the second day's.
    const r = await post({
      events: [
        { ...SALE, event_id: 'ecb-1', occurred_at: '2026-02-28' },
        { ...SALE, event_id: 'ecb-2', occurred_at: '2026-02-28', currency: 'USD' },
        { ...SALE, event_id: 'ecb-3', occurred_at: '2026-03-03' },
        { ...SALE, event_id: 'ecb-4', occurred_at: '2026-02-28T23:59:59Z', currency: 'SEK' },
      ],
    });
    expect(r.statusCode, r.body).toBe(201);
    const publication = async (day: string) =>
      (await db.query(`select rate_date::text as rate_date, rates from ledger.ecb_rate_day_projection where rate_date <= $1 order by rate_date desc limit 1`, [day])).rows[0] as { rate_date: string; rates: Record<string, string> };
    const expected = async (day: string, currencies: string[]) => {
      const p = await publication(day);
      return { rateDate: p.rate_date, ratesPerEur: Object.fromEntries(currencies.filter((c) => p.rates[c] !== undefined).map((c) => [c, p.rates[c]!])) };
    };
    const EU = ['BGN', 'CZK', 'DKK', 'HRK', 'HUF', 'PLN', 'RON', 'SEK'];
    const rows = (await db.query(`select event_id, ecb_rate_evidence from ledger.supply_event where event_id like 'ecb-%' order by event_id`)).rows as { event_id: string; ecb_rate_evidence: unknown }[];
    const feb = await expected('2026-02-28', [...EU, 'USD']);
    expect(feb.rateDate).toBe('2026-02-27');
    expect(Object.keys(feb.ratesPerEur)).toContain('USD');
    const mar = await expected('2026-03-03', EU);
    expect(mar.rateDate).toBe('2026-03-03');
    expect(rows).toEqual([
      { event_id: 'ecb-1', ecb_rate_evidence: feb },
      { event_id: 'ecb-2', ecb_rate_evidence: feb },
      { event_id: 'ecb-3', ecb_rate_evidence: mar },
      { event_id: 'ecb-4', ecb_rate_evidence: feb },
    ]);
  });

  it.each([
    [{ event_type: 'gift' }, 'invalid_event_type'],
    [{ event_id: 'has space' }, 'invalid_event_id'],
    [{ event_id: 'x'.repeat(101) }, 'invalid_event_id'],
    [{ original_event_id: 'b-1' }, 'invalid_original_event_id'],
    [{ supply_kind: 'digital' }, 'invalid_supply_kind'],
    [{ customer_type: 'b2g' }, 'invalid_customer_type'],
    [{ country_of_consumption: 'XX' }, 'invalid_country_of_consumption'],
    [{ currency: 'XXX' }, 'invalid_currency'],
    [{ currency: 'HRK', occurred_at: '2024-01-01' }, 'invalid_currency'],
    [{ net_amount_minor: 1.5 }, 'invalid_net_amount_minor'],
    [{ net_amount_minor: 1e16, vat_amount_minor: 19e14 }, 'invalid_net_amount_minor'],
    [{ net_amount_minor: 2 ** 70 }, 'invalid_net_amount_minor'],
    [{ vat_rate_bps: 10001 }, 'invalid_vat_rate_bps'],
    [{ rate_category: 'zero' }, 'invalid_vat_rate_bps'],
    [{ classification_status: 'maybe' }, 'invalid_classification_status'],
    [{ consignment_reference: 'C1' }, 'invalid_consignment_reference'],
    [{ supply_kind: 'imported_goods', third_country_origin: 'FR' }, 'invalid_third_country_origin'],
    [{ source_id: 'bad tag' }, 'invalid_source_id'],
    [{ calculation_id: 'nope' }, 'invalid_calculation_id'],
    [{ calculation_id: '6f1c2a9e-6a1e-4c1b-9f57-0b7c1f0e9a11' }, 'calculation_not_found'],
    [{ integration_id: 999999 }, 'integration_not_found'],
    [{ integration_id: '1' }, 'invalid_integration_id'],
    [{ excise_goods: 'yes' }, 'invalid_excise_goods'],
    [{ occurred_at: null }, 'invalid_occurred_at'],
  ])('%o → 400 %s, nothing stored', async (change, code) => {
    const before = await stored();
    const r = await post({ ...SALE, event_id: `bad-${Math.random().toString(36).slice(2)}`, ...change });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().error).toBe('invalid_supply_events');
    expect((r.json().errors as { error: string }[]).map((e) => e.error)).toContain(code);
    expect(await stored()).toBe(before);
  });

  it('every required field, when missing, is refused with its own code', async () => {
    for (const field of ['event_id', 'event_type', 'occurred_at', 'supply_kind', 'customer_type', 'country_of_consumption', 'currency', 'net_amount_minor', 'vat_amount_minor', 'vat_rate_bps', 'rate_category', 'classification_status']) {
      const event: Record<string, unknown> = { ...SALE, event_id: `missing-${field}` };
      delete event[field];
      const r = await post(event);
      expect(r.statusCode, field).toBe(400);
      expect((r.json().errors as { field: string; error: string }[]).map((e) => [e.field, e.error]), field).toContainEqual([field, `invalid_${field}`]);
    }
  });

  it('a value that was sent is never answered "is required": a 13th month is not a valid date, eur must be upper case', async () => {
    const detailOf = async (over: Record<string, unknown>, field: string) => {
      const r = await post({ ...SALE, event_id: `msg-${field}`, ...over });
      expect(r.statusCode, r.body).toBe(400);
      const e = (r.json().errors as { field: string; error: string; detail: string }[]).find((x) => x.field === field)!;
      expect(e.error).toBe(`invalid_${field}`);
      expect(e.detail).not.toMatch(/is required/);
      return e.detail;
    };
    expect(await detailOf({ occurred_at: '2025-13-01' }, 'occurred_at')).toMatch(/^"2025-13-01" is not a valid date/);
    expect(await detailOf({ occurred_at: '2025-02-30' }, 'occurred_at')).toMatch(/is not a valid date/);
    expect(await detailOf({ currency: 'eur' }, 'currency')).toBe('currency codes are upper case: EUR, not eur.');
    expect(await detailOf({ currency: 'XYZ' }, 'currency')).toMatch(/"XYZ" is not an ISO 4217 currency code/);
    expect(await detailOf({ vat_rate_bps: 10001 }, 'vat_rate_bps')).toMatch(/out of range/);
    expect(await detailOf({ event_id: 'a b' }, 'event_id')).toMatch(/is not a valid event_id/);
  });

  it('every field with a value of the wrong JSON type is refused with its own code', async () => {
    const wrong: Record<string, unknown> = {};
    for (const [k, v] of Object.entries({ ...SALE, product_reference: 'p', integration_id: 1, excise_goods: true, intrinsic_value_eur_minor: 1 })) {
      wrong[k] = typeof v === 'string' ? 12 : typeof v === 'number' ? 'twelve' : 'yes';
    }
    const r = await post(wrong);
    expect(r.statusCode).toBe(400);
    const fields = (r.json().errors as { field: string; error: string }[]).map((e) => e.error);
    for (const k of Object.keys(wrong)) expect(fields, k).toContain(`invalid_${k}`);
  });

  it('an event of another account with the same event_id is its own event (ids are per account)', async () => {
    const r = await post({ ...SALE, event_id: 'order-1/line-1' }, other);
    expect(r.statusCode).toBe(201);
    expect(r.json().sequence).toBe(1);
  });

  it('commits a v1 calculation: omitted facts come from it, stated ones must match; another account cannot use it', async () => {
    const calc = await h.inject({ method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': full }, payload: { country: 'AT', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 12000, price_includes_vat: true, transaction_date: '2026-03-01' } });
    const c = calc.json();
    // AT 20 %: vat half_up(12000·2000/12000) = 2000, net 10000
    const base = { event_id: 'calc-1', event_type: 'sale', occurred_at: '2026-03-01', supply_kind: 'goods', customer_type: 'b2c', rate_category: 'standard', classification_status: 'classified', calculation_id: c.calculation_id };
    const mismatch = await post({ ...base, net_amount_minor: 9999 });
    expect(mismatch.json().errors).toContainEqual(expect.objectContaining({ field: 'net_amount_minor', error: 'calculation_mismatch' }));
    const r = await post(base);
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ country_of_consumption: 'AT', currency: 'EUR', net_amount_minor: 10000, vat_amount_minor: 2000, vat_rate_bps: 2000, calculation_id: c.calculation_id });
    const theirs = await post({ ...base, event_id: 'calc-x' }, other);
    expect(theirs.json().errors).toContainEqual(expect.objectContaining({ field: 'calculation_id', error: 'calculation_not_found' }));
  });

  it('lists in ledger order with a cursor and filters; other accounts see nothing and get 404', async () => {
    const p1 = (await get('/v1/supply-events?limit=2')).json();
    expect(p1.items.map((i: { sequence: number }) => i.sequence)).toEqual([1, 2]);
    const p2 = (await get(`/v1/supply-events?limit=2&cursor=${p1.next_cursor}`)).json();
    expect(p2.items.map((i: { sequence: number }) => i.sequence)).toEqual([3, 4]);
    const refunds = (await get('/v1/supply-events?event_type=refund')).json();
    expect(refunds.items.map((i: { event_id: string }) => i.event_id)).toEqual(['c-2']);
    expect((await get('/v1/supply-events', other)).json().items.map((i: { event_id: string }) => i.event_id)).toEqual(['order-1/line-1']);
    expect((await get(`/v1/supply-events/${p1.items[0].id}`, other)).statusCode).toBe(404);
    expect((await get('/v1/supply-events/not-an-id')).json().error).toBe('supply_event_not_found');
    for (const [qs, code] of [['limit=0', 'invalid_limit'], ['event_type=gift', 'invalid_event_type'], ['from=2026-13-01', 'invalid_date'], ['cursor=zzz', 'invalid_cursor'], ['colour=red', 'unknown_parameter']]) {
      const r = await get(`/v1/supply-events?${qs}`);
      expect([r.statusCode, r.json().error], qs).toEqual([400, code]);
    }
  });

  it('control characters in any field refuse the request before the ledger (400, the item named like any item error)', async () => {
    const before = await stored();
    const r = await post({ events: [{ ...SALE, event_id: 'ctl-1' }, { ...SALE, event_id: 'ctl-2', product_reference: 'a\u0000b' }] });
    expect([r.statusCode, r.json().error]).toEqual([400, 'invalid_supply_events']);
    expect(r.json().errors).toEqual([{ index: 1, event_id: 'ctl-2', field: 'product_reference', error: 'invalid_product_reference', detail: 'product_reference must not contain control characters.' }]);
    // a lone surrogate is not text either (it used to reach the digest and answer 500)
    const surrogate = await post({ ...SALE, event_id: 'ctl-3', order_reference: 'a\ud800b' });
    expect([surrogate.statusCode, surrogate.json().error, surrogate.json().errors[0].error]).toEqual([400, 'invalid_supply_events', 'invalid_order_reference']);
    expect(await stored()).toBe(before);
  });

  it('tax_class_id must be a class of GET /v1/tax-classes: anything else is unknown_tax_class, like every other endpoint, and nothing is stored', async () => {
    const before = await stored();
    for (const id of ['no_such_thing', 'de', 'null', 'DE', 'Standard', '']) {
      const r = await post({ events: [{ ...SALE, event_id: 'tc-ok', tax_class_id: 'food' }, { ...SALE, event_id: 'tc-bad', tax_class_id: id }] });
      expect([r.statusCode, r.json().error], JSON.stringify(id)).toEqual([400, 'invalid_supply_events']);
      expect(r.json().errors).toEqual([{ index: 1, event_id: 'tc-bad', field: 'tax_class_id', error: 'unknown_tax_class', detail: expect.stringContaining('GET /v1/tax-classes') }]);
      const single = await post({ ...SALE, event_id: 'tc-single', tax_class_id: id });
      expect([single.statusCode, single.json().errors?.[0]?.error], JSON.stringify(id)).toEqual([400, 'unknown_tax_class']);
    }
    expect(await stored()).toBe(before);
    const food = await post({ ...SALE, event_id: 'tc-food', tax_class_id: 'food' });
    expect([food.statusCode, food.json().tax_class_id], food.body).toEqual([201, 'food']);
    expect(await stored()).toBe(before + 1);
  });

  it('C1 control characters (U+0080–U+009F, e.g. NEL U+0085 and CSI U+009B) are control characters too: refused, nothing stored', async () => {
    const before = await stored();
    for (const field of ['product_reference', 'variant_reference', 'order_reference']) {
      for (const c of ['\u0085', '\u009b', '\u0080', '\u009f']) {
        const r = await post({ events: [{ ...SALE, event_id: 'c1-ok' }, { ...SALE, event_id: 'c1-bad', [field]: `ref${c}` }] });
        expect([r.statusCode, r.json().error], `${field} ${JSON.stringify(c)}`).toEqual([400, 'invalid_supply_events']);
        expect(r.json().errors).toEqual([{ index: 1, event_id: 'c1-bad', field, error: `invalid_${field}`, detail: `${field} must not contain control characters.` }]);
      }
    }
    // NBSP (U+00A0), the first character after C1, is text
    const nbsp = await post({ ...SALE, event_id: 'c1-nbsp', product_reference: 'sku\u00a0blue' });
    expect(nbsp.statusCode, nbsp.body).toBe(201);
    expect(await stored()).toBe(before + 1);
  });

  it('writes need scope full; a read-only key reads', async () => {
    expect((await post({ ...SALE, event_id: 'ro' }, readOnly)).statusCode).toBe(403);
    expect((await get('/v1/supply-events', readOnly)).statusCode).toBe(200);
  });

  it('both projections (thresholds, compliance-reports) apply every committed event exactly once and reach the ledger head', async () => {
    const head = async () => (await db.query(`select account_id::text, sequence::text from ledger.ledger_head`)).rows as { account_id: string; sequence: string }[];
    await waitUntil(async () => {
      const heads = await head();
      for (const schema of ['thresholds', 'compliance_reports']) {
        const pos = (await db.query(`select account_id::text, applied::text from ${schema}.supply_projection_position`)).rows as { account_id: string; applied: string }[];
        if (!(heads.length > 0 && heads.every((hd) => pos.some((p) => p.account_id === hd.account_id && p.applied === hd.sequence)))) return false;
      }
      return true;
    });
    for (const schema of ['thresholds', 'compliance_reports']) {
      const facts = await db.query(`select count(*)::int as n, count(distinct (account_id, sequence))::int as d from ${schema}.supply_fact`);
      expect(facts.rows[0].n).toBe(await stored());
      expect(facts.rows[0].d).toBe(facts.rows[0].n);
    }
    // the projection holds the whole event as committed
    const [ledgerRow] = (await db.query(`select id, net_amount_minor::text, occurred_at from ledger.supply_event where event_id = 'c-2'`)).rows;
    const [fact] = (await db.query(`select net_amount_minor::text, occurred_at, original_event_id from thresholds.supply_fact where id = $1`, [ledgerRow.id])).rows;
    expect(fact).toEqual({ net_amount_minor: '-2500', occurred_at: ledgerRow.occurred_at, original_event_id: 'c-1' });
  });

  it('committed events are immutable in the database itself', async () => {
    await expect(db.query(`update ledger.supply_event set net_amount_minor = 0`)).rejects.toThrow(/append-only/);
    await expect(db.query(`delete from ledger.supply_event`)).rejects.toThrow(/append-only/);
  });
});
