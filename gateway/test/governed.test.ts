import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCoverage, publishCoverage } from '../../services/classification/src/admin/coverage';
import { refusal } from '../../services/classification/test/support';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { component, expectUnimplemented, seedRelease, TreatmentDesk, v2Body, type Json, type Res } from './governed-support';

const backends = await requireBackends(['postgres']);

const Y = new Date().getUTCFullYear();
const TODAY = new Date().toISOString().slice(0, 10);

/** Governed mapping rules for the tests: CPA 01 (agricultural goods) → food, CPA 62 (IT services) → standard. */
const RULES = [
  { rule_id: 'EU-CPA-01', jurisdiction: 'EU', scheme: 'cpa', catalog_version: '2.1', code: '01', coverage: 'full', legal_from: '2015-01-01', legal_to: null, tax_class_id: 'food', supply_kind: 'goods', status: 'approved', legal_reference: 'VAT Directive Annex III point 1 (test rule)' },
  { rule_id: 'EU-CPA-62', jurisdiction: 'EU', scheme: 'cpa', catalog_version: '2.1', code: '62', coverage: 'full', legal_from: '2015-01-01', legal_to: null, tax_class_id: 'standard', supply_kind: 'services', status: 'approved', legal_reference: 'VAT Directive Art. 96 (test rule)' },
];
const WHEAT = { scheme: 'cpa', code: '01.11.11', catalog_version: '2.1' };
const IT_SERVICES = { scheme: 'cpa', code: '62.01.11', catalog_version: '2.1' };
const FOREST_PLANTS = { scheme: 'cpa', code: '02.10.11', catalog_version: '2.1' };

function governedSuite(mode: string, embedded: boolean) {
  describe.skipIf(!backends.ok)(`POST /v2/vat/calculate and GET /v2/decisions/{id} (${mode})`, () => {
    let h: Harness;
    let desk: TreatmentDesk;
    const k: Record<string, string> = {};
    let keyN = 0;
    const fresh = () => `key-${++keyN}`;

    const post = (body: unknown, opts: { key?: string; idem?: string | null; profile?: string; source?: string; raw?: string } = {}): Promise<Res> =>
      h.inject({
        method: 'POST',
        url: '/v2/vat/calculate',
        headers: {
          'content-type': 'application/json',
          ...(opts.key === '' ? {} : { 'x-api-key': opts.key ?? k.a! }),
          ...(opts.idem === null ? {} : { 'idempotency-key': opts.idem ?? fresh() }),
          ...(opts.profile ? { 'x-evidence-profile': opts.profile } : {}),
          ...(opts.source ? { 'x-source-id': opts.source } : {}),
        },
        payload: opts.raw ?? JSON.stringify(body),
      });
    const get = (id: string, key = k.a!): Promise<Res> => h.inject({ method: 'GET', url: `/v2/decisions/${id}`, headers: { 'x-api-key': key } });
    const fails = (res: Res, status: number, code: string) => {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ error: code, detail: expect.any(String) });
    };
    /** A durable 409/422: the decision body plus error and detail. */
    const durable = (res: Res, status: number, code: string): Json => {
      expect(res.statusCode, res.body).toBe(status);
      const body = res.json();
      expect(body.error).toBe(code);
      expect(body.detail).toEqual(expect.any(String));
      expect(body.decision_id).toMatch(/^[0-9a-f-]{36}$/);
      expectUnimplemented(body);
      return body;
    };
    const ok = (res: Res): Json => {
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expectUnimplemented(body);
      return body;
    };

    beforeAll(async () => {
      h = await startHarness({ embedded });
      desk = new TreatmentDesk(h);
      await desk.enrol();
      for (const [name, account, scope] of [
        ['a', 'gov-a', 'full'],
        ['aCalc', 'gov-a', 'calculate-only'],
        ['aRead', 'gov-a', 'read-only'],
        ['aResolve', 'gov-a', 'classification-resolve'],
        ['b', 'gov-b', 'full'],
        ['below', 'gov-below', 'full'],
        ['above', 'gov-above', 'full'],
        ['none', 'gov-none', 'full'],
        ['past', 'gov-past', 'full'],
      ] as const) k[name] = (await h.key(account, scope)).key;
      k.legacy = (await h.key('gov-a', 'full', true)).key;
    });
    afterAll(async () => {
      await desk?.close();
      await h?.close();
    });

    describe('before any treatment release is activated', () => {
      it('a candidate is imported but never active: the decision is a durable 422 unsupported with treatment_coverage_unavailable', async () => {
        const candidate = await desk.import();
        expect(candidate).toMatchObject({ status: 'candidate', release_id: 'eu27-sales-vat-2026-11', activated_by: null, digest: expect.stringMatching(/^sha256:/), rate_release_digest: expect.stringMatching(/^sha256:/) });
        const idem = fresh();
        const res = await post(v2Body(), { idem });
        const d = durable(res, 422, 'treatment_coverage_unavailable');
        expect(d.status).toBe('unsupported');
        expect(d.findings).toEqual(['treatment_coverage_unavailable', 'unsupported_scope']);
        expect(component(d, 'sales_vat')).toMatchObject({ treatment_status: 'unsupported', amount_status: 'unsupported', jurisdiction: 'DE', findings: ['treatment_coverage_unavailable'] });
        expect(d.treatment_release).toBeNull();
        // Durable: an identical retry is the same decision; GET returns it as it was answered.
        const retry = await post(v2Body(), { idem });
        expect(retry.statusCode).toBe(422);
        expect(retry.json()).toEqual(d);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        const got = await get(d.decision_id);
        expect(got.statusCode, got.body).toBe(200);
        const { error, detail, ...decision } = d;
        expect(got.json()).toEqual({ ...decision, answered_with: { http_status: 422, error } });
        expect(detail).toContain('DE');
        // The importer cannot activate her own candidate (four eyes); the refusal is audited.
        expect(await refusal(desk.activate(candidate.id, 'alice'))).toBe('four_eyes_violation');
        await desk.activate(candidate.id, 'bob');
      });
    });

    describe('with the EU-27 release activated', () => {
      it('a domestic B2C supply: sales VAT settled (taxable, merchant, checkout, 19 %), the other three unsupported, aggregate partial (200)', async () => {
        // price includes VAT: vat = half_up(11900 × 1900 / 11900) = 1900, net = 11900 − 1900 = 10000.
        const d = ok(await post(v2Body(), { source: 'shop/eu' }));
        expect(d).toMatchObject({ schema_version: 'governed-calculation/v2', resolver_version: 'governed-treatment/v2', status: 'partial', legal_at: '2026-03-01T00:00:00.000Z', findings: ['unsupported_scope'], source_id: 'shop/eu' });
        expect(d.treatment_release).toEqual({ release_id: 'eu27-sales-vat-2026-11', digest: expect.stringMatching(/^sha256:/) });
        const s = component(d, 'sales_vat');
        expect(s).toMatchObject({
          treatment: 'taxable',
          treatment_status: 'resolved',
          amount_status: 'calculated',
          jurisdiction: 'DE',
          place_of_supply_rule: 'domestic_supply',
          liable_party: 'merchant',
          collection_point: 'checkout',
          rate_category: 'standard',
          vat_rate_bps: 1900,
          net_amount_minor: 10000,
          amount_minor: 1900,
          gross_amount_minor: 11900,
          currency: 'EUR',
          calculation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          deduction_status: 'unknown',
          findings: [],
        });
        expect(s.legal_basis).toContain('Art. 193 (supplier liable)');
        for (const prefix of ['treatment_release:', 'mapping:tax-class-direct/v1', 'rate_release:', 'rate_window:', 'calculator:vat-calculator-half-up/v1', 'algorithm_manifest:']) {
          expect(s.provenance.some((p: string) => p.startsWith(prefix)), prefix).toBe(true);
        }
      });

      it('a calculated sales VAT is also a transaction record (history, replay) under its calculation_id; other decisions store none', async () => {
        const d = ok(await post(v2Body(), { source: 'shop/v2' }));
        const id = component(d, 'sales_vat').calculation_id;
        const tx = await h.inject({ method: 'GET', url: `/v1/transactions/${id}`, headers: { 'x-api-key': k.a } });
        expect(tx.statusCode, tx.body).toBe(200);
        expect(tx.json()).toMatchObject({ id, country: 'DE', tax_class_id: 'standard', vat_rate_bps: 1900, net_amount_minor: 10000, vat_amount_minor: 1900, gross_amount_minor: 11900, source_id: 'shop/v2', replay_status: 'available' });
        const replay = await h.inject({ method: 'POST', url: `/v1/transactions/${id}/replay`, headers: { 'x-api-key': k.a } });
        expect(replay.statusCode, replay.body).toBe(200);
        expect(replay.json()).toMatchObject({ exact_match: true, vat_amount_minor: 1900 });
        expect((await h.inject({ method: 'GET', url: `/v1/transactions/${id}`, headers: { 'x-api-key': k.b } })).statusCode).toBe(404);
        const open = durable(await post(v2Body({}, { destination_country: 'FR' })), 409, 'jurisdiction_conflict');
        expect(component(open, 'sales_vat').calculation_id).toBeNull();
      });

      it('price excluding VAT adds it on top: 10000 net at 19 % → 1900 VAT, 11900 gross; 0.05 EUR at 19 % → half_up(95/100) = 1', async () => {
        const d = ok(await post(v2Body({ amount_minor: 10000, price_includes_vat: false })));
        expect(component(d, 'sales_vat')).toMatchObject({ net_amount_minor: 10000, amount_minor: 1900, gross_amount_minor: 11900 });
        const small = ok(await post(v2Body({ amount_minor: 5, price_includes_vat: false })));
        expect(component(small, 'sales_vat')).toMatchObject({ net_amount_minor: 5, amount_minor: 1, gross_amount_minor: 6 });
      });

      it('a jurisdiction conflict is a durable 409 conflicting decision; an identical retry returns it', async () => {
        const idem = fresh();
        const body = v2Body({ country: 'DE' }, { destination_country: 'FR' });
        const d = durable(await post(body, { idem }), 409, 'jurisdiction_conflict');
        expect(d.status).toBe('conflicting');
        expect(d.findings).toContain('jurisdiction_conflict');
        expect(component(d, 'sales_vat')).toMatchObject({ treatment_status: 'conflicting', amount_status: 'conflicting', amount_minor: null, findings: ['jurisdiction_conflict'] });
        const retry = await post(body, { idem });
        expect(retry.statusCode).toBe(409);
        expect(retry.json().decision_id).toBe(d.decision_id);
      });

      it('a jurisdiction outside the release (US) or a date before it (2021-06-30) is 422 unsupported treatment_coverage_unavailable', async () => {
        durable(await post(v2Body({ country: 'US' }, { destination_country: 'US' })), 422, 'treatment_coverage_unavailable');
        const d = durable(await post(v2Body({ transaction_date: '2021-06-30' })), 422, 'treatment_coverage_unavailable');
        expect(d.status).toBe('unsupported');
      });

      it('a conditional rate is never applied: AT food from 2026-07-01 → 422 incomplete conditional_rate_unresolved', async () => {
        const d = durable(await post(v2Body({ country: 'AT', tax_class_id: 'food', transaction_date: '2026-08-01' }, { supplier_establishment_country: 'AT', dispatch_country: 'AT', destination_country: 'AT' })), 422, 'decision_incomplete');
        expect(d.status).toBe('incomplete');
        expect(component(d, 'sales_vat')).toMatchObject({ treatment: 'taxable', treatment_status: 'incomplete', amount_minor: null, rate_category: 'reduced', findings: ['conditional_rate_unresolved'] });
      });

      it('facts that are missing or not implemented leave sales VAT incomplete or unsupported (422), never a guessed tax', async () => {
        const noEst = durable(await post(v2Body({}, { supplier_establishment_country: undefined })), 422, 'decision_incomplete');
        expect(component(noEst, 'sales_vat').findings).toEqual(['supplier_establishment_country_missing']);
        const noDispatch = durable(await post(v2Body({}, { dispatch_country: undefined })), 422, 'decision_incomplete');
        expect(component(noDispatch, 'sales_vat').findings).toEqual(['dispatch_country_missing']);
        // A cross-border supply with only tax_class_id: goods or services is unknown.
        const unknownKind = durable(await post(v2Body({ country: 'FR' }, { destination_country: 'FR' })), 422, 'decision_incomplete');
        expect(component(unknownKind, 'sales_vat').findings).toEqual(['supply_kind_unknown']);
      });

      it('a source whose review is older than 180 days makes the components depending on it incomplete (fail closed)', async () => {
        const stale = seedRelease();
        stale.release_id = 'lu-stale-review';
        stale.jurisdictions = ['LU'];
        stale.sources = stale.sources.map((s: Json) => ({ ...s, reviewed_at: '2025-01-01' }));
        await desk.provision(stale);
        const d = durable(await post(v2Body({ country: 'LU' }, { supplier_establishment_country: 'LU', dispatch_country: 'LU', destination_country: 'LU' })), 422, 'decision_incomplete');
        expect(d.treatment_release.release_id).toBe('lu-stale-review');
        expect(component(d, 'sales_vat')).toMatchObject({ treatment: 'taxable', treatment_status: 'incomplete', findings: ['source_review_expired', 'source_review_expired:vat-directive'] });
      });
    });

    describe('classification selector (CPA 2.1 approved, a coverage manifest published)', () => {
      beforeAll(async () => {
        await desk.w.provision('cpa21');
        const manifest = await importCoverage(desk.w.deps, { fileName: 'coverage.json', bytes: Buffer.from(JSON.stringify({ format: 'classification_coverage_v1', rules: RULES })), operator: 'alice' });
        desk.w.nextStep();
        await publishCoverage(desk.w.deps, { id: manifest.id, operator: 'bob', totp: desk.w.code('bob') });
      });

      it('maps the code to its tax class and supply kind: wheat sold domestically in DE at 7 % (10000 net → 700 VAT)', async () => {
        const d = ok(await post(v2Body({ tax_class_id: undefined, classification: WHEAT, amount_minor: 10000, price_includes_vat: false })));
        const s = component(d, 'sales_vat');
        expect(s).toMatchObject({ treatment: 'taxable', rate_category: 'reduced', vat_rate_bps: 700, net_amount_minor: 10000, amount_minor: 700, gross_amount_minor: 10700 });
        expect(s.provenance.some((p: string) => p.startsWith('mapping:classification_coverage_v1:1:sha256:') && p.endsWith(':EU-CPA-01'))).toBe(true);
        expect(s.provenance.some((p: string) => p.startsWith('catalog:sha256:'))).toBe(true);
        // Both selectors agreeing is the same decision content.
        const both = ok(await post(v2Body({ tax_class_id: 'food', classification: WHEAT, amount_minor: 10000, price_includes_vat: false })));
        expect(component(both, 'sales_vat').amount_minor).toBe(700);
      });

      it('selectors that map differently, or a missing mapping with tax_class_id, are a durable 409 classification_conflict', async () => {
        const d = durable(await post(v2Body({ tax_class_id: 'standard', classification: WHEAT })), 409, 'classification_conflict');
        expect(d.status).toBe('conflicting');
        expect(component(d, 'sales_vat')).toMatchObject({ treatment_status: 'conflicting', findings: ['classification_conflict'] });
        const missing = durable(await post(v2Body({ tax_class_id: 'standard', classification: FOREST_PLANTS })), 409, 'classification_conflict');
        expect(component(missing, 'sales_vat').findings).toEqual(['classification_conflict', 'classification_unmapped']);
        // A missing mapping without tax_class_id is incomplete, not a conflict.
        const open = durable(await post(v2Body({ tax_class_id: undefined, classification: FOREST_PLANTS })), 422, 'decision_incomplete');
        expect(component(open, 'sales_vat').findings).toEqual(['classification_needs_review', 'classification_unmapped']);
      });

      it('B2B goods to another State: exempt intra-Community supply in the dispatch State, incomplete until the customer VAT number is verified', async () => {
        const d = durable(await post(v2Body({ country: 'FR', tax_class_id: undefined, classification: WHEAT }, { customer_type: 'b2b', destination_country: 'FR' })), 422, 'decision_incomplete');
        expect(component(d, 'sales_vat')).toMatchObject({ treatment: 'exempt_intra_community_supply', treatment_status: 'incomplete', jurisdiction: 'DE', liable_party: 'customer', collection_point: 'customer_self_assessment', findings: ['customer_vat_identification_unverified'] });
      });

      it('goods dispatched from outside the EU are imported goods: sales VAT unsupported (422 decision_unsupported)', async () => {
        const d = durable(await post(v2Body({ tax_class_id: undefined, classification: WHEAT }, { dispatch_country: 'CN', supplier_establishment_country: 'CN' })), 422, 'decision_unsupported');
        expect(d.status).toBe('unsupported');
        expect(component(d, 'sales_vat')).toMatchObject({ treatment_status: 'unsupported', place_of_supply_rule: 'imported_goods', findings: ['unsupported_scope', 'imported_goods_not_implemented'] });
      });

      it('cross-border services stay incomplete (the service type decides among the special rules): B2B reverse charge named, not settled', async () => {
        const d = durable(await post(v2Body({ country: 'FR', tax_class_id: undefined, classification: IT_SERVICES }, { customer_type: 'b2b', destination_country: 'FR', dispatch_country: undefined })), 422, 'decision_incomplete');
        expect(component(d, 'sales_vat')).toMatchObject({ treatment: 'reverse_charge', liable_party: 'customer', treatment_status: 'incomplete', findings: ['service_type_unresolved'] });
        // The same services sold domestically settle (Art. 44/45 both point to DE): 19 %.
        const dom = ok(await post(v2Body({ tax_class_id: undefined, classification: IT_SERVICES }, { customer_type: 'b2b', dispatch_country: undefined })));
        expect(component(dom, 'sales_vat')).toMatchObject({ vat_rate_bps: 1900, amount_minor: 1900 });
      });

      if (!embedded) {
        it('a transient failure of a service the decision needs is 503 and stores nothing; the same key then succeeds', async () => {
          const idem = fresh();
          const body = v2Body({ tax_class_id: undefined, classification: WHEAT });
          const count = async () => Number((await desk.pool.query('select count(*)::int as n from calculation.governed_decision')).rows[0].n);
          const before = await count();
          await desk.pool.query('alter table classification.coverage_manifest rename to coverage_manifest_offline');
          try {
            fails(await post(body, { idem }), 503, 'service_unavailable');
          } finally {
            await desk.pool.query('alter table classification.coverage_manifest_offline rename to coverage_manifest');
          }
          expect(await count()).toBe(before);
          const d = ok(await post(body, { idem }));
          // 11900 including 7 %: vat = half_up(11900 × 700 / 10700) = floor((16,660,000 + 10,700) / 21,400) = 779.
          expect(component(d, 'sales_vat')).toMatchObject({ amount_minor: 779, net_amount_minor: 11121, gross_amount_minor: 11900 });
        });

        it('B2C distance sale of goods DE → FR follows the account’s Article 59c status: unknown → incomplete, below → DE 7 %, above → FR 5.5 %', async () => {
          const body = v2Body({ country: 'FR', tax_class_id: undefined, classification: WHEAT, amount_minor: 10000, price_includes_vat: false, transaction_date: TODAY }, { destination_country: 'FR' });
          // No committed supplies: no Article 59c check → fail closed.
          const unknown = durable(await post(body, { key: k.none }), 422, 'decision_incomplete');
          expect(component(unknown, 'sales_vat')).toMatchObject({ place_of_supply_rule: 'distance_sale_goods_destination', findings: ['article_59c_status_incomplete'] });

          const commit = async (key: string, net: number, id: string) => {
            const ev = { event_id: id, event_type: 'sale', occurred_at: `${Y}-01-02T10:00:00Z`, supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: 'FR', dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR', net_amount_minor: net, vat_amount_minor: Math.round((net * 2000) / 10000), vat_rate_bps: 2000, rate_category: 'standard', classification_status: 'classified' };
            const r = await h.inject({ method: 'POST', url: '/v1/supply-events', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify({ events: [ev] }) });
            expect(r.statusCode, r.body).toBe(201);
            const end = Date.now() + 15_000;
            for (;;) {
              const s = (await h.inject({ method: 'GET', url: '/v1/compliance/threshold-status', headers: { 'x-api-key': key } })).json();
              if (s.ledger_position === s.ledger_head && s.ledger_head > 0) return;
              if (Date.now() > end) throw new Error('thresholds projection not caught up');
              await new Promise((r2) => setTimeout(r2, 50));
            }
          };
          // EUR 5,000 this year (threshold EUR 10,000 = 1,000,000 cents): origin taxation in DE, 10000 × 700 / 10000 = 700.
          await commit(k.below!, 500_000, 'below-1');
          const below = ok(await post(body, { key: k.below }));
          expect(component(below, 'sales_vat')).toMatchObject({ place_of_supply_rule: 'distance_sale_goods_origin', jurisdiction: 'DE', vat_rate_bps: 700, amount_minor: 700 });
          expect(component(below, 'sales_vat').provenance).toContain('article_59c_position:at_or_below');
          // EUR 10,000.05 crossed on 2 January: destination taxation in FR, 10000 × 550 / 10000 = 550.
          await commit(k.above!, 1_000_005, 'above-1');
          const above = ok(await post(body, { key: k.above }));
          expect(component(above, 'sales_vat')).toMatchObject({ place_of_supply_rule: 'distance_sale_goods_destination', jurisdiction: 'FR', vat_rate_bps: 550, amount_minor: 550, liable_party: 'merchant', collection_point: 'checkout' });
          expect(component(above, 'sales_vat').legal_basis).toContain('Art. 33(a)');
        });

        it('a sale dated in the preceding year is placed by the Article 59c status as of its own day', async () => {
          const P = Y - 1;
          // Preceding year: 700,000 on 1 March, then 500,000 on 1 October → cumulative 1,200,000 > 1,000,000: crossed on 1 October.
          const events = [
            ['past-1', `${P}-03-01T10:00:00Z`, 700_000],
            ['past-2', `${P}-10-01T10:00:00Z`, 500_000],
          ].map(([id, at, net]) => ({ event_id: id, event_type: 'sale', occurred_at: at, supply_kind: 'goods', customer_type: 'b2c', country_of_consumption: 'FR', dispatch_country: 'DE', supplier_establishment_country: 'DE', currency: 'EUR', net_amount_minor: net, vat_amount_minor: (Number(net) * 2000) / 10000, vat_rate_bps: 2000, rate_category: 'standard', classification_status: 'classified' }));
          const r = await h.inject({ method: 'POST', url: '/v1/supply-events', headers: { 'x-api-key': k.past!, 'content-type': 'application/json' }, payload: JSON.stringify({ events }) });
          expect(r.statusCode, r.body).toBe(201);
          const end = Date.now() + 15_000;
          for (;;) {
            const st = (await h.inject({ method: 'GET', url: '/v1/compliance/threshold-status', headers: { 'x-api-key': k.past! } })).json();
            if (st.ledger_position === st.ledger_head && st.ledger_head >= 2) break;
            if (Date.now() > end) throw new Error('thresholds projection not caught up');
            await new Promise((r2) => setTimeout(r2, 50));
          }
          const on = (date: string) => v2Body({ country: 'FR', tax_class_id: undefined, classification: WHEAT, amount_minor: 10000, price_includes_vat: false, transaction_date: date }, { destination_country: 'FR' });
          // 1 June: 700,000 so far in that year, nothing the year before → at or below → origin DE: 10000 × 700 / 10000 = 700.
          const june = ok(await post(on(`${P}-06-01`), { key: k.past }));
          expect(component(june, 'sales_vat')).toMatchObject({ place_of_supply_rule: 'distance_sale_goods_origin', jurisdiction: 'DE', vat_rate_bps: 700, amount_minor: 700 });
          expect(component(june, 'sales_vat').provenance).toContain('article_59c_position:at_or_below');
          // 15 November: the crossing of 1 October lies before → destination FR: 10000 × 550 / 10000 = 550.
          const november = ok(await post(on(`${P}-11-15`), { key: k.past }));
          expect(component(november, 'sales_vat')).toMatchObject({ place_of_supply_rule: 'distance_sale_goods_destination', jurisdiction: 'FR', vat_rate_bps: 550, amount_minor: 550 });
          expect(component(november, 'sales_vat').provenance).toContain('article_59c_position:above');
          // This year the preceding year's crossing decides: above → FR.
          const now = ok(await post(on(TODAY), { key: k.past }));
          expect(component(now, 'sales_vat')).toMatchObject({ jurisdiction: 'FR', vat_rate_bps: 550, amount_minor: 550 });
        });
      }
    });

    describe('idempotency and supersession', () => {
      it('requires Idempotency-Key (400, nothing stored); a changed request under the same key is 409 idempotency_conflict', async () => {
        fails(await post(v2Body(), { idem: null }), 400, 'missing_idempotency_key');
        const idem = fresh();
        const first = ok(await post(v2Body(), { idem }));
        fails(await post(v2Body({ amount_minor: 11901 }), { idem }), 409, 'idempotency_conflict');
        fails(await post(v2Body(), { idem, source: 'other/tag' }), 409, 'idempotency_conflict');
        // 2026-03-01 and 2026-03-01T00:00:00Z are the same canonical date.
        const same = await post(v2Body({ transaction_date: '2026-03-01T00:00:00Z' }), { idem });
        expect(same.statusCode).toBe(200);
        expect(same.json()).toEqual(first);
      });

      it('concurrent requests with one key store one decision and all answer it', async () => {
        const idem = fresh();
        const answers = await Promise.all(Array.from({ length: 6 }, () => post(v2Body(), { idem })));
        for (const a of answers) expect(a.statusCode, a.body).toBe(200);
        expect(new Set(answers.map((a) => a.json().decision_id)).size).toBe(1);
        const n = await desk.pool.query('select count(*)::int as n from calculation.governed_decision where idempotency_key = $1', [idem]);
        expect(n.rows[0].n).toBe(1);
        const calc = await desk.pool.query('select count(*)::int as n from calculation.calculation where id = $1', [component(answers[0]!.json(), 'sales_vat').calculation_id]);
        expect(calc.rows[0].n).toBe(1);
      });

      it('returns the stored decision after a new release is activated; a new key gets the new release', async () => {
        const idem = fresh();
        const before = ok(await post(v2Body(), { idem }));
        const next = seedRelease();
        next.release_id = 'eu27-sales-vat-2026-11-r2';
        const activated = await desk.provision(next);
        expect(activated.status).toBe('active');
        const retry = await post(v2Body(), { idem });
        expect(retry.statusCode).toBe(200);
        expect(retry.json()).toEqual(before);
        expect(before.treatment_release.release_id).toBe('eu27-sales-vat-2026-11');
        const after = ok(await post(v2Body()));
        expect(after.treatment_release.release_id).toBe('eu27-sales-vat-2026-11-r2');
      });

      it('supersedes_decision_id links a remediated decision made with a new key; other accounts’ ids are not found', async () => {
        const wrong = durable(await post(v2Body({}, { destination_country: 'FR' })), 409, 'jurisdiction_conflict');
        const fixed = ok(await post(v2Body({ supersedes_decision_id: wrong.decision_id })));
        expect(fixed.supersedes_decision_id).toBe(wrong.decision_id);
        expect((await get(fixed.decision_id)).json().supersedes_decision_id).toBe(wrong.decision_id);
        fails(await post(v2Body({ supersedes_decision_id: wrong.decision_id }), { key: k.b }), 404, 'decision_not_found');
        fails(await post(v2Body({ supersedes_decision_id: '00000000-0000-4000-8000-000000000000' })), 404, 'decision_not_found');
        fails(await post(v2Body({ supersedes_decision_id: 'not-a-uuid' })), 400, 'invalid_supersedes_decision_id');
      });

      it('GET: other accounts’ ids, unknown and malformed ids are the same 404 decision_not_found', async () => {
        const d = ok(await post(v2Body()));
        expect((await get(d.decision_id, k.aRead)).statusCode).toBe(200);
        fails(await get(d.decision_id, k.b), 404, 'decision_not_found');
        fails(await get('00000000-0000-4000-8000-000000000000'), 404, 'decision_not_found');
        fails(await get('nope'), 404, 'decision_not_found');
        fails(await h.inject({ method: 'GET', url: `/v2/decisions/${d.decision_id}?x=1`, headers: { 'x-api-key': k.a } }), 400, 'unknown_parameter');
      });

      it('GET /v2/decisions lists the account’s decisions newest first with a keyset cursor and a status filter; other accounts never appear', async () => {
        const list = (query: string, key = k.a!) => h.inject({ method: 'GET', url: `/v2/decisions${query}`, headers: { 'x-api-key': key } });
        const mine = [ok(await post(v2Body())), ok(await post(v2Body({ amount_minor: 5000 }))), ok(await post(v2Body({ amount_minor: 7000 })))].map((d) => d.decision_id as string);
        const theirs = ok(await post(v2Body(), { key: k.b })).decision_id as string;
        // The three newest of account a, newest first, over two pages of 2.
        const first = await list('?limit=2');
        expect(first.statusCode, first.body).toBe(200);
        const p1 = first.json();
        expect(p1.items.map((i: Json) => i.decision_id)).toEqual([mine[2], mine[1]]);
        expect(p1.items[0]).toMatchObject({ status: 'partial', answered_with: { http_status: 200, error: null } });
        expect(p1.items[0]).toEqual({ ...(await get(mine[2]!)).json() });
        expect(p1.next_cursor).toEqual(expect.any(String));
        const p2 = (await list(`?limit=2&cursor=${p1.next_cursor}`)).json();
        expect(p2.items[0].decision_id).toBe(mine[0]);
        // Every page of account a holds only its own decisions; b's list never shows a's (and a's never b's).
        const all: string[] = [];
        for (let cursor: string | null = null; ; ) {
          const page: Json = (await list(`?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json();
          all.push(...page.items.map((i: Json) => i.decision_id as string));
          if (!page.next_cursor) break;
          cursor = page.next_cursor;
        }
        expect(all).toEqual(expect.arrayContaining(mine));
        expect(all).not.toContain(theirs);
        expect(new Set(all).size).toBe(all.length);
        const bList = (await list('', k.b)).json().items.map((i: Json) => i.decision_id);
        expect(bList).toContain(theirs);
        for (const id of mine) expect(bList).not.toContain(id);
        // The status filter: only partial decisions, and a 422 one appears under its own status.
        for (const i of (await list('?status=partial&limit=200')).json().items) expect(i.status).toBe('partial');
        const conflicting = durable(await post(v2Body({ country: 'FR' })), 409, 'jurisdiction_conflict');
        const c = (await list('?status=conflicting&limit=1')).json();
        expect(c.items.map((i: Json) => i.decision_id)).toEqual([conflicting.decision_id]);
        expect(c.items[0].answered_with).toEqual({ http_status: 409, error: 'jurisdiction_conflict' });
        // Bad input: 400 with a code, never a 500; a cursor of another account is invalid like a made-up one.
        const bCursor = (await list('?limit=1', k.b)).json().next_cursor ?? Buffer.from(`c:${theirs}`).toString('base64url');
        for (const [query, code] of [
          ['?status=nope', 'invalid_status'],
          ['?limit=0', 'invalid_limit'],
          ['?limit=201', 'invalid_limit'],
          ['?limit=-1', 'invalid_limit'],
          ['?cursor=%00', 'invalid_cursor'],
          ['?cursor=not-a-cursor', 'invalid_cursor'],
          [`?cursor=${Buffer.from(`c:${theirs}`).toString('base64url')}`, 'invalid_cursor'],
          [`?cursor=${bCursor}`, 'invalid_cursor'],
          ['?x=1', 'unknown_parameter'],
        ] as const) fails(await list(query), 400, code);
        // Scopes as for GET /v2/decisions/{id}.
        expect((await list('', k.aRead)).statusCode).toBe(200);
        expect((await list('', k.aCalc)).statusCode).toBe(200);
        expect((await list('', k.aResolve)).statusCode).toBe(403);
        expect((await h.inject({ method: 'GET', url: '/v2/decisions' })).statusCode).toBe(401);
      });
    });

    describe('X-Evidence-Profile and profile revisions', () => {
      const createProfile = async (key: string, source_key: string) => {
        const r = await h.inject({ method: 'POST', url: '/v1/sources', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify({ source_key, display_name: source_key, channel_type: 'owned_store' }) });
        expect(r.statusCode, r.body).toBe(201);
        return r.json() as Json;
      };
      const patch = async (id: number, body: Json) => {
        const r = await h.inject({ method: 'PATCH', url: `/v1/sources/${id}`, headers: { 'x-api-key': k.a, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        expect(r.statusCode, r.body).toBe(200);
      };

      it('seals the revision in force; every change is a new revision and older decisions keep theirs', async () => {
        const p = await createProfile(k.a!, 'gov-shop');
        const first = ok(await post(v2Body(), { profile: 'gov-shop' }));
        expect(first.evidence_profile_revision).toEqual({ revision_id: expect.any(String), digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
        expect(component(first, 'sales_vat').provenance).toContain(`evidence_profile_revision:${first.evidence_profile_revision.revision_id}:${first.evidence_profile_revision.digest}`);
        await patch(p.id, { display_name: 'Gov shop (renamed)' });
        const second = ok(await post(v2Body(), { profile: String(p.id) }));
        expect(second.evidence_profile_revision.revision_id).not.toBe(first.evidence_profile_revision.revision_id);
        expect(second.evidence_profile_revision.digest).not.toBe(first.evidence_profile_revision.digest);
        expect((await get(first.decision_id)).json().evidence_profile_revision).toEqual(first.evidence_profile_revision);
        // Profile defaults never decide a legal predicate: the sales VAT is the same as without a profile.
        expect(component(second, 'sales_vat').amount_minor).toBe(1900);
      });

      it('unknown, foreign, archived or ambiguous profiles are a durable 422 evidence_profile_unavailable', async () => {
        const idem = fresh();
        const unknown = durable(await post(v2Body(), { profile: 'no-such-profile', idem }), 422, 'evidence_profile_unavailable');
        expect(unknown.status).toBe('incomplete');
        expect(component(unknown, 'sales_vat').findings).toEqual(['evidence_profile_unavailable']);
        expect((await post(v2Body(), { profile: 'no-such-profile', idem })).json().decision_id).toBe(unknown.decision_id);
        await createProfile(k.b!, 'gov-b-shop');
        durable(await post(v2Body(), { profile: 'gov-b-shop' }), 422, 'evidence_profile_unavailable');
        const archived = await createProfile(k.a!, 'gov-archived');
        await patch(archived.id, { active: false });
        durable(await post(v2Body(), { profile: 'gov-archived' }), 422, 'evidence_profile_unavailable');
        // A source_key equal to another profile's id names two profiles.
        const target = await createProfile(k.a!, 'gov-target');
        await createProfile(k.a!, String(target.id));
        durable(await post(v2Body(), { profile: String(target.id) }), 422, 'evidence_profile_unavailable');
      });
    });

    describe('bad input, scopes', () => {
      it.each([
        ['malformed JSON', { raw: '{"country":' }, 'invalid_json'],
        ['an unknown field', { body: { ...v2Body(), vat: 1 } }, 'unknown_field'],
        ['an unknown treatment_context member', { body: v2Body({}, { region: 'x' }) }, 'unknown_field'],
        ['amount as a string', { body: v2Body({ amount_minor: '100' }) }, 'invalid_amount'],
        ['a negative amount', { body: v2Body({ amount_minor: -1 }) }, 'invalid_amount'],
        ['an amount above 10^15', { body: v2Body({ amount_minor: 1e15 + 1 }) }, 'invalid_amount'],
        ['price_includes_vat missing', { body: v2Body({ price_includes_vat: undefined }) }, 'missing_price_includes_vat'],
        ['no transaction_date', { body: v2Body({ transaction_date: undefined }) }, 'missing_transaction_date'],
        ['an impossible date', { body: v2Body({ transaction_date: '2026-02-30' }) }, 'invalid_transaction_date'],
        ['a bad country', { body: v2Body({ country: 'XX' }) }, 'invalid_country'],
        ['a bad currency', { body: v2Body({ currency: 'EURO' }) }, 'invalid_currency'],
        ['no selector', { body: v2Body({ tax_class_id: undefined }) }, 'missing_tax_selector'],
        ['an unknown tax class', { body: v2Body({ tax_class_id: 'caviar' }) }, 'unknown_tax_class'],
        ['classification not an object', { body: v2Body({ classification: 'cpa:01' }) }, 'invalid_classification'],
        ['a bad scheme', { body: v2Body({ classification: { ...WHEAT, scheme: 'hs' } }) }, 'invalid_scheme'],
        ['no treatment_context', { body: v2Body({ treatment_context: undefined }) }, 'missing_treatment_context'],
        ['a bad customer_type', { body: v2Body({}, { customer_type: 'b2g' }) }, 'invalid_customer_type'],
        ['no destination', { body: v2Body({}, { destination_country: undefined }) }, 'missing_destination_country'],
        ['a bad dispatch country', { body: v2Body({}, { dispatch_country: 'ZZ' }) }, 'invalid_dispatch_country'],
        ['a bad X-Source-ID', { body: v2Body(), source: 'bad tag!' }, 'invalid_source_id'],
        ['a control character in classification.code', { body: v2Body({ classification: { ...WHEAT, code: '01.11\u000111' } }) }, 'invalid_code'],
        ['a control character in customer_type', { body: v2Body({}, { customer_type: 'b2c\u0000' }) }, 'invalid_customer_type'],
      ] as [string, { raw?: string; body?: Json; source?: string }, string][])('%s → 400 %s, nothing stored', async (_name, input, code) => {
        fails(await post(input.body ?? {}, { raw: input.raw, source: input.source }), 400, code);
      });

      it('a query parameter is 400 unknown_parameter', async () => {
        const res = await h.inject({ method: 'POST', url: '/v2/vat/calculate?country=DE', headers: { 'x-api-key': k.a, 'idempotency-key': fresh(), 'content-type': 'application/json' }, payload: JSON.stringify(v2Body()) });
        fails(res, 400, 'unknown_parameter');
      });

      it('an oversized body is 413 and an over-long Idempotency-Key is 400', async () => {
        fails(await post({}, { raw: JSON.stringify({ ...v2Body(), pad: 'x'.repeat(70_000) }) }), 413, 'payload_too_large');
        fails(await post(v2Body(), { idem: 'k'.repeat(256) }), 400, 'invalid_idempotency_key');
      });

      it('takes full or calculate-only keys; read-only, classification and legacy keys are 403, no key 401', async () => {
        expect((await post(v2Body(), { key: k.aCalc })).statusCode).toBe(200);
        fails(await post(v2Body(), { key: k.aRead }), 403, 'insufficient_scope');
        fails(await post(v2Body(), { key: k.aResolve }), 403, 'insufficient_scope');
        fails(await post(v2Body(), { key: k.legacy }), 403, 'insufficient_scope');
        fails(await post(v2Body(), { key: '' }), 401, 'missing_api_key');
      });
    });

    it('the database refuses any change to a stored decision, an active release or a profile revision', async () => {
      await expect(desk.pool.query(`update calculation.governed_decision set status = 'complete'`)).rejects.toThrow(/append-only/);
      await expect(desk.pool.query(`delete from calculation.governed_decision`)).rejects.toThrow(/append-only/);
      await expect(desk.pool.query(`update calculation.treatment_release set legal_to = '2030-01-01' where status = 'active'`)).rejects.toThrow(/sealed/);
      await expect(desk.pool.query(`update calculation.source_profile_revision set revision = revision + 1`)).rejects.toThrow(/append-only/);
      const audit = await desk.w.deps.operators.auditLog({ limit: 100 });
      expect(audit.filter((e) => e.action === 'treatment.activate' && e.outcome === 'ok').length).toBeGreaterThanOrEqual(2);
      expect(audit.some((e) => e.action === 'treatment.activate' && e.reason === 'four_eyes_violation')).toBe(true);
    });
  });
}

governedSuite('PostgreSQL', false);
governedSuite('embedded PGlite', true);
