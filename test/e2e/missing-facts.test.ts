import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../support/env';
import { startHarness, type Harness } from '../support/harness';
import { http, NATS_SERVER, startPrivateNats, waitFor, type PrivateNats } from '../support/processes';

const backends = await requireBackends(['postgres']);

/** The optional facts of a supply event that a sale or refund may lack (absent) or send as null. */
const OPTIONAL_FACTS = ['dispatch_country', 'supplier_establishment_country', 'tax_class_id', 'product_reference', 'variant_reference', 'order_reference', 'integration_id', 'calculation_id'] as const;
/** No source tag, a tag without a profile, and the tag of a profile with defaults for both location facts. */
const SOURCES = [undefined, 'shop/eu', 'shop-de'] as const;
const Y = new Date().getUTCFullYear();

type Json = Record<string, unknown>;

/** A DE seller's B2C sale of goods to FR at 20 %: vat = net × 2000 / 10000. */
function sale(eventId: string, day: string, net: number, over: Json = {}): Json {
  return {
    event_id: eventId,
    event_type: 'sale',
    occurred_at: day,
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
    tax_class_id: 'standard',
    product_reference: 'sku-1',
    variant_reference: 'v-1',
    order_reference: 'order-1',
    ...over,
  };
}

/** Drops (absent) or nulls (null) one fact; `undefined` values vanish from the JSON body. */
function lacking(event: Json, fact: string, how: 'absent' | 'null'): Json {
  return { ...event, [fact]: how === 'null' ? null : undefined };
}

/**
 * Issue 27: one ordinary supply event (a sale with a source tag and a missing fact) froze the whole
 * `npm start` process: the Article 59c projection called calculation while holding its transaction on the
 * embedded database's single session. Sales and refunds lacking each optional fact, with and without a
 * source tag and with a profile that has defaults, must leave `/ready`, a report and the threshold status
 * answering within 2 s, in the embedded mode, on PostgreSQL and over JetStream.
 */
for (const mode of ['embedded', 'postgres', 'jetstream'] as const) {
  describe.skipIf(!backends.ok || (mode === 'jetstream' && !existsSync(NATS_SERVER)))(`supply events lacking optional facts never wedge the process (${mode})`, () => {
    let h: Harness;
    let nats: PrivateNats | undefined;
    let base: string;
    let key: string;
    let committed = 0;

    /** A request that must answer within 2 s (a wedged process does not answer at all). */
    const within2s = (method: string, path: string, body?: unknown) => http(method, `${base}${path}`, { headers: { 'x-api-key': key }, body, timeoutMs: 2000 });

    async function commit(events: Json[]): Promise<void> {
      const r = await http('POST', `${base}/v1/supply-events`, { headers: { 'x-api-key': key }, body: { events }, timeoutMs: 10_000 });
      expect(r.status, r.text).toBe(201);
      committed += events.length;
    }

    /** `/ready`, a Union OSS report and the threshold status each answer 200 within 2 s. */
    async function stillAnswering(): Promise<Json> {
      const ready = await http('GET', `${base}/ready`, { timeoutMs: 2000 });
      expect(ready.status, ready.text).toBe(200);
      const report = await within2s('GET', `/v1/reports/oss-quarterly-summary?period=${Y}-Q1`);
      expect(report.status, report.text).toBe(200);
      const status = await within2s('GET', '/v1/compliance/threshold-status');
      expect(status.status, status.text).toBe(200);
      return status.json;
    }

    beforeAll(async () => {
      nats = mode === 'jetstream' ? await startPrivateNats() : undefined;
      h = await startHarness({ embedded: mode === 'embedded', env: nats ? { NATS_URL: nats.url } : {} });
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
      key = (await h.key(`missing-facts-${mode}`, 'full')).key;
      const profile = await within2s('POST', '/v1/sources', { source_key: 'shop-de', display_name: 'DE shop', channel_type: 'owned_store', supplier_establishment_country: 'DE', dispatch_country: 'DE' });
      expect(profile.status, profile.text).toBe(201);
      const registration = await within2s('POST', '/v1/tax-registrations', { scheme_type: 'union_oss', member_state_identification: 'DE', effective_from: '2021-07-01', status: 'active' });
      expect(registration.status, registration.text).toBe(201);
    }, 120_000);

    afterAll(async () => {
      await h?.close();
      await nats?.stop();
    });

    it('the sale of the issue (a source tag, dispatch_country null) is stored, and everything still answers', async () => {
      await commit([sale('w1', `${Y}-01-11`, 1000, { dispatch_country: null, source_id: 'shop/eu', tax_class_id: undefined, product_reference: undefined, variant_reference: undefined, order_reference: undefined })]);
      await stillAnswering();
    });

    it('sales and their refunds lacking each optional fact (absent or null), per source tag, leave every answer within 2 s', async () => {
      for (const source of SOURCES) {
        const events: Json[] = [];
        for (const fact of OPTIONAL_FACTS) {
          for (const how of ['absent', 'null'] as const) {
            const id = `${source ?? 'none'}-${fact}-${how}`.replace(/\//g, '_');
            const tag = source === undefined ? {} : { source_id: source };
            events.push(lacking(sale(`s-${id}`, `${Y}-01-20`, 10_000, tag), fact, how));
            events.push(lacking(sale(`r-${id}`, `${Y}-02-20`, -2_500, { ...tag, event_type: 'refund', original_event_id: `s-${id}` }), fact, how));
          }
        }
        await commit(events);
        await stillAnswering();
      }
    }, 60_000);

    it('the Article 59c projection applies every event: the status catches up with the ledger, and /ready stays 200', async () => {
      const deadline = Date.now() + 20_000;
      let s = await stillAnswering();
      while (s.ledger_position !== committed && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        s = await stillAnswering();
      }
      expect([s.ledger_position, s.ledger_head]).toEqual([committed, committed]);
      // 1 + 3 sources × 8 facts × 2 ways × (sale + refund) = 97 events, all in the current year.
      expect(committed).toBe(97);
      expect((s.issues as string[]).includes('projection_lagging')).toBe(false);
      // The Union OSS projection has every event too (the report counts the quarter's source events). It is a
      // consumer of its own (over JetStream a durable of its own), so it catches up on its own time: within the deadline.
      let report = (await within2s('GET', `/v1/reports/oss-quarterly-summary?period=${Y}-Q1`)).json;
      while (report.total_source_event_count !== committed && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        report = (await within2s('GET', `/v1/reports/oss-quarterly-summary?period=${Y}-Q1`)).json;
      }
      expect(report.total_source_event_count).toBe(committed);
    }, 40_000);

    it('the projection applies the profile\'s defaults to events lacking both location facts: the crossing is recorded', async () => {
      // A second account with the same profile: 600,000 + 500,000 = 1,100,000 > 1,000,000 (the DE threshold,
      // EUR 10,000): d2 crosses, with DE/DE from the profile (the events name neither State).
      const other = (await h.key(`missing-facts-defaults-${mode}`, 'full')).key;
      const as = (method: string, path: string, body?: unknown) => http(method, `${base}${path}`, { headers: { 'x-api-key': other }, body, timeoutMs: 2000 });
      expect((await as('POST', '/v1/sources', { source_key: 'shop-de', display_name: 'DE shop', channel_type: 'owned_store', supplier_establishment_country: 'DE', dispatch_country: 'DE' })).status).toBe(201);
      const events = [
        lacking(lacking(sale('d1', `${Y}-01-15`, 600_000, { source_id: 'shop-de' }), 'dispatch_country', 'absent'), 'supplier_establishment_country', 'null'),
        lacking(lacking(sale('d2', `${Y}-01-16`, 500_000, { source_id: 'shop-de' }), 'dispatch_country', 'null'), 'supplier_establishment_country', 'absent'),
      ];
      expect((await as('POST', '/v1/supply-events', { events })).status).toBe(201);
      const deadline = Date.now() + 20_000;
      let s: Json = {};
      while (Date.now() < deadline) {
        s = (await as('GET', '/v1/compliance/threshold-status')).json;
        if (s.ledger_position === 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(s.ledger_position).toBe(2);
      const check = (s.checks as Json[])[0]!;
      expect(check).toMatchObject({ establishment_country: 'DE', current_minor: 1_100_000 });
      expect(check.current_year_crossing).toMatchObject({ event_id: 'd2', cumulative_minor: 1_100_000, establishment_country: 'DE' });
      await stillAnswering();
    }, 40_000);
  });
}

/**
 * Issue 27, part 2: a wedged process must not look alive. While another connection holds the embedded
 * database's single session inside a transaction, `/ready` answers 503 within its probe timeout and a call
 * that needs the database answers 503 once it has waited DATABASE_WAIT_MS; when the holder lets go, both
 * answer normally again.
 */
describe.skipIf(!backends.ok)('a stuck database session: /ready and calls answer 503 in bounded time (embedded)', () => {
  let h: Harness;
  let base: string;
  let key: string;
  let holder: pg.Client;

  beforeAll(async () => {
    h = await startHarness({ embedded: true, env: { DATABASE_WAIT_MS: '1500' } });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    key = (await h.key('wedged', 'full')).key;
    holder = new pg.Client({ connectionString: h.databaseUrl });
    holder.on('error', () => undefined);
    await holder.connect();
  }, 120_000);

  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await h?.close();
  });

  it('answers 503 while the session is held, and recovers by itself when it is released', async () => {
    expect((await http('GET', `${base}/ready`, { timeoutMs: 3000 })).status).toBe(200);
    await holder.query('begin');
    await holder.query('select 1');
    let t0 = Date.now();
    const ready = await http('GET', `${base}/ready`, { timeoutMs: 5000 });
    expect(ready.status, ready.text).toBe(503);
    expect(ready.json.status).toBe('not_ready');
    // One probe timeout (2 s) plus the time a loaded machine takes to answer.
    expect(Date.now() - t0).toBeLessThan(5000);
    t0 = Date.now();
    const call = await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': key }, timeoutMs: 10_000 });
    expect(call.status, call.text).toBe(503);
    expect(call.json.error).toBe('service_unavailable');
    expect(Date.now() - t0).toBeLessThan(8000);
    await holder.query('commit');
    await waitFor('/ready 200 again', async () => (await http('GET', `${base}/ready`, { timeoutMs: 3000 })).status === 200, { timeoutMs: 15_000 });
    const again = await http('GET', `${base}/v1/transactions`, { headers: { 'x-api-key': key }, timeoutMs: 5000 });
    expect(again.status, again.text).toBe(200);
  }, 60_000);
});
