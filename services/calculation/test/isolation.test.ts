import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../../test/support/env';
import { startHarness, type Harness } from '../../../test/support/harness';

const backends = await requireBackends(['postgres']);

type Json = Record<string, any>;
type Key = { key: string; id: string; accountId: string };

/**
 * Account B walks every endpoint of the calculation area with A's ids and data. B must never see
 * A's rows, and A's ids must answer exactly like ids that do not exist.
 */
describe.skipIf(!backends.ok)('tenant isolation of calculations, transactions and sources (PostgreSQL)', () => {
  let h: Harness;
  let a: Key;
  let b: Key;
  const aIds: string[] = [];
  let bId: string;
  let aProfile: Json;

  const send = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    h.inject({ method, url, headers: { 'x-api-key': key, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const calc = async (k: Key, over: Json, headers: Record<string, string> = {}) => {
    const r = await send(k.key, 'POST', '/v1/vat/calculate', { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 1000, price_includes_vat: false, transaction_date: '2024-05-10', ...over }, headers);
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Json;
  };
  /** Status and body, which must be identical for a foreign and a nonexistent id. */
  const answer = (r: { statusCode: number; body: string }) => ({ status: r.statusCode, body: r.body });

  beforeAll(async () => {
    h = await startHarness();
    a = await h.key('iso-a', 'full');
    b = await h.key('iso-b', 'full');
    aIds.push((await calc(a, {}, { 'x-source-id': 'a-shop', 'idempotency-key': 'a-order-1' })).calculation_id);
    aIds.push((await calc(a, { country: 'AT', currency: 'USD' }, { 'x-source-id': 'a-hidden-tag' })).calculation_id);
    aIds.push((await calc(a, { transaction_date: '2024-05-11' }, { 'x-source-id': 'a-shop' })).calculation_id);
    const p = await send(a.key, 'POST', '/v1/sources', { source_key: 'a-shop', display_name: 'A shop', channel_type: 'owned_store', platform: 'A-platform' });
    expect(p.statusCode).toBe(201);
    aProfile = p.json();
    bId = (await calc(b, { gross_amount_minor: 2000 }, { 'x-source-id': 'b-shop' })).calculation_id;
  });
  afterAll(async () => h?.close());

  it('calculate: B reusing A\'s Idempotency-Key gets its own calculation', async () => {
    const r = await calc(b, { gross_amount_minor: 5 }, { 'idempotency-key': 'a-order-1' });
    expect(aIds).not.toContain(r.calculation_id);
    expect(r.gross_amount_minor).toBe(6);
    // and B's other request with the same key conflicts with B's own, not A's
    const again = await send(b.key, 'POST', '/v1/vat/calculate', { country: 'DE', currency: 'EUR', tax_class_id: 'standard', gross_amount_minor: 1000, price_includes_vat: false, transaction_date: '2024-05-10' }, { 'idempotency-key': 'a-order-1', 'x-source-id': 'a-shop' });
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(aIds[0]!);
  });

  it('list: B sees only B\'s rows, whatever the filters', async () => {
    const all = (await send(b.key, 'GET', '/v1/transactions?limit=500')).json();
    const mine = all.items.map((i: Json) => i.id);
    for (const id of aIds) expect(mine).not.toContain(id);
    expect(mine).toContain(bId);
    for (const qs of ['source_id=a-shop', 'source_id=a-hidden-tag', `api_key_id=${a.id}`, 'country=AT', 'currency=USD', 'from=2024-05-11&to=2024-05-11']) {
      const r = await send(b.key, 'GET', `/v1/transactions?${qs}`);
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ items: [], next_cursor: null });
    }
    // A's own view is intact
    const aRows = (await send(a.key, 'GET', '/v1/transactions?limit=500')).json().items.map((i: Json) => i.id);
    expect(aRows.sort()).toEqual([...aIds].sort());
  });

  it('list paging: a cursor from A\'s listing is, for B, just an unknown cursor', async () => {
    const page = (await send(a.key, 'GET', '/v1/transactions?limit=1')).json();
    expect(page.next_cursor).toEqual(expect.any(String));
    const foreign = answer(await send(b.key, 'GET', `/v1/transactions?cursor=${page.next_cursor}&limit=500`));
    const fabricated = Buffer.from(`c:${randomUUID()}`).toString('base64url');
    const unknown = answer(await send(b.key, 'GET', `/v1/transactions?cursor=${fabricated}&limit=500`));
    expect(foreign).toEqual(unknown);
    expect(foreign.status).toBe(400);
    // The cursor itself carries only A's own row id, never a global sequence.
    expect(Buffer.from(page.next_cursor, 'base64url').toString()).toMatch(/^c:[0-9a-f-]{36}$/);
  });

  it('detail: A\'s ids answer B exactly like nonexistent ids', async () => {
    for (const id of aIds) {
      const foreign = answer(await send(b.key, 'GET', `/v1/transactions/${id}`));
      const missing = answer(await send(b.key, 'GET', `/v1/transactions/${randomUUID()}`));
      expect(foreign).toEqual(missing);
      expect(foreign.status).toBe(404);
      // upper-case spelling of A's id too
      expect(answer(await send(b.key, 'GET', `/v1/transactions/${id.toUpperCase()}`))).toEqual(missing);
    }
  });

  it('replay: A\'s ids answer B exactly like nonexistent ids', async () => {
    for (const id of aIds) {
      const foreign = answer(await send(b.key, 'POST', `/v1/transactions/${id}/replay`));
      const missing = answer(await send(b.key, 'POST', `/v1/transactions/${randomUUID()}/replay`));
      expect(foreign).toEqual(missing);
      expect(foreign.status).toBe(404);
    }
    expect((await send(a.key, 'POST', `/v1/transactions/${aIds[0]}/replay`)).statusCode).toBe(200);
  });

  it('export: B\'s CSV holds only B\'s rows, in both versions and under A\'s filters', async () => {
    for (const v of ['1', '2']) {
      const r = await send(b.key, 'GET', `/v1/transactions/export?from=2024-01-01&to=2024-12-31&export_version=${v}`);
      expect(r.statusCode).toBe(200);
      const lines = r.body.trimEnd().split('\r\n');
      const ids = lines.slice(1).map((l) => l.split(',')[0]);
      expect(ids).toContain(bId);
      for (const id of aIds) expect(r.body).not.toContain(id);
      expect(r.body).not.toContain('a-shop');
      expect(r.body).not.toContain('a-hidden-tag');
    }
    for (const qs of ['source_id=a-shop', `api_key_id=${a.id}`, 'country=AT']) {
      const r = await send(b.key, 'GET', `/v1/transactions/export?from=2024-01-01&to=2024-12-31&${qs}`);
      expect(r.statusCode).toBe(200);
      expect(r.body.trimEnd().split('\r\n')).toHaveLength(1);
    }
  });

  it('aggregated: B\'s totals hold only B\'s rows', async () => {
    for (const group of ['country', 'tax_class', 'month']) {
      const r = (await send(b.key, 'GET', `/v1/transactions/aggregated?from=2024-01-01&to=2024-12-31&group_by=${group}`)).json();
      const count = r.rows.reduce((s: number, x: Json) => s + x.transaction_count, 0);
      const bRows = (await send(b.key, 'GET', '/v1/transactions?from=2024-01-01&to=2024-12-31&limit=500')).json().items;
      expect(count).toBe(bRows.length);
      expect(r.rows.reduce((s: number, x: Json) => s + x.gross_amount_minor, 0)).toBe(bRows.reduce((s: number, x: Json) => s + x.gross_amount_minor, 0));
      expect(r.converted_currencies).toEqual([]); // only A has a USD row
      expect(r.rows.map((x: Json) => x.key)).not.toContain('AT');
    }
    for (const qs of ['source_id=a-shop', `api_key_id=${a.id}`, 'country=AT', 'currency=USD']) {
      const r = (await send(b.key, 'GET', `/v1/transactions/aggregated?from=2024-01-01&to=2024-12-31&${qs}`)).json();
      expect(r.rows).toEqual([]);
    }
  });

  it('sources list: B does not see A\'s profiles or counts', async () => {
    const l = (await send(b.key, 'GET', '/v1/sources')).json();
    expect(l).toEqual({ items: [], activeCount: 0, maxProfiles: 100, storedCount: 0, maxStoredProfiles: 500 });
  });

  it('sources create: A\'s source_key is free in B', async () => {
    const r = await send(b.key, 'POST', '/v1/sources', { source_key: 'a-shop', display_name: 'B uses the same key', channel_type: 'other' });
    expect(r.statusCode).toBe(201);
    expect(r.json().id).not.toBe(aProfile.id);
    const aList = (await send(a.key, 'GET', '/v1/sources')).json();
    expect(aList.items).toEqual([aProfile]);
    expect(aList.storedCount).toBe(1);
  });

  it('sources patch: A\'s profile id answers B exactly like a nonexistent id and stays unchanged', async () => {
    const foreign = answer(await send(b.key, 'PATCH', `/v1/sources/${aProfile.id}`, { display_name: 'taken over', active: false, platform: '' }));
    const missing = answer(await send(b.key, 'PATCH', `/v1/sources/${aProfile.id + 100000}`, { display_name: 'taken over', active: false, platform: '' }));
    expect(foreign).toEqual(missing);
    expect(foreign.status).toBe(404);
    expect((await send(a.key, 'GET', '/v1/sources')).json().items).toEqual([aProfile]);
  });

  it('unknown sources: B sees only B\'s raw tags, and B\'s profile does not hide A\'s tag from A', async () => {
    const bu = (await send(b.key, 'GET', '/v1/sources/unknown')).json().items.map((i: Json) => i.source_id);
    expect(bu).toEqual(['b-shop']);
    await send(b.key, 'POST', '/v1/sources', { source_key: 'a-hidden-tag', display_name: 'B', channel_type: 'other' });
    const au = (await send(a.key, 'GET', '/v1/sources/unknown')).json().items;
    expect(au).toEqual([{ source_id: 'a-hidden-tag', transaction_count: 1, first_seen: '2024-05-10', last_seen: '2024-05-10' }]);
  });

  it('a second key of the same account sees the account\'s rows (the boundary is the account, not the key)', async () => {
    const a2 = await h.key('iso-a', 'read-only');
    const rows = (await send(a2.key, 'GET', '/v1/transactions?limit=500')).json().items.map((i: Json) => i.id);
    expect(rows.sort()).toEqual([...aIds].sort());
    expect((await send(a2.key, 'GET', `/v1/transactions/${aIds[1]}`)).statusCode).toBe(200);
  });
});
