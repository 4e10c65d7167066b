import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';

const backends = await requireBackends(['postgres']);

type Json = Record<string, any>;
const TS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.skipIf(!backends.ok)('source profiles (REST, PostgreSQL)', () => {
  let h: Harness;
  let a: string;
  let b: string;

  const req = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    h.inject({ method, url, headers: { 'x-api-key': key }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (key: string, payload: Json) => {
    const r = await req(key, 'POST', '/v1/sources', payload);
    expect(r.statusCode, r.body).toBe(201);
    return r.json() as Json;
  };
  const patch = (key: string, id: number | string, payload: unknown) => req(key, 'PATCH', `/v1/sources/${id}`, payload);
  const listSources = async (key: string) => {
    const r = await req(key, 'GET', '/v1/sources');
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Json;
  };
  const calc = async (key: string, date: string, sourceId: string) => {
    const r = await h.inject({
      method: 'POST',
      url: '/v1/vat/calculate',
      headers: { 'x-api-key': key, 'x-source-id': sourceId },
      payload: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 100, price_includes_vat: false, transaction_date: date },
    });
    expect(r.statusCode, r.body).toBe(200);
  };

  beforeAll(async () => {
    h = await startHarness();
    a = (await h.key('src-a', 'full')).key;
    b = (await h.key('src-b', 'full')).key;
  });
  afterAll(async () => h?.close());

  describe('create and list', () => {
    it('creates a profile with defaults and returns every field', async () => {
      const p = await create(a, { source_key: 'web-shop', display_name: 'Web shop', channel_type: 'owned_store' });
      expect(p).toEqual({
        id: expect.any(Number),
        source_key: 'web-shop',
        display_name: 'Web shop',
        channel_type: 'owned_store',
        platform: null,
        default_country: null,
        default_currency: null,
        supplier_establishment_country: null,
        dispatch_country: null,
        marketplace_deemed_supplier: false,
        active: true,
        created_at: expect.stringMatching(TS_RE),
        updated_at: expect.stringMatching(TS_RE),
      });
      expect(p.created_at).toBe(p.updated_at);
    });

    it('creates a profile with every optional field', async () => {
      const p = await create(a, {
        source_key: 'amazon/de_1',
        display_name: 'Amazon DE',
        channel_type: 'marketplace',
        platform: 'Amazon',
        default_country: 'DE',
        default_currency: 'EUR',
        supplier_establishment_country: 'US',
        dispatch_country: 'PL',
        marketplace_deemed_supplier: true,
        active: false,
      });
      expect(p).toMatchObject({ platform: 'Amazon', default_country: 'DE', default_currency: 'EUR', supplier_establishment_country: 'US', dispatch_country: 'PL', marketplace_deemed_supplier: true, active: false });
    });

    it.each(['owned_store', 'marketplace', 'subscription', 'pos', 'wholesale', 'test', 'other'])('accepts channel_type %s', async (channel) => {
      const p = await create(b, { source_key: `ch-${channel}`, display_name: channel, channel_type: channel });
      expect(p.channel_type).toBe(channel);
    });

    it('lists the account\'s profiles with the counts and caps, active first', async () => {
      const l = await listSources(a);
      expect(l).toEqual({ items: expect.any(Array), activeCount: 1, maxProfiles: 100, storedCount: 2, maxStoredProfiles: 500 });
      expect(l.items.map((p: Json) => [p.source_key, p.active])).toEqual([
        ['web-shop', true],
        ['amazon/de_1', false],
      ]);
      // B's list holds only B's profiles
      const lb = await listSources(b);
      expect(lb.items.every((p: Json) => p.source_key.startsWith('ch-'))).toBe(true);
      expect(lb.storedCount).toBe(7);
    });

    it('a duplicate source_key gives 409 source_key_exists, also against an archived profile', async () => {
      const before = await listSources(a);
      for (const key of ['web-shop', 'amazon/de_1']) {
        const r = await req(a, 'POST', '/v1/sources', { source_key: key, display_name: 'again', channel_type: 'other' });
        expect(r.statusCode).toBe(409);
        expect(r.json().error).toBe('source_key_exists');
      }
      expect((await listSources(a)).storedCount).toBe(before.storedCount);
      // keys are per account
      await create(b, { source_key: 'web-shop', display_name: 'B web shop', channel_type: 'owned_store' });
    });

    it('source keys are case-sensitive, like the raw tags', async () => {
      const p = await create(a, { source_key: 'WEB-SHOP', display_name: 'upper', channel_type: 'other' });
      expect(p.source_key).toBe('WEB-SHOP');
    });
  });

  describe('patch', () => {
    let p: Json;
    beforeAll(async () => {
      p = await create(a, {
        source_key: 'patch-me',
        display_name: 'Patch me',
        channel_type: 'pos',
        platform: 'Square',
        default_country: 'AT',
        default_currency: 'EUR',
        supplier_establishment_country: 'AT',
        dispatch_country: 'AT',
        marketplace_deemed_supplier: true,
      });
    });

    it('an omitted field keeps its value; updated_at moves, created_at does not', async () => {
      await new Promise((r) => setTimeout(r, 5));
      const r = await patch(a, p.id, { display_name: 'Renamed' });
      expect(r.statusCode).toBe(200);
      const q = r.json();
      expect(q).toEqual({ ...p, display_name: 'Renamed', updated_at: expect.stringMatching(TS_RE) });
      expect(Date.parse(q.updated_at)).toBeGreaterThan(Date.parse(p.updated_at));
      p = q;
    });

    it('null keeps the value', async () => {
      const r = await patch(a, p.id, {
        display_name: null,
        channel_type: null,
        platform: null,
        default_country: null,
        default_currency: null,
        supplier_establishment_country: null,
        dispatch_country: null,
        marketplace_deemed_supplier: null,
        active: null,
      });
      expect(r.statusCode).toBe(200);
      expect({ ...r.json(), updated_at: p.updated_at }).toEqual(p);
    });

    it('an empty body changes nothing but the timestamp', async () => {
      const r = await patch(a, p.id, {});
      expect(r.statusCode).toBe(200);
      expect({ ...r.json(), updated_at: p.updated_at }).toEqual(p);
    });

    it('"" clears each optional text field', async () => {
      const r = await patch(a, p.id, { platform: '', default_country: '', default_currency: '', supplier_establishment_country: '', dispatch_country: '' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ platform: null, default_country: null, default_currency: null, supplier_establishment_country: null, dispatch_country: null, display_name: 'Renamed', channel_type: 'pos', marketplace_deemed_supplier: true });
      const listed = (await listSources(a)).items.find((x: Json) => x.id === p.id);
      expect(listed).toMatchObject({ platform: null, default_country: null, dispatch_country: null });
    });

    it('sets fields and archives / reactivates', async () => {
      const r = await patch(a, p.id, { platform: 'Shopify POS', default_currency: 'CHF', channel_type: 'wholesale', marketplace_deemed_supplier: false, active: false });
      expect(r.json()).toMatchObject({ platform: 'Shopify POS', default_currency: 'CHF', channel_type: 'wholesale', marketplace_deemed_supplier: false, active: false });
      const l = await listSources(a);
      expect(l.items.find((x: Json) => x.id === p.id).active).toBe(false);
      expect((await patch(a, p.id, { active: true })).json().active).toBe(true);
    });

    it.each([{ source_key: 'other-key' }, { source_key: 'patch-me' }, { source_key: null }, { source_key: '' }])('source_key in a patch (%j) gives 400 source_key_immutable', async (change) => {
      const r = await patch(a, p.id, { display_name: 'x', ...change });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('source_key_immutable');
      const now = (await listSources(a)).items.find((x: Json) => x.id === p.id);
      expect(now.source_key).toBe('patch-me');
      expect(now.display_name).not.toBe('x');
    });

    it('another account\'s id and an unknown id give the identical 404 source_not_found', async () => {
      const foreign = await patch(b, p.id, { display_name: 'hijack' });
      const unknown = await patch(b, 987654321, { display_name: 'hijack' });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error).toBe('source_not_found');
      expect(foreign.body).toBe(unknown.body);
      expect((await listSources(a)).items.find((x: Json) => x.id === p.id).display_name).toBe('Renamed');
      // a malformed id names no profile either (the gateway answers it with status 400)
      const bad = await patch(a, 'abc', { display_name: 'x' });
      expect(bad.json().error).toBe('source_not_found');
    });

    it.each([
      [{ display_name: '' }, 'invalid_display_name'],
      [{ display_name: '   ' }, 'invalid_display_name'],
      [{ display_name: 'x'.repeat(201) }, 'invalid_display_name'],
      [{ channel_type: 'shop' }, 'invalid_channel_type'],
      [{ channel_type: '' }, 'invalid_channel_type'],
      [{ default_country: 'XX' }, 'invalid_default_country'],
      [{ default_country: 'de' }, 'invalid_default_country'],
      [{ default_currency: 'XYZ' }, 'invalid_default_currency'],
      [{ supplier_establishment_country: 'DEU' }, 'invalid_supplier_establishment_country'],
      [{ dispatch_country: 'Q1' }, 'invalid_dispatch_country'],
      [{ platform: 'p'.repeat(101) }, 'invalid_platform'],
      [{ active: 'no' }, 'invalid_active'],
      [{ marketplace_deemed_supplier: 1 }, 'invalid_marketplace_deemed_supplier'],
      [{ colour: 'red' }, 'unknown_field'],
    ])('patch %j gives 400 %s and changes nothing', async (change, code) => {
      const before = (await listSources(a)).items.find((x: Json) => x.id === p.id);
      const r = await patch(a, p.id, change);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(code);
      expect((await listSources(a)).items.find((x: Json) => x.id === p.id)).toEqual(before);
    });
  });

  describe('invalid create bodies', () => {
    const ok = { source_key: 'valid-key', display_name: 'Valid', channel_type: 'other' };
    it.each([
      [{ ...ok, source_key: undefined }, 'invalid_source_key'],
      [{ ...ok, source_key: '' }, 'invalid_source_key'],
      [{ ...ok, source_key: 'has space' }, 'invalid_source_key'],
      [{ ...ok, source_key: 'dot.ted' }, 'invalid_source_key'],
      [{ ...ok, source_key: 'k'.repeat(101) }, 'invalid_source_key'],
      [{ ...ok, source_key: 42 }, 'invalid_source_key'],
      [{ ...ok, display_name: undefined }, 'invalid_display_name'],
      [{ ...ok, display_name: ' ' }, 'invalid_display_name'],
      [{ ...ok, channel_type: undefined }, 'invalid_channel_type'],
      [{ ...ok, channel_type: 'Owned_Store' }, 'invalid_channel_type'],
      [{ ...ok, default_country: 'EU' }, 'invalid_default_country'],
      [{ ...ok, default_currency: 'eur' }, 'invalid_default_currency'],
      [{ ...ok, dispatch_country: 'ZZ' }, 'invalid_dispatch_country'],
      [{ ...ok, supplier_establishment_country: 7 }, 'invalid_supplier_establishment_country'],
      [{ ...ok, active: 'yes' }, 'invalid_active'],
      [{ ...ok, id: 5 }, 'unknown_field'],
    ])('%j gives 400 %s', async (payload, code) => {
      const before = (await listSources(a)).storedCount;
      const r = await req(a, 'POST', '/v1/sources', payload);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(code);
      expect((await listSources(a)).storedCount).toBe(before);
    });

    it('"" for an optional field on create is stored as absent', async () => {
      const p = await create(a, { ...ok, source_key: 'blank-optionals', platform: '', default_country: '' });
      expect(p.platform).toBeNull();
      expect(p.default_country).toBeNull();
    });
  });

  describe('scopes', () => {
    it('read-only may list but not write; calculate-only and legacy keys may not read', async () => {
      const ro = (await h.key('src-a', 'read-only')).key;
      expect((await req(ro, 'GET', '/v1/sources')).statusCode).toBe(200);
      expect((await req(ro, 'GET', '/v1/sources/unknown')).statusCode).toBe(200);
      expect((await req(ro, 'POST', '/v1/sources', { source_key: 'ro', display_name: 'ro', channel_type: 'other' })).statusCode).toBe(403);
      const id = (await listSources(a)).items[0].id;
      expect((await patch(ro, id, { display_name: 'ro' })).statusCode).toBe(403);
      const co = (await h.key('src-a', 'calculate-only')).key;
      expect((await req(co, 'GET', '/v1/sources')).statusCode).toBe(403);
      const legacy = (await h.key('src-a', 'full', true)).key;
      expect((await req(legacy, 'GET', '/v1/sources')).statusCode).toBe(403);
    });
  });

  describe('unknown sources', () => {
    let u: string;
    beforeAll(async () => {
      u = (await h.key('src-unknown', 'full')).key;
      await calc(u, '2024-02-10', 'tag-a');
      await calc(u, '2024-01-05T23:30:00-01:00', 'tag-a'); // 2024-01-06 UTC
      await calc(u, '2024-03-01', 'tag-a');
      await calc(u, '2024-04-01', 'tag-b');
      await calc(u, '2024-04-02', 'tag-c');
      await calc(u, '2024-04-03', 'tag-c');
      // an untagged calculation is not an unknown source
      const r = await h.inject({ method: 'POST', url: '/v1/vat/calculate', headers: { 'x-api-key': u }, payload: { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 1, price_includes_vat: true, transaction_date: '2024-01-01' } });
      expect(r.statusCode).toBe(200);
    });
    const unknown = async (key: string, qs = '') => {
      const r = await req(key, 'GET', `/v1/sources/unknown${qs}`);
      expect(r.statusCode, r.body).toBe(200);
      return r.json().items as Json[];
    };

    it('lists raw tags with counts and first/last seen (UTC dates), most used first', async () => {
      expect(await unknown(u)).toEqual([
        { source_id: 'tag-a', transaction_count: 3, first_seen: '2024-01-06', last_seen: '2024-03-01' },
        { source_id: 'tag-c', transaction_count: 2, first_seen: '2024-04-02', last_seen: '2024-04-03' },
        { source_id: 'tag-b', transaction_count: 1, first_seen: '2024-04-01', last_seen: '2024-04-01' },
      ]);
      expect(await unknown(u, '?limit=1')).toHaveLength(1);
    });

    it('a tag disappears once a profile exists (active or archived); another account\'s profile does not hide it', async () => {
      await create(b, { source_key: 'tag-a', display_name: 'B has tag-a', channel_type: 'other' });
      expect((await unknown(u)).map((i) => i.source_id)).toEqual(['tag-a', 'tag-c', 'tag-b']);
      await create(u, { source_key: 'tag-a', display_name: 'Tag A', channel_type: 'owned_store' });
      expect((await unknown(u)).map((i) => i.source_id)).toEqual(['tag-c', 'tag-b']);
      await create(u, { source_key: 'tag-b', display_name: 'Tag B', channel_type: 'other', active: false });
      expect((await unknown(u)).map((i) => i.source_id)).toEqual(['tag-c']);
      // the recorded tags themselves are unchanged and still filterable
      const rows = await req(u, 'GET', '/v1/transactions?source_id=tag-a');
      expect(rows.json().items).toHaveLength(3);
      expect(rows.json().items.every((t: Json) => t.source_id === 'tag-a')).toBe(true);
    });

    it.each(['0', '501', 'x', '-1'])('limit=%j gives 400 invalid_limit', async (v) => {
      const r = await req(u, 'GET', `/v1/sources/unknown?limit=${v}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_limit');
    });
  });

  describe('caps', () => {
    it('100 active profiles; the 101st active gives 422; archived ones count only toward the 500 stored', async () => {
      const c = (await h.key('src-caps', 'full')).key;
      const ids: number[] = [];
      // Created 20 at a time (the per-account lock still serializes them in the service): the caps are what is tested here.
      const inChunks = async (from: number, to: number, one: (i: number) => Promise<Json>) => {
        const out: number[] = [];
        for (let i = from; i < to; i += 20) out.push(...(await Promise.all(Array.from({ length: Math.min(20, to - i) }, (_, k) => one(i + k)))).map((p) => p.id));
        return out;
      };
      ids.push(...(await inChunks(0, 100, (i) => create(c, { source_key: `active-${i}`, display_name: `A${i}`, channel_type: 'other' }))));
      let l = await listSources(c);
      expect([l.activeCount, l.storedCount]).toEqual([100, 100]);

      const over = await req(c, 'POST', '/v1/sources', { source_key: 'active-100', display_name: 'one too many', channel_type: 'other' });
      expect(over.statusCode).toBe(422);
      expect(over.json().error).toBe('active_profile_limit_reached');
      const overExplicit = await req(c, 'POST', '/v1/sources', { source_key: 'active-100', display_name: 'one too many', channel_type: 'other', active: true });
      expect(overExplicit.json().error).toBe('active_profile_limit_reached');

      // archived profiles can still be added
      const archived = await create(c, { source_key: 'archived-0', display_name: 'arch', channel_type: 'other', active: false });
      // reactivating one at the active cap is refused too
      const react = await patch(c, archived.id, { active: true });
      expect(react.statusCode).toBe(422);
      expect(react.json().error).toBe('active_profile_limit_reached');
      // archiving an active one frees a slot
      expect((await patch(c, ids[0]!, { active: false })).statusCode).toBe(200);
      expect((await patch(c, archived.id, { active: true })).json().active).toBe(true);
      // patching an already active profile at the cap is fine
      expect((await patch(c, archived.id, { active: true, display_name: 'still active' })).statusCode).toBe(200);

      await inChunks(1, 399, (i) => create(c, { source_key: `archived-${i}`, display_name: 'arch', channel_type: 'other', active: false }));
      l = await listSources(c);
      expect([l.activeCount, l.storedCount]).toEqual([100, 499]);
      await create(c, { source_key: 'archived-399', display_name: 'arch', channel_type: 'other', active: false });
      l = await listSources(c);
      expect([l.activeCount, l.storedCount, l.items.length]).toEqual([100, 500, 500]);

      const full = await req(c, 'POST', '/v1/sources', { source_key: 'archived-400', display_name: 'arch', channel_type: 'other', active: false });
      expect(full.statusCode).toBe(422);
      expect(full.json().error).toBe('stored_profile_limit_reached');
      // archiving does not free stored capacity
      expect((await patch(c, ids[1]!, { active: false })).statusCode).toBe(200);
      const still = await req(c, 'POST', '/v1/sources', { source_key: 'archived-401', display_name: 'arch', channel_type: 'other', active: false });
      expect(still.json().error).toBe('stored_profile_limit_reached');
      expect((await listSources(c)).storedCount).toBe(500);
    }, 120_000);

    it('concurrent creates cannot race past the active cap', async () => {
      const c = (await h.key('src-race', 'full')).key;
      for (let i = 0; i < 95; i++) await create(c, { source_key: `r-${i}`, display_name: 'r', channel_type: 'other' });
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => req(c, 'POST', '/v1/sources', { source_key: `race-${i}`, display_name: 'r', channel_type: 'other' })));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
      expect(results.filter((r) => r.statusCode === 422)).toHaveLength(15);
      expect((await listSources(c)).activeCount).toBe(100);
    }, 60_000);
  });
});
