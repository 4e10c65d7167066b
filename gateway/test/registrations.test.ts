import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@vat/platform/config';
import { createLogger } from '@vat/platform/logger';
import { build, type Built } from '@vat/deploy/build';
import { freshDatabase, requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';

const backends = await requireBackends(['postgres']);

type Json = Record<string, any>;
type Res = { statusCode: number; body: string; json(): any };

const URL_ = '/v1/tax-registrations';
const UNION = { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2024-01-01', status: 'active' };
const IOSS = { scheme_type: 'ioss', member_state_identification: 'IE', effective_from: '2022-01-01', status: 'active' };
const FIELDS = ['scheme_type', 'member_state_identification', 'vat_registration_number', 'ioss_intermediary_name', 'ioss_intermediary_number', 'effective_from', 'effective_to', 'status'];

/** `{ error, detail }` and nothing else, except the documented `conflicting_registration_id` of a 409 overlap. */
function expectError(res: Res, status: number, code: string): Json {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as Json;
  expect(body.error, res.body).toBe(code);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  const extras = Object.keys(body).filter((k) => k !== 'error' && k !== 'detail');
  if (code === 'registration_overlap') {
    expect(extras).toEqual(['conflicting_registration_id']);
    expect(Number.isInteger(body.conflicting_registration_id)).toBe(true);
  } else expect(extras, res.body).toEqual([]);
  return body;
}

describe.skipIf(!backends.ok)('tax registrations (REST, PostgreSQL)', () => {
  let h: Harness;
  let db: pg.Client;
  const k: Record<string, { key: string; accountId: string }> = {};

  const req = (key: string | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    h.inject({ method, url, headers: { ...(key ? { 'x-api-key': key } : {}), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const raw = (key: string, method: 'POST' | 'PATCH', url: string, payload: string, contentType = 'application/json') =>
    h.inject({ method, url, headers: { 'x-api-key': key, 'content-type': contentType }, payload });
  const post = async (key: string, body: Json) => {
    const r = await req(key, 'POST', URL_, body);
    expect(r.statusCode, r.body).toBe(201);
    return r.json() as Json;
  };
  const patch = (key: string, id: number | string, body: unknown) => req(key, 'PATCH', `${URL_}/${id}`, body);
  const list = async (key: string) => {
    const r = await req(key, 'GET', URL_);
    expect(r.statusCode, r.body).toBe(200);
    return (r.json() as Json).items as Json[];
  };
  /** A fresh account with a full key: the overlap rule is per account. */
  let n = 0;
  const fresh = async () => (await h.key(`reg-fresh-${++n}`, 'full')).key;

  beforeAll(async () => {
    h = await startHarness({ env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    for (const [name, account, scope, legacy] of [
      ['a', 'reg-a', 'full', false],
      ['aRead', 'reg-a', 'read-only', false],
      ['aCalc', 'reg-a', 'calculate-only', false],
      ['aResolve', 'reg-a', 'classification-resolve', false],
      ['aWrite', 'reg-a', 'classification-write', false],
      ['aLegacy', 'reg-a', 'legacy', true],
      ['b', 'reg-b', 'full', false],
    ] as const) {
      k[name] = await h.key(account, scope, legacy);
    }
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await h?.close();
  });

  describe('create and list', () => {
    it('POST answers 201 with the registration: masked identifiers, coverage, integer id', async () => {
      const key = await fresh();
      const r = await post(key, { ...IOSS, vat_registration_number: 'IM3720000224', ioss_intermediary_name: 'Intermediary Ltd', ioss_intermediary_number: 'IN 372 000 0999', effective_to: '2022-12-31' });
      expect(r).toEqual({
        id: expect.any(Number),
        scheme_type: 'ioss',
        member_state_identification: 'IE',
        vat_registration_number_masked: 'IM******0224',
        ioss_intermediary_name: 'Intermediary Ltd',
        ioss_intermediary_number_masked: 'IN******0999',
        effective_from: '2022-01-01',
        effective_to: '2022-12-31',
        status: 'active',
        counts_toward_coverage: true,
        coverage_status: 'counted',
        conflicting_registration_ids: [],
      });
      expect(await list(key)).toEqual([r]);
    });

    it('accepts the spec example (scheme_type, member_state_identification, effective_from, status); the rest is null', async () => {
      const r = await post(await fresh(), UNION);
      expect(r).toMatchObject({ vat_registration_number_masked: null, ioss_intermediary_name: null, ioss_intermediary_number_masked: null, effective_to: null });
    });

    it('lists the most recent effective window first (effective_from desc, then id desc), only the own account', async () => {
      const key = await fresh();
      const old = await post(key, { ...UNION, effective_from: '2021-07-01', effective_to: '2023-12-31', status: 'ended' });
      const now = await post(key, { ...UNION, effective_from: '2024-01-01' });
      const iossSameDay = await post(key, { ...IOSS, effective_from: '2024-01-01' });
      const nonUnion = await post(key, { ...UNION, scheme_type: 'non_union_oss', effective_from: '2022-03-01', status: 'pending' });
      await post(await fresh(), { ...UNION, effective_from: '2030-01-01' });
      expect((await list(key)).map((r) => r.id)).toEqual([iossSameDay.id, now.id, nonUnion.id, old.id]);
    });

    it('GET takes no query parameters', async () => {
      expectError(await req(k.a!.key, 'GET', `${URL_}?status=active`), 400, 'unknown_parameter');
    });
  });

  describe('request bodies: every field', () => {
    const WRONG_TYPES = [5, 0, true, [], {}, ['DE'], null];

    it.each(FIELDS)('POST: %s of a wrong JSON type (number, boolean, array, object, null) is 400 invalid_<field>, nothing stored', async (field) => {
      const key = await fresh();
      for (const v of WRONG_TYPES) expectError(await req(key, 'POST', URL_, { ...UNION, [field]: v }), 400, `invalid_${field}`);
      expect(await list(key)).toEqual([]);
    });

    it.each(FIELDS.filter((f) => f !== 'scheme_type'))('PATCH: %s of a wrong JSON type, null included, is 400 invalid_<field>, nothing changed', async (field) => {
      const key = await fresh();
      const r = await post(key, IOSS);
      for (const v of WRONG_TYPES) expectError(await patch(key, r.id, { [field]: v }), 400, `invalid_${field}`);
      expect(await list(key)).toEqual([r]);
    });

    it.each(['scheme_type', 'member_state_identification', 'effective_from', 'status'])('POST without %s is 400 invalid_<field>', async (field) => {
      const key = await fresh();
      const body: Json = { ...UNION };
      delete body[field];
      const e = expectError(await req(key, 'POST', URL_, body), 400, `invalid_${field}`);
      expect(e.detail).toContain('required');
      expect(await list(key)).toEqual([]);
    });

    it.each([
      ['scheme_type', 'oss', 'invalid_scheme_type'],
      ['member_state_identification', 'EL', 'invalid_member_state_identification'],
      ['member_state_identification', 'de', 'invalid_member_state_identification'],
      ['member_state_identification', 'CH', 'invalid_member_state_identification'],
      ['member_state_identification', '', 'invalid_member_state_identification'],
      ['vat_registration_number', 'DE1234567890', 'invalid_vat_registration_number'],
      ['vat_registration_number', 'EL123456789', 'invalid_vat_registration_number'],
      ['vat_registration_number', '1'.repeat(41), 'invalid_vat_registration_number'],
      ['vat_registration_number', 'DE123\u0007456789', 'invalid_vat_registration_number'],
      ['ioss_intermediary_name', 'x', 'ioss_fields_not_allowed'],
      ['ioss_intermediary_number', 'IN2760000001', 'ioss_fields_not_allowed'],
      ['effective_from', '2024-13-01', 'invalid_effective_from'],
      ['effective_from', '01.01.2024', 'invalid_effective_from'],
      ['effective_from', '', 'invalid_effective_from'],
      ['effective_to', '2023-12-31', 'invalid_effective_window'],
      ['effective_to', '2024-04-31', 'invalid_effective_to'],
      ['status', 'ACTIVE', 'invalid_status'],
      ['status', 'ended', 'effective_to_required'],
    ])('POST %s = %j is 400 %s, nothing stored', async (field, value, code) => {
      const key = await fresh();
      expectError(await req(key, 'POST', URL_, { ...UNION, [field]: value }), 400, code);
      expect(await list(key)).toEqual([]);
    });

    it.each([
      ['ioss_intermediary_number', 'IN2760000001', 'invalid_ioss_intermediary_number'],
      ['ioss_intermediary_name', '   ', 'invalid_ioss_intermediary_name'],
      ['ioss_intermediary_name', 'n'.repeat(201), 'invalid_ioss_intermediary_name'],
      ['vat_registration_number', 'IE1234567T', 'invalid_vat_registration_number'],
      ['effective_from', '2021-06-30', 'invalid_effective_from'],
    ])('POST an ioss row with %s = %j is 400 %s', async (field, value, code) => {
      const key = await fresh();
      expectError(await req(key, 'POST', URL_, { ...IOSS, [field]: value }), 400, code);
      expect(await list(key)).toEqual([]);
    });

    it('an unknown field (including a response-only field) is 400 unknown_field, on POST and PATCH', async () => {
      const key = await fresh();
      for (const extra of ['vat_number', 'vat_registration_number_masked', 'id', 'counts_toward_coverage', 'Status']) {
        expectError(await req(key, 'POST', URL_, { ...UNION, [extra]: 'x' }), 400, 'unknown_field');
      }
      const r = await post(key, UNION);
      expectError(await patch(key, r.id, { coverage_status: 'counted' }), 400, 'unknown_field');
      expect(await list(key)).toEqual([r]);
    });

    it('malformed JSON is 400 invalid_json, a non-object body 400 invalid_request, a non-JSON body 415', async () => {
      const key = await fresh();
      const r = await post(key, UNION);
      for (const [method, url] of [['POST', URL_], ['PATCH', `${URL_}/${r.id}`]] as const) {
        for (const bad of ['{', '{"scheme_type": "ioss",}', "{'a':1}", '', '{"a":1}{"b":2}']) expectError(await raw(key, method, url, bad), 400, 'invalid_json');
        for (const notObject of ['[]', '"union_oss"', '42', 'null', 'true']) expectError(await raw(key, method, url, notObject), 400, 'invalid_request');
        expectError(await raw(key, method, url, JSON.stringify(UNION), 'text/plain'), 415, 'unsupported_media_type');
      }
      expect(await list(key)).toEqual([r]);
    });
  });

  describe('errors of the rules', () => {
    it('an overlapping window is 409 registration_overlap with conflicting_registration_id; excluded rows do not count', async () => {
      const key = await fresh();
      const first = await post(key, { ...UNION, effective_to: '2024-06-30' });
      const e = expectError(await req(key, 'POST', URL_, { ...UNION, effective_from: '2024-06-30' }), 409, 'registration_overlap');
      expect(e.conflicting_registration_id).toBe(first.id);
      expect(e.detail).toContain(String(first.id));
      await post(key, { ...UNION, effective_from: '2024-07-01' });
      const excluded = await post(key, { ...UNION, effective_from: '2020-01-01', status: 'excluded' });
      expect(excluded).toMatchObject({ counts_toward_coverage: false, coverage_status: 'excluded' });
      expect(await list(key)).toHaveLength(3);
    });

    it('concurrent overlapping POSTs: exactly one 201, the rest 409', async () => {
      const key = await fresh();
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => req(key, 'POST', URL_, { ...UNION, effective_from: `2025-0${i + 1}-15` })));
      expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
      for (const r of answers.filter((x) => x.statusCode !== 201)) expectError(r, 409, 'registration_overlap');
      expect(await list(key)).toHaveLength(1);
    });

    it('scheme_type in a PATCH is 400 scheme_type_immutable, whatever its value', async () => {
      const key = await fresh();
      const r = await post(key, UNION);
      for (const v of ['union_oss', 'ioss', '', 5, null]) expectError(await patch(key, r.id, { scheme_type: v }), 400, 'scheme_type_immutable');
      expect(await list(key)).toEqual([r]);
    });

    it('more than 500 registrations of a scheme is 422 registration_limit_reached', async () => {
      const key = await fresh();
      const probe = await post(key, { ...UNION, scheme_type: 'non_union_oss', status: 'excluded' });
      const account = (await db.query('select account_id from "compliance_reports".tax_registration where id = $1', [probe.id])).rows[0].account_id as string;
      await db.query(
        `insert into "compliance_reports".tax_registration (account_id, scheme_type, member_state_identification, effective_from, status, created_at, updated_at)
         select $1, 'non_union_oss', 'DE', '2022-01-01', 'excluded', now(), now() from generate_series(1, 499)`,
        [account],
      );
      expectError(await req(key, 'POST', URL_, { ...UNION, scheme_type: 'non_union_oss' }), 422, 'registration_limit_reached');
    });
  });

  describe('PATCH', () => {
    it('omitted keeps, "" clears optional fields and effective_to, {} changes nothing', async () => {
      const key = await fresh();
      const r = await post(key, { ...IOSS, vat_registration_number: 'IM3720000224', ioss_intermediary_name: 'Int', ioss_intermediary_number: 'IN3720000999', effective_to: '2023-12-31' });
      const same = await patch(key, r.id, {});
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json()).toEqual(r);
      // A PATCH carries a JSON object: no body at all is not an empty change set.
      expectError(await h.inject({ method: 'PATCH', url: `${URL_}/${r.id}`, headers: { 'x-api-key': key } }), 400, 'invalid_request');
      const renamed = await patch(key, r.id, { ioss_intermediary_name: 'Other' });
      expect(renamed.json()).toEqual({ ...r, ioss_intermediary_name: 'Other' });
      const cleared = await patch(key, r.id, { ioss_intermediary_name: '', ioss_intermediary_number: '', vat_registration_number: '', effective_to: '' });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json()).toEqual({ ...r, ioss_intermediary_name: null, ioss_intermediary_number_masked: null, vat_registration_number_masked: null, effective_to: null });
    });

    it('ends a registration (status ended with effective_to); ended without effective_to is 400 effective_to_required', async () => {
      const key = await fresh();
      const r = await post(key, UNION);
      expectError(await patch(key, r.id, { status: 'ended' }), 400, 'effective_to_required');
      const ended = await patch(key, r.id, { status: 'ended', effective_to: '2024-09-30' });
      expect(ended.json()).toMatchObject({ status: 'ended', effective_to: '2024-09-30', counts_toward_coverage: true, coverage_status: 'counted' });
      expectError(await patch(key, r.id, { effective_to: '' }), 400, 'effective_to_required');
      expectError(await patch(key, r.id, { effective_from: '2024-10-01' }), 400, 'invalid_effective_window');
    });

    it("a malformed, unknown or other account's id is 404 registration_not_found, and nothing changes", async () => {
      const theirs = await post(k.b!.key, { ...UNION, vat_registration_number: 'DE123456789' });
      const before = await list(k.b!.key);
      for (const id of [theirs.id, 999999999, 0, -1, 'abc', '1.5', '1e3', '%20', '0x10', '9'.repeat(30)]) {
        expectError(await patch(k.a!.key, id, { status: 'excluded' }), 404, 'registration_not_found');
      }
      expect(await list(k.b!.key)).toEqual(before);
      expect((await list(k.a!.key)).map((r) => r.id)).not.toContain(theirs.id);
    });

    it('changing the Member State needs the number issued there (or "" to clear it)', async () => {
      const key = await fresh();
      const r = await post(key, { ...UNION, vat_registration_number: 'DE123456789' });
      expectError(await patch(key, r.id, { member_state_identification: 'NL' }), 400, 'invalid_vat_registration_number');
      const moved = await patch(key, r.id, { member_state_identification: 'NL', vat_registration_number: 'NL123456789B01' });
      expect(moved.json()).toMatchObject({ member_state_identification: 'NL', vat_registration_number_masked: 'NL********9B01' });
    });
  });

  describe('coverage', () => {
    it('counted, pending, excluded, and cleanup_required for overlapping rows from before the overlap rule', async () => {
      const key = await fresh();
      const active = await post(key, { ...UNION, effective_from: '2024-01-01' });
      const pending = await post(key, { ...UNION, scheme_type: 'ioss', effective_from: '2024-01-01', status: 'pending' });
      const excluded = await post(key, { ...UNION, effective_from: '2024-01-01', status: 'excluded' });
      const account = (await db.query('select account_id from "compliance_reports".tax_registration where id = $1', [active.id])).rows[0].account_id as string;
      const dup = Number(
        (await db.query(`insert into "compliance_reports".tax_registration (account_id, scheme_type, member_state_identification, effective_from, status, created_at, updated_at) values ($1, 'union_oss', 'DE', '2024-01-01', 'active', now(), now()) returning id`, [account])).rows[0].id,
      );
      const byId = new Map((await list(key)).map((r) => [r.id, r]));
      expect(byId.get(active.id)).toMatchObject({ counts_toward_coverage: false, coverage_status: 'cleanup_required', conflicting_registration_ids: [dup] });
      expect(byId.get(dup)).toMatchObject({ counts_toward_coverage: false, coverage_status: 'cleanup_required', conflicting_registration_ids: [active.id] });
      expect(byId.get(pending.id)).toMatchObject({ counts_toward_coverage: false, coverage_status: 'pending', conflicting_registration_ids: [] });
      expect(byId.get(excluded.id)).toMatchObject({ counts_toward_coverage: false, coverage_status: 'excluded' });
      const retired = await patch(key, dup, { status: 'excluded' });
      expect(retired.json()).toMatchObject({ coverage_status: 'excluded' });
      expect((await list(key)).find((r) => r.id === active.id)).toMatchObject({ counts_toward_coverage: true, coverage_status: 'counted', conflicting_registration_ids: [] });
    });
  });

  describe('keys and scopes', () => {
    const cases = () => [
      { method: 'GET' as const, url: URL_, payload: undefined },
      { method: 'POST' as const, url: URL_, payload: { ...UNION, effective_from: '2040-01-01' } },
      { method: 'PATCH' as const, url: `${URL_}/1`, payload: { status: 'excluded' } },
    ];

    it('without a key: 401 missing_api_key; a bad key: 401 invalid_api_key', async () => {
      for (const c of cases()) {
        expectError(await req(undefined, c.method, c.url, c.payload), 401, 'missing_api_key');
        expectError(await req('vat_0123456789abcdef_nope', c.method, c.url, c.payload), 401, 'invalid_api_key');
      }
    });

    it('read-only may list but not write; other scopes and legacy keys get 403 insufficient_scope', async () => {
      const before = await list(k.a!.key);
      expect((await req(k.aRead!.key, 'GET', URL_)).statusCode).toBe(200);
      for (const c of cases().filter((x) => x.method !== 'GET')) expectError(await req(k.aRead!.key, c.method, c.url, c.payload), 403, 'insufficient_scope');
      for (const name of ['aCalc', 'aResolve', 'aWrite', 'aLegacy']) {
        for (const c of cases()) expectError(await req(k[name]!.key, c.method, c.url, c.payload), 403, 'insufficient_scope');
      }
      expect(await list(k.a!.key)).toEqual(before);
    });

    it('checks the scope before the body: read-only with a broken body is still 403', async () => {
      expectError(await raw(k.aRead!.key, 'POST', URL_, '{broken'), 403, 'insufficient_scope');
    });
  });

  describe('full identifiers never leave the service', () => {
    const VAT = 'DE987654321';
    const IOSS_NO = 'IM3720000777';
    const INTER = 'IN3720000555';

    it('are stored only encrypted: no table of the service or the gateway holds them, in text or in bytes', async () => {
      const key = await fresh();
      const u = await post(key, { ...UNION, vat_registration_number: VAT });
      const i = await post(key, { ...IOSS, vat_registration_number: IOSS_NO, ioss_intermediary_number: INTER });
      for (const r of [JSON.stringify(u), JSON.stringify(i), JSON.stringify(await list(key))]) for (const secret of [VAT, IOSS_NO, INTER, '987654321', '3720000777']) expect(r).not.toContain(secret);
      const tables = (await db.query(`select table_schema, table_name from information_schema.tables where table_schema in ('compliance_reports', 'gateway') and table_type = 'BASE TABLE'`)).rows as { table_schema: string; table_name: string }[];
      expect(tables.map((t) => t.table_name)).toContain('tax_registration');
      let scanned = 0;
      for (const t of tables) {
        const rows = (await db.query(`select row_to_json(x)::text as j from "${t.table_schema}"."${t.table_name}" x`)).rows as { j: string }[];
        scanned += rows.length;
        for (const { j } of rows) {
          for (const secret of [VAT, IOSS_NO, INTER]) {
            expect(j, `${t.table_schema}.${t.table_name}`).not.toContain(secret);
            expect(j, `${t.table_schema}.${t.table_name} (hex)`).not.toContain(Buffer.from(secret).toString('hex'));
          }
        }
      }
      expect(scanned).toBeGreaterThan(2);
      const stored = (await db.query('select vat_registration_number_masked as m, length(vat_registration_number_encrypted) as n from "compliance_reports".tax_registration where id = $1', [u.id])).rows[0];
      expect(stored).toEqual({ m: 'DE*****4321', n: 1 + 12 + 16 + VAT.length });
    });
  });
});

describe.skipIf(!backends.ok)('full identifiers are never logged', () => {
  let built: Built;
  let drop: () => Promise<void>;
  const lines: string[] = [];

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    const config = loadConfig({ DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace', OUTBOX_POLL_MS: '50', DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    const sink = new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) });
    built = await build('all', config, createLogger('trace', 'vat-test', sink));
    await built.gateway!.app.ready();
  });
  afterAll(async () => {
    await built?.stop();
    await drop?.();
  });

  it('at trace level, through accepted and refused writes', async () => {
    const app = built.gateway!.app;
    const { key } = await built.gateway!.keys.create('log-acct', 'full', false);
    const send = (method: 'POST' | 'PATCH', url: string, payload: unknown) => app.inject({ method, url, headers: { 'x-api-key': key }, payload: payload as object });
    const ok = await send('POST', URL_, { ...IOSS, vat_registration_number: 'IM3720000888', ioss_intermediary_number: 'IN3720000444' });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = (ok.json() as Json).id;
    expect((await send('POST', URL_, { ...UNION, member_state_identification: 'AT', vat_registration_number: 'DE555666777' })).statusCode).toBe(400);
    expect((await send('POST', URL_, { ...IOSS, vat_registration_number: 'IM3720000666' })).statusCode).toBe(409);
    expect((await send('PATCH', `${URL_}/${id}`, { vat_registration_number: 'IM3720000333', member_state_identification: 'XX' })).statusCode).toBe(400);
    expect((await send('PATCH', `${URL_}/${id}`, { vat_registration_number: 'IM3720000222' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: URL_, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: '{"vat_registration_number": "DE111222333",' })).statusCode).toBe(400);
    const all = lines.join('');
    expect(all).toContain('"req"');
    for (const secret of ['IM3720000888', 'IN3720000444', 'DE555666777', 'IM3720000666', 'IM3720000333', 'IM3720000222', 'DE111222333']) expect(all).not.toContain(secret);
  });
});
