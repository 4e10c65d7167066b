import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { germanVatNumber, LocalVies } from '../../test/support/vies-server';
import { projectionCaughtUp, servicesSale, waitUntil } from './report-support';

const backends = await requireBackends(['postgres']);

type Json = Record<string, any>;

const RETRIES = 2;
const OWN_NUMBER = 'DE136695976';

describe.skipIf(!backends.ok)('VAT-number checks against VIES (REST, PostgreSQL, a local VIES)', () => {
  let h: Harness;
  let vies: LocalVies;
  let db: pg.Client;
  let serial = 20000000;
  /** A fresh German number with a correct check digit, so the offline test passes and VIES is asked. */
  const nextNumber = () => germanVatNumber(String(++serial));
  const keys: Record<string, string> = {};

  const check = (key: string, vat_number: unknown) => h.inject({ method: 'POST', url: '/v1/vat-numbers/check', headers: { 'x-api-key': key }, payload: { vat_number } as object });
  const ok = async (key: string, vat_number: string) => {
    const r = await check(key, vat_number);
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { check: Json; reused: boolean };
  };
  const list = (key: string, qs = '') => h.inject({ method: 'GET', url: `/v1/vat-numbers/checks${qs}`, headers: { 'x-api-key': key } });
  const account = async (name: string, withRegistration: boolean) => {
    const { key } = await h.key(name, 'full');
    if (withRegistration) {
      const r = await h.inject({
        method: 'POST',
        url: '/v1/tax-registrations',
        headers: { 'x-api-key': key },
        payload: { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: OWN_NUMBER, effective_from: '2024-01-01', status: 'active' },
      });
      expect(r.statusCode, r.body).toBe(201);
    }
    return key;
  };

  beforeAll(async () => {
    vies = await new LocalVies().start();
    h = await startHarness({
      env: {
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        VIES_URL: vies.url,
        VIES_TIMEOUT_MS: '2000',
        VIES_RETRIES: String(RETRIES),
        VIES_BACKOFF_MS: '10',
        VIES_MAX_CONCURRENT_PER_STATE: '2',
        VIES_STATUS_TTL_MS: '0',
        VIES_REUSE_DAYS: '30',
      },
    });
    keys.a = await account('vies-a', true);
    keys.b = await account('vies-b', true);
    keys.noReg = await account('vies-no-registration', false);
    keys.checkout = (await h.key('vies-a', 'vat-number-check')).key;
    keys.read = (await h.key('vies-a', 'read-only')).key;
    keys.calc = (await h.key('vies-a', 'calculate-only')).key;
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
    await vies?.close();
  });
  beforeEach(() => {
    vies.down = false;
    vies.delayMs = 0;
    vies.msMaxConcurrent = Infinity;
    vies.vowAvailable = true;
    vies.availability.clear();
  });

  it('valid: VIES asked with the account\'s own number as requester; consultation number, name, address kept; the number only masked', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    const { check: c, reused } = await ok(keys.a!, `${number.slice(0, 2).toLowerCase()} ${number.slice(2, 5)}.${number.slice(5)}`);
    expect(reused).toBe(false);
    expect(c).toEqual({
      id: expect.any(Number),
      vat_number_masked: `DE*****${number.slice(-4)}`,
      member_state: 'DE',
      result: 'valid',
      reason: null,
      checked_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      vies_request_date: expect.any(String),
      consultation_number: expect.stringMatching(/^WAPIAAAA\d{8}$/),
      name: `Trader DE${number.slice(-3)} GmbH`,
      address: 'Hauptstrasse 1\n10115 Berlin',
      requester_vat_number_masked: 'DE*****5976',
      member_state_availability: 'Available',
      attempts: 1,
    });
    const sent = vies.requests.at(-1)!;
    expect(sent).toEqual({ countryCode: 'DE', vatNumber: number.slice(2), requesterMemberStateCode: 'DE', requesterNumber: OWN_NUMBER.slice(2) });
    // At rest: ciphertext, digest and mask; the number is in no column of the row.
    const row = (await db.query('select * from compliance_reports.vat_number_check where id = $1', [c.id])).rows[0];
    expect(JSON.stringify(row)).not.toContain(number.slice(2));
    expect(row.vat_number_encrypted.toString('latin1')).not.toContain(number.slice(2));
    expect(row.vat_number_digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('without a Union OSS registration VIES is asked without requester: valid, but no consultation number', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    const { check: c } = await ok(keys.noReg!, number);
    expect(c).toMatchObject({ result: 'valid', consultation_number: null, requester_vat_number_masked: null });
    expect(vies.requests.at(-1)).toEqual({ countryCode: 'DE', vatNumber: number.slice(2) });
  });

  it('invalid: VIES says the number is not registered', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'invalid');
    const { check: c } = await ok(keys.a!, number);
    expect(c).toMatchObject({ result: 'invalid', reason: null, name: null, address: null, attempts: 1, consultation_number: expect.stringMatching(/^WAPIAAAA/) });
  });

  it('format_invalid: a wrong check digit, a foreign prefix or the wrong length is answered offline, stored, never sent to VIES', async () => {
    const before = vies.requests.length;
    for (const [input, state] of [['DE136695977', 'DE'], ['US123456789', 'US'], ['ATU1234', 'AT'], ['GR094259217', 'EL']] as const) {
      const { check: c } = await ok(keys.a!, input);
      expect(c).toMatchObject({ result: 'format_invalid', member_state: state, attempts: 0, consultation_number: null });
      expect(c.reason).toEqual(expect.any(String));
    }
    expect(vies.requests.length).toBe(before);
  });

  it('a Greek number is sent with the VIES code EL (GR written by the caller is accepted)', async () => {
    vies.numbers.set('EL094259216', 'valid');
    const { check: c } = await ok(keys.b!, 'GR094259216');
    expect(c).toMatchObject({ result: 'valid', member_state: 'EL', vat_number_masked: 'EL*****9216' });
    expect(vies.requests.at(-1)).toMatchObject({ countryCode: 'EL', vatNumber: '094259216' });
  });

  it.each(['MS_UNAVAILABLE', 'TIMEOUT', 'SERVICE_UNAVAILABLE', 'MS_MAX_CONCURRENT_REQ', 'MS_MAX_CONCURRENT_REQ_TIME', 'GLOBAL_MAX_CONCURRENT_REQ', 'GLOBAL_MAX_CONCURRENT_REQ_TIME'])(
    '%s every time: unavailable (never invalid) after %s retries',
    async (code) => {
      const number = nextNumber();
      vies.numbers.set(number, { error: code, status: code === 'SERVICE_UNAVAILABLE' ? 500 : 200 });
      const { check: c } = await ok(keys.a!, number);
      expect(c).toMatchObject({ result: 'unavailable', reason: code, attempts: RETRIES + 1, consultation_number: null });
      expect(vies.countFor(number)).toBe(RETRIES + 1);
    },
  );

  it('a dropped connection is unavailable NETWORK_ERROR; VAT_BLOCKED is unavailable without retries', async () => {
    const dropped = nextNumber();
    vies.numbers.set(dropped, 'drop');
    expect((await ok(keys.a!, dropped)).check).toMatchObject({ result: 'unavailable', reason: 'NETWORK_ERROR', attempts: RETRIES + 1 });
    const blocked = nextNumber();
    vies.numbers.set(blocked, { error: 'VAT_BLOCKED' });
    expect((await ok(keys.a!, blocked)).check).toMatchObject({ result: 'unavailable', reason: 'VAT_BLOCKED', attempts: 1 });
  });

  it('retries with backoff: two MS_UNAVAILABLE answers, then valid on the third attempt', async () => {
    const number = nextNumber();
    vies.numbers.set(number, [{ error: 'MS_UNAVAILABLE' }, { error: 'TIMEOUT' }, 'valid']);
    const { check: c } = await ok(keys.a!, number);
    expect(c).toMatchObject({ result: 'valid', attempts: 3, consultation_number: expect.stringMatching(/^WAPIAAAA/) });
  });

  it('INVALID_REQUESTER_INFO: checked again without requester (valid, no consultation number); INVALID_INPUT is format_invalid', async () => {
    const number = nextNumber();
    vies.numbers.set(number, [{ error: 'INVALID_REQUESTER_INFO', status: 400 }, 'valid']);
    expect((await ok(keys.a!, number)).check).toMatchObject({ result: 'valid', attempts: 2, consultation_number: null, requester_vat_number_masked: null });
    const refused = nextNumber();
    vies.numbers.set(refused, { error: 'INVALID_INPUT', status: 400 });
    expect((await ok(keys.a!, refused)).check).toMatchObject({ result: 'format_invalid', reason: 'INVALID_INPUT', attempts: 1 });
  });

  it('at most VIES_MAX_CONCURRENT_PER_STATE (2) requests per Member State in flight, other States not held up', async () => {
    vies.delayMs = 300;
    vies.maxInFlight.clear();
    const numbers = Array.from({ length: 6 }, () => nextNumber());
    for (const n of numbers) vies.numbers.set(n, 'valid');
    vies.numbers.set('ATU13585627', 'valid');
    const answers = await Promise.all([...numbers, 'ATU13585627'].map((n) => ok(keys.a!, n)));
    expect(answers.map((a) => a.check.result)).toEqual(Array(7).fill('valid'));
    expect(vies.maxInFlight.get('DE')).toBe(2);
    expect(vies.maxInFlight.get('AT')).toBe(1);
  });

  it('concurrency refusals by VIES (MS_MAX_CONCURRENT_REQ beyond 1 in flight) are retried: every check ends valid or unavailable, none invalid', async () => {
    vies.delayMs = 250;
    vies.msMaxConcurrent = 1;
    const numbers = Array.from({ length: 4 }, () => nextNumber());
    for (const n of numbers) vies.numbers.set(n, 'valid');
    const answers = await Promise.all(numbers.map((n) => ok(keys.a!, n)));
    for (const a of answers) {
      expect(['valid', 'unavailable']).toContain(a.check.result);
      if (a.check.result === 'unavailable') expect(a.check.reason).toBe('MS_MAX_CONCURRENT_REQ');
    }
    expect(answers.some((a) => a.check.result === 'valid')).toBe(true);
    expect(answers.some((a) => a.check.attempts > 1)).toBe(true);
  });

  it('slow answers beyond VIES_TIMEOUT_MS are unavailable CLIENT_TIMEOUT, not invalid', async () => {
    vies.delayMs = 2500;
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    expect((await ok(keys.a!, number)).check).toMatchObject({ result: 'unavailable', reason: 'CLIENT_TIMEOUT', attempts: RETRIES + 1 });
  }, 30_000);

  it('check-status: a Member State reported Unavailable is answered unavailable at once (0 attempts), and the availability is shown', async () => {
    vies.availability.set('DE', 'Unavailable');
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    expect((await ok(keys.a!, number)).check).toMatchObject({ result: 'unavailable', reason: 'MS_UNAVAILABLE', attempts: 0, member_state_availability: 'Unavailable' });
    expect(vies.countFor(number)).toBe(0);
    vies.availability.set('DE', 'Monitoring Disabled');
    expect((await ok(keys.a!, number)).check).toMatchObject({ result: 'valid', member_state_availability: 'Monitoring Disabled' });
  });

  it('reuse window: a valid or invalid answer is reused (no new VIES request, same evidence); unavailable and format_invalid are not', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    const first = await ok(keys.a!, number);
    const again = await ok(keys.a!, number);
    expect(again).toEqual({ check: first.check, reused: true });
    expect(vies.countFor(number)).toBe(1);

    const flaky = nextNumber();
    vies.numbers.set(flaky, [{ error: 'MS_UNAVAILABLE' }, { error: 'MS_UNAVAILABLE' }, { error: 'MS_UNAVAILABLE' }, 'valid']);
    expect((await ok(keys.a!, flaky)).check.result).toBe('unavailable');
    const second = await ok(keys.a!, flaky);
    expect(second).toMatchObject({ reused: false, check: { result: 'valid' } });
  });

  it('isolation: another account never reuses or lists this account\'s evidence', async () => {
    const number = nextNumber();
    vies.numbers.set(number, 'valid');
    const a = await ok(keys.a!, number);
    const b = await ok(keys.b!, number);
    expect(b.reused).toBe(false);
    expect(b.check.id).not.toBe(a.check.id);
    expect(vies.countFor(number)).toBe(2);
    const listed = (await list(keys.b!, '?limit=200')).json() as Json;
    expect(listed.items.map((i: Json) => i.id)).not.toContain(a.check.id);
  });

  it('VIES down for a while: every check is unavailable (never invalid) and sales still go through; once back, valid', async () => {
    vies.down = true;
    const numbers = Array.from({ length: 3 }, () => nextNumber());
    for (const n of numbers) vies.numbers.set(n, 'valid');
    for (const n of numbers) expect((await ok(keys.checkout!, n)).check).toMatchObject({ result: 'unavailable', member_state_availability: 'unknown' });
    const sale = await h.inject({
      method: 'POST',
      url: '/v1/vat/calculate',
      headers: { 'x-api-key': keys.calc! },
      payload: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 11900, price_includes_vat: true, transaction_date: '2026-06-01' },
    });
    expect(sale.statusCode, sale.body).toBe(200);
    vies.down = false;
    for (const n of numbers) expect((await ok(keys.checkout!, n)).check).toMatchObject({ result: 'valid', member_state_availability: 'Available' });
  });

  it('GET lists newest first with cursors; a bad cursor or limit is 400', async () => {
    const key = await account('vies-list', true);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const n = nextNumber();
      vies.numbers.set(n, i % 2 ? 'valid' : 'invalid');
      ids.push((await ok(key, n)).check.id);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const r = await list(key, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.statusCode, r.body).toBe(200);
      const page = r.json() as Json;
      expect(page.items.length).toBeLessThanOrEqual(2);
      for (const item of page.items) expect(item.vat_number_masked).toMatch(/^DE\*{5}\d{4}$/);
      seen.push(...page.items.map((i: Json) => i.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect((await list(key, '?cursor=bm90LWEtY3Vyc29y')).json()).toMatchObject({ error: 'invalid_cursor' });
    expect((await list(key, '?limit=0')).statusCode).toBe(400);
    expect((await list(keys.read!)).statusCode).toBe(200);
  });

  it('scopes: the checkout scope may check but not list; read-only may list but not check; bad input is 400 with nothing stored', async () => {
    expect((await check(keys.read!, 'DE136695976')).statusCode).toBe(403);
    expect((await check(keys.calc!, 'DE136695976')).statusCode).toBe(403);
    expect((await list(keys.checkout!)).statusCode).toBe(403);
    const before = Number((await db.query('select count(*) from compliance_reports.vat_number_check')).rows[0].count);
    for (const bad of ['', '   ', 'DE 1366$95976', 'X'.repeat(61), 5, null, ['DE136695976']]) {
      const r = await check(keys.a!, bad);
      expect(r.statusCode, `${JSON.stringify(bad)} ${r.body}`).toBe(400);
      expect(r.json().error).toBe('invalid_vat_number');
    }
    expect(Number((await db.query('select count(*) from compliance_reports.vat_number_check')).rows[0].count)).toBe(before);
  });

  it('a quarter with b2b supplies: out of Union OSS scope with valid VIES evidence (linked in the drill-down), reviewed without it', async () => {
    const { key, accountId } = await h.key('vies-quarter', 'full');
    const reg = await h.inject({ method: 'POST', url: '/v1/tax-registrations', headers: { 'x-api-key': key }, payload: { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: OWN_NUMBER, effective_from: '2024-01-01', status: 'active' } });
    expect(reg.statusCode, reg.body).toBe(201);
    const [validNo, invalidNo, downNo] = [nextNumber(), nextNumber(), nextNumber()];
    vies.numbers.set(validNo, 'valid');
    vies.numbers.set(invalidNo, 'invalid');
    vies.numbers.set(downNo, { error: 'MS_UNAVAILABLE' });
    const evidence = (await ok(key, validNo)).check;
    expect((await ok(key, invalidNo)).check.result).toBe('invalid');
    expect((await ok(key, downNo)).check.result).toBe('unavailable');

    // The tax point is now, after the checks; the period is the current quarter.
    const now = new Date();
    const period = `${now.getUTCFullYear()}-Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
    const at = now.toISOString();
    const b2b = (id: string, number?: string) => servicesSale(id, at, { customer_type: 'b2b', ...(number ? { customer_vat_number: number } : {}) });
    const commit = await h.inject({
      method: 'POST',
      url: '/v1/supply-events',
      headers: { 'x-api-key': key },
      payload: { events: [servicesSale('q-b2c', at), b2b('q-b2b-valid', ` ${validNo.slice(0, 2)} ${validNo.slice(2)} `), b2b('q-b2b-invalid', invalidNo), b2b('q-b2b-none'), b2b('q-b2b-unavailable', downNo)] },
    });
    expect(commit.statusCode, commit.body).toBeLessThan(300);
    const committed = (commit.json() as Json).items.map((i: Json) => i.event ?? i);
    expect(committed.find((e: Json) => e.event_id === 'q-b2b-valid').customer_vat_number_masked).toBe(`DE*****${validNo.slice(-4)}`);
    expect(committed.find((e: Json) => e.event_id === 'q-b2b-none').customer_vat_number_masked).toBeNull();
    // Neither the ledger's row, nor its published event, nor the projection holds the number in clear.
    {
      await projectionCaughtUp(db as unknown as pg.Pool, accountId);
      const stored = (await db.query("select * from ledger.supply_event where event_id = 'q-b2b-valid' and account_id = $1", [accountId])).rows[0];
      expect(JSON.stringify({ ...stored, customer_vat_number_encrypted: null })).not.toContain(validNo.slice(2));
      expect(stored.customer_vat_number_encrypted.toString('latin1')).not.toContain(validNo.slice(2));
      const outbox = (await db.query('select payload from ledger.outbox')).rows.map((r) => Buffer.from(r.payload).toString('latin1'));
      expect(outbox.some((p) => p.includes(validNo.slice(2)))).toBe(false);
      const fact = (await db.query("select customer_vat_number_digest from compliance_reports.supply_fact where event_id = 'q-b2b-valid' and account_id = $1", [accountId])).rows[0];
      const check = (await db.query('select vat_number_digest from compliance_reports.vat_number_check where id = $1', [evidence.id])).rows[0];
      expect(fact.customer_vat_number_digest).toBe(check.vat_number_digest);
    }

    const summary = await h.inject({ method: 'GET', url: `/v1/reports/oss-quarterly-summary?period=${period}`, headers: { 'x-api-key': key } });
    expect(summary.statusCode, summary.body).toBe(200);
    const s = summary.json() as Json;
    // Included: the b2c service to FR only, 10000 net at 20 % = 2000 VAT (section 2a: supplied from DE, the Member State of identification).
    expect(s.rows.map((r: Json) => [r.member_state_of_consumption, r.vat_rate_bps, r.taxable_amount_minor, r.vat_amount_minor, r.source_event_count])).toEqual([['FR', 2000, 10000, 2000, 1]]);
    expect(s.warnings).toEqual([
      // invalid, no number, and unavailable: none proves a taxable customer at the tax point (Art. 18 of Reg. 282/2011)
      { code: 'unsupported_supply_kind_excluded', reason: 'b2b_supply', review: 'informational', count: 1 },
      { code: 'unsupported_supply_kind_excluded', reason: 'b2b_without_vat_number_evidence', review: 'needs_review', count: 3 },
    ]);
    const drill = await h.inject({ method: 'GET', url: `/v1/reports/oss-quarterly-summary/events?period=${period}`, headers: { 'x-api-key': key } });
    expect(drill.statusCode, drill.body).toBe(200);
    const items = (drill.json() as Json).items as Json[];
    const byId = new Map(items.map((i) => [i.event_id, i]));
    expect(byId.get('q-b2b-valid')).toMatchObject({ disposition: 'excluded', reason: 'b2b_supply', review: 'informational', vat_number_check_id: evidence.id });
    for (const id of ['q-b2b-invalid', 'q-b2b-none', 'q-b2b-unavailable']) expect(byId.get(id)).toMatchObject({ disposition: 'excluded', reason: 'b2b_without_vat_number_evidence', review: 'needs_review', vat_number_check_id: null });
    expect(byId.get('q-b2c')).toMatchObject({ disposition: 'included', vat_number_check_id: null });
  });

  it('Article 59c: a b2b supply without VIES evidence at its tax point is flagged for review in the threshold status; evidence arriving after the supply clears the flag', async () => {
    const { key } = await h.key('vies-59c', 'full');
    const reg = await h.inject({ method: 'POST', url: '/v1/tax-registrations', headers: { 'x-api-key': key }, payload: { scheme_type: 'union_oss', member_state_identification: 'DE', vat_registration_number: OWN_NUMBER, effective_from: '2024-01-01', status: 'active' } });
    expect(reg.statusCode, reg.body).toBe(201);
    const [before, after, invalidNo] = [nextNumber(), nextNumber(), nextNumber()];
    vies.numbers.set(before, 'valid');
    vies.numbers.set(after, 'valid');
    vies.numbers.set(invalidNo, 'invalid');
    expect((await ok(key, before)).check.result).toBe('valid');
    expect((await ok(key, invalidNo)).check.result).toBe('invalid');

    const at = new Date().toISOString();
    const b2b = (id: string, net: number, number?: string) => servicesSale(id, at, { customer_type: 'b2b', net_amount_minor: net, vat_amount_minor: net / 5, ...(number ? { customer_vat_number: number } : {}) });
    const commit = await h.inject({
      method: 'POST',
      url: '/v1/supply-events',
      headers: { 'x-api-key': key },
      payload: { events: [servicesSale('t-b2c', at), b2b('t-before', 1000, before), b2b('t-after', 2000, after), b2b('t-invalid', 4000, invalidNo), b2b('t-none', 8000)] },
    });
    expect(commit.statusCode, commit.body).toBeLessThan(300);
    const status = async () => {
      const r = await h.inject({ method: 'GET', url: '/v1/compliance/threshold-status', headers: { 'x-api-key': key } });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as Json;
    };
    const b2bRows = (s: Json) => (s.current_year_coverage as Json[]).filter((r) => r.reason.startsWith('b2b')).map((r) => [r.reason, r.evidence_quality, r.event_count, r.net_minor]);
    let s: Json = {};
    await waitUntil(async () => ((s = await status()), s.ledger_position === 5 && s.ledger_head === 5));
    // Checked before the supply (valid): out of scope with evidence. Checked invalid, or not checked yet, or no number: flagged.
    expect(b2bRows(s)).toEqual([
      ['b2b', 'complete', 1, 1000],
      // 2000 + 4000 + 8000 = 14000 in 3 events
      ['b2b_without_vat_number_evidence', 'vat_number_evidence_missing', 3, 14000],
    ]);
    expect(s.issues).toEqual(['b2b_without_vat_number_evidence']);
    // Flagged for review, not blocking: the b2c sale (10000) is counted and the check is stated.
    expect(s).toMatchObject({ evidence_status: 'resolved', current_year_excluded_event_count: 4, current_year_blocking_event_count: 0 });
    expect(s.checks[0]).toMatchObject({ current_minor: 10000, source_event_count: 1 });

    // The customer's number is checked after the supply, on the tax point's day: the evidence clears its flag.
    expect((await ok(key, after)).check.result).toBe('valid');
    await waitUntil(async () => ((s = await status()), b2bRows(s)[0]![2] === 2));
    expect(b2bRows(s)).toEqual([
      ['b2b', 'complete', 2, 3000],
      ['b2b_without_vat_number_evidence', 'vat_number_evidence_missing', 2, 12000],
    ]);
    // Another account's check of a number this account's supply carries changes nothing here (once thresholds has it).
    vies.numbers.set(invalidNo, 'valid');
    const other = (await ok(keys.b!, invalidNo)).check;
    expect(other.result).toBe('valid');
    await waitUntil(async () => (await db.query('select 1 from thresholds.vat_number_evidence where check_id = $1', [other.id])).rowCount === 1);
    const again = await status();
    expect(b2bRows(again)).toEqual(b2bRows(s));
    expect(again.issues).toEqual(['b2b_without_vat_number_evidence']);
  });

  it('evidence is immutable in the database', async () => {
    await expect(db.query("update compliance_reports.vat_number_check set result = 'valid' where result = 'invalid'")).rejects.toThrow(/immutable/);
    await expect(db.query('delete from compliance_reports.vat_number_check')).rejects.toThrow(/immutable/);
  });
});

describe.skipIf(!backends.ok)('VIES evidence of b2b Article 59c candidates on the embedded database (npm start: one database session)', () => {
  let h: Harness;
  let vies: LocalVies;
  beforeAll(async () => {
    vies = await new LocalVies().start();
    h = await startHarness({ embedded: true, env: { VIES_URL: vies.url, VIES_RETRIES: '0', VIES_STATUS_TTL_MS: '0' } });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await vies?.close();
  });

  it('a check after the supply clears its flag in the threshold status', async () => {
    const { key } = await h.key('vies-embedded', 'full');
    const send = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      h.inject({ method, url, headers: { 'x-api-key': key, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
    const number = germanVatNumber('29000001');
    vies.numbers.set(number, 'valid');
    const committed = await send('POST', '/v1/supply-events', { events: [servicesSale('emb-b2b', new Date().toISOString(), { customer_type: 'b2b', customer_vat_number: number })] });
    expect(committed.statusCode, committed.body).toBeLessThan(300);
    const b2b = async () => ((await send('GET', '/v1/compliance/threshold-status')).json().current_year_coverage as Json[]).filter((r) => r.reason.startsWith('b2b')).map((r) => `${r.reason}:${r.event_count}`);
    await waitUntil(async () => (await b2b()).join() === 'b2b_without_vat_number_evidence:1');
    const checked = await send('POST', '/v1/vat-numbers/check', { vat_number: number });
    expect(checked.json().check.result, checked.body).toBe('valid');
    await waitUntil(async () => (await b2b()).join() === 'b2b:1');
  }, 60_000);
});
