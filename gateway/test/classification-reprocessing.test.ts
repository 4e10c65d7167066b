import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBackends } from '../../test/support/env';
import { startHarness, type Harness } from '../../test/support/harness';
import { importCoverage, publishCoverage } from '../../services/classification/src/admin/coverage';
import { Workflow } from '../../services/classification/test/support';

const backends = await requireBackends(['postgres']);

const RULES = [
  { rule_id: 'DE-CPA-62.01', jurisdiction: 'DE', scheme: 'cpa', catalog_version: '2.1', code: '62.01', coverage: 'full', legal_from: '2015-01-01', legal_to: null, tax_class_id: 'standard', supply_kind: 'services', status: 'approved', legal_reference: 'UStG § 12(1)' },
];

const sale = (n: number, integration: number, over: Record<string, unknown> = {}) => ({
  event_id: `o-${n}/1`,
  event_type: 'sale',
  occurred_at: '2025-03-10',
  supply_kind: 'services',
  customer_type: 'b2c',
  country_of_consumption: 'DE',
  currency: 'EUR',
  net_amount_minor: 10000,
  vat_amount_minor: 1900,
  vat_rate_bps: 1900,
  rate_category: 'standard',
  classification_status: 'needs_review',
  product_reference: 'sku-app',
  order_reference: `o-${n}`,
  integration_id: integration,
  ...over,
});

type Decision = { event_id: string; classification_status: string; tax_class_id: string | null; source: string; reason: string | null; rule_id: string | null };

/** Reprocessing of ledger supply events after assignment changes, end to end, in one run mode. */
function reprocessingSuite(mode: string, embedded: boolean) {
  describe.skipIf(!backends.ok)(`reprocessing of supply events after assignment changes (${mode})`, () => {
    let h: Harness;
    let pool: pg.Pool;
    let key: string;
    let integration: string;
    let assignmentId: string;
    const url = () => `/v1/integrations/${integration}/product-code-assignments`;

    /** The decision in effect per event of the product (the one no other supersedes), by event_id. */
    const effective = async (): Promise<Record<string, Decision>> => {
      const r = await pool.query<Decision>(
        `select e.event_id, d.classification_status, d.tax_class_id, d.source, d.reason, d.rule_id
           from ledger.supply_event e join ledger.classification_decision d on d.supply_event_id = e.id
          where e.product_reference = 'sku-app' and not exists (select 1 from ledger.classification_decision x where x.supersedes = d.id)`,
      );
      return Object.fromEntries(r.rows.map((row) => [row.event_id, row]));
    };
    const jobsSettled = async () => {
      const end = Date.now() + 20_000;
      for (;;) {
        const open = (await pool.query(`select count(*)::int as n from classification.reprocess_job where status <> 'done'`)).rows[0].n;
        if (open === 0) return;
        if (Date.now() > end) throw new Error('reprocessing jobs did not finish');
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    beforeAll(async () => {
      h = await startHarness({ embedded });
      pool = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
      const w = new Workflow(pool);
      await w.enrol('alice', 'bob');
      await w.provision('cpa21');
      const manifest = await importCoverage(w.deps, { fileName: 'coverage.json', bytes: Buffer.from(JSON.stringify({ format: 'classification_coverage_v1', rules: RULES })), operator: 'alice' });
      w.nextStep();
      await publishCoverage(w.deps, { id: manifest.id, operator: 'bob', totp: w.code('bob') });
      key = (await h.key('reprocess-acct', 'full')).key;
      integration = (await h.built.gateway!.keys.createIntegration('reprocess-acct', 'shop')).id;
      const events = [sale(1, Number(integration)), sale(2, Number(integration), { country_of_consumption: 'FR', vat_amount_minor: 2000, vat_rate_bps: 2000 }), sale(3, Number(integration), { product_reference: 'sku-other' })];
      const res = await h.inject({ method: 'POST', url: '/v1/supply-events', headers: { 'x-api-key': key }, payload: { events } });
      expect(res.statusCode, res.body).toBe(201);
    });
    afterAll(async () => {
      await pool?.end();
      await h?.close();
    });

    it('a submitted head does not reclassify anything until it is validated', async () => {
      const res = await h.inject({ method: 'POST', url: url(), headers: { 'x-api-key': key }, payload: { scheme: 'cpa', exact_code: '62.01.11', product_reference: 'sku-app', requested_valid_from: '2025-01-01', attestation: { statement: 'Sold as custom software since 2025.', attested_by: 'Jane Doe' } } });
      expect(res.statusCode, res.body).toBe(201);
      assignmentId = res.json().assignment_id;
      await jobsSettled();
      expect(await effective()).toEqual({});
    });

    it('validation appends successor decisions: resolved where the manifest maps, needs_review where it does not', async () => {
      expect((await h.inject({ method: 'POST', url: `${url()}/${assignmentId}/validate`, headers: { 'x-api-key': key } })).statusCode).toBe(200);
      await jobsSettled();
      const d = await effective();
      expect(d['o-1/1']).toMatchObject({ classification_status: 'classified', tax_class_id: 'standard', source: 'assignment', rule_id: 'DE-CPA-62.01' });
      expect(d['o-2/1']).toMatchObject({ classification_status: 'needs_review', tax_class_id: null, source: 'assignment', reason: 'unmapped' });
      expect(d['o-3/1']).toBeUndefined();
      // The committed events themselves are unchanged.
      const stored = await pool.query(`select classification_status from ledger.supply_event where product_reference = 'sku-app'`);
      expect(stored.rows.every((r) => r.classification_status === 'needs_review')).toBe(true);
      const job = (await pool.query(`select outcome from classification.reprocess_job where reason = 'assignment_validated'`)).rows[0].outcome;
      expect(job).toMatchObject({ events: 2, appended: 2, stale: 0 });
    });

    it('archival withdraws the authority: the facts committed with the events are restored', async () => {
      expect((await h.inject({ method: 'POST', url: `${url()}/${assignmentId}/archive`, headers: { 'x-api-key': key } })).statusCode).toBe(200);
      await jobsSettled();
      const d = await effective();
      expect(d['o-1/1']).toMatchObject({ classification_status: 'needs_review', tax_class_id: null, source: 'restored', reason: 'assignment_archived' });
      expect(d['o-2/1']).toMatchObject({ source: 'restored', reason: 'assignment_archived' });
    });
  });
}

reprocessingSuite('PostgreSQL', false);
reprocessingSuite('embedded PGlite', true);
