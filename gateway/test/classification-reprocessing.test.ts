import { createHash, randomUUID } from 'node:crypto';
import { toBinary, create } from '@bufbuild/protobuf';
import pg from 'pg';
import { ClassificationDecidedSchema } from '@vat/gen/vat/ledger/v1/events_pb';
import { applyClassificationDecisions } from '@vat/platform/supply-projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { requireBackends } from '../../test/support/env';
import { NATS_SERVER, startPrivateNats, type PrivateNats } from '../../test/support/processes';
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

/**
 * A seller established in AT (its Union OSS MSI) supplying services to consumers in DE (19 %) and FR (20 %).
 * Each sale is committed as needs_review; the DE one is mapped by the manifest (standard), FR is not.
 */
const repSale = (id: string, occurred_at: string, country: 'DE' | 'FR', net: number, integration: number) => ({
  event_id: id,
  event_type: 'sale',
  occurred_at,
  supply_kind: 'services',
  customer_type: 'b2c',
  country_of_consumption: country,
  supplier_establishment_country: 'AT',
  currency: 'EUR',
  net_amount_minor: net,
  vat_amount_minor: (net * (country === 'DE' ? 1900 : 2000)) / 10000,
  vat_rate_bps: country === 'DE' ? 1900 : 2000,
  rate_category: 'standard',
  classification_status: 'needs_review',
  product_reference: 'sku-rep',
  order_reference: `order-${id}`,
  integration_id: integration,
});

/** Decisions reach the Union OSS previews and the thresholds; a locked quarter keeps its snapshot and routes to correction review. */
function reportsSuite(mode: string, embedded: boolean, jetstream = false) {
  describe.skipIf(!backends.ok || (jetstream && !existsSync(NATS_SERVER)))(`reprocessing reaches reports and thresholds (${mode})`, () => {
    let h: Harness;
    let nats: PrivateNats | undefined;
    let pool: pg.Pool;
    let key: string;
    let readKey: string;
    let otherKey: string;
    let accountId: string;
    let integration: string;
    let assignmentId: string;
    let lockedExports: { download_path: string; sha256: string; body: Buffer }[] = [];
    const url = () => `/v1/integrations/${integration}/product-code-assignments`;
    const get = async (u: string, k = key) => {
      const r = await h.inject({ method: 'GET', url: u, headers: { 'x-api-key': k } });
      return r;
    };
    const ok = async (u: string, k = key) => {
      const r = await get(u, k);
      expect(r.statusCode, r.body).toBe(200);
      return r;
    };
    const jobsSettled = async () => {
      const end = Date.now() + 20_000;
      while ((await pool.query(`select count(*)::int as n from classification.reprocess_job where status <> 'done'`)).rows[0].n > 0) {
        if (Date.now() > end) throw new Error('reprocessing jobs did not finish');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    /**
     * Waits until both projections reached the ledger head's `headColumn` with their position's `positionColumn`
     * (they are eventually consistent); returns that count.
     */
    const projectionsAt = async (headColumn: 'sequence' | 'decision_count', positionColumn: 'applied' | 'decisions_applied', what: string) => {
      const end = Date.now() + 20_000;
      for (;;) {
        const r = await pool.query(
          `select h.${headColumn}::text as ledger, c.${positionColumn}::text as reports, t.${positionColumn}::text as thresholds from ledger.ledger_head h
             left join compliance_reports.supply_projection_position c on c.account_id = h.account_id
             left join thresholds.supply_projection_position t on t.account_id = h.account_id where h.account_id = $1`,
          [accountId],
        );
        const row = r.rows[0];
        if (row && row.ledger === (row.reports ?? '0') && row.ledger === (row.thresholds ?? '0')) return Number(row.ledger);
        if (Date.now() > end) throw new Error(`${what}: ${JSON.stringify(row)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    /** Both projections applied every decision the ledger published for the account. */
    const decisionsApplied = () => projectionsAt('decision_count', 'decisions_applied', 'decisions not applied');
    /** Both projections hold every supply event the ledger committed for the account. */
    const factsProjected = () => projectionsAt('sequence', 'applied', 'supply events not projected');
    const summary = async (period: string) => (await ok(`/v1/reports/oss-quarterly-summary?period=${period}`)).json();
    /** The running totals of 2025 per classification, and the same recomputed from the projected facts. */
    const totals2025 = async () => {
      const buckets = await pool.query(
        `select classification_status, sum(event_count)::int as n, sum(net_minor)::text as net from thresholds.article59c_bucket where account_id = $1 and year = 2025 group by 1 having sum(event_count) <> 0 order by 1`,
        [accountId],
      );
      const facts = await pool.query(
        `select classification_status, count(*)::int as n, sum(net_amount_minor)::text as net from thresholds.supply_fact where account_id = $1 and occurred_at >= '2025-01-01' and occurred_at < '2026-01-01' group by 1 order by 1`,
        [accountId],
      );
      expect(buckets.rows).toEqual(facts.rows);
      return Object.fromEntries(buckets.rows.map((r) => [r.classification_status, { n: r.n, net: Number(r.net) }]));
    };

    beforeAll(async () => {
      // With JetStream (a private nats-server): every event crosses the real bus, each consumer on its own durable.
      nats = jetstream ? await startPrivateNats() : undefined;
      h = await startHarness({ embedded, env: nats ? { NATS_URL: nats.url } : {} });
      pool = new pg.Pool({ connectionString: h.databaseUrl, max: 2 });
      const w = new Workflow(pool);
      await w.enrol('alice', 'bob');
      await w.provision('cpa21');
      const manifest = await importCoverage(w.deps, { fileName: 'coverage.json', bytes: Buffer.from(JSON.stringify({ format: 'classification_coverage_v1', rules: RULES })), operator: 'alice' });
      w.nextStep();
      await publishCoverage(w.deps, { id: manifest.id, operator: 'bob', totp: w.code('bob') });
      const k = await h.key('reports-acct', 'full');
      key = k.key;
      accountId = k.accountId;
      readKey = (await h.key('reports-acct', 'read-only')).key;
      otherKey = (await h.key('reports-other', 'full')).key;
      integration = (await h.built.gateway!.keys.createIntegration('reports-acct', 'shop')).id;
      const reg = await h.inject({ method: 'POST', url: '/v1/tax-registrations', headers: { 'x-api-key': key }, payload: { scheme_type: 'union_oss', member_state_identification: 'AT', effective_from: '2021-07-01', status: 'active' } });
      expect(reg.statusCode, reg.body).toBe(201);
      const ioss = await h.inject({ method: 'POST', url: '/v1/tax-registrations', headers: { 'x-api-key': key }, payload: { scheme_type: 'ioss', member_state_identification: 'IE', vat_registration_number: 'IM3720000224', effective_from: '2021-07-01', status: 'active' } });
      expect(ioss.statusCode, ioss.body).toBe(201);
      // An imported-goods sale of the same product (IOSS, never in the Union OSS return): 50.00 EUR to DE at 19 % = 9.50 VAT.
      const imported = { ...repSale('imp-1', '2025-05-12', 'DE', 5000, Number(integration)), supply_kind: 'imported_goods', supplier_establishment_country: undefined, intrinsic_value_eur_minor: 5000, third_country_origin: 'CN', excise_goods: false };
      const events = [repSale('q1-a', '2025-02-10', 'DE', 400000, Number(integration)), repSale('q2-a', '2025-05-10', 'DE', 1200000, Number(integration)), repSale('q2-b', '2025-05-11', 'FR', 100000, Number(integration)), imported];
      const res = await h.inject({ method: 'POST', url: '/v1/supply-events', headers: { 'x-api-key': key }, payload: { events } });
      expect(res.statusCode, res.body).toBe(201);
      const end = Date.now() + 15_000;
      while ((await pool.query(`select applied::int as n from compliance_reports.supply_projection_position where account_id = $1`, [accountId])).rows[0]?.n !== 4) {
        if (Date.now() > end) throw new Error('projection did not catch up');
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    afterAll(async () => {
      await pool?.end();
      await h?.close();
      await nats?.stop();
    });

    it('before any decision every sale is needs_review; 2025-Q1 is locked with its artifacts', async () => {
      const q1 = await summary('2025-Q1');
      expect(q1).toMatchObject({ rows: [], included_source_event_count: 0, excluded_source_event_count: 1 });
      const lock = await h.inject({ method: 'POST', url: '/v1/reports/locked-return-periods/union-oss?period=2025-Q1', headers: { 'x-api-key': key } });
      expect(lock.statusCode, lock.body).toBe(201);
      for (const e of lock.json().exports as { download_path: string; sha256: string }[]) {
        const d = await ok(e.download_path);
        // Compared as bytes: the PDF artifact is not UTF-8 text.
        expect(createHash('sha256').update(d.rawPayload).digest('hex')).toBe(e.sha256);
        lockedExports.push({ ...e, body: d.rawPayload });
      }
      // A Member State of identification without an upload file of its own: the accountant report (JSON and PDF), the summary CSV and the return document.
      expect((lock.json().exports as { export_kind: string }[]).map((e) => e.export_kind).sort()).toEqual(['union_oss_accountant_report_locked', 'union_oss_accountant_report_pdf_locked', 'union_oss_quarterly_summary_locked', 'union_oss_return_locked']);
      // The lock fenced the quarter in the ledger.
      expect((await pool.query(`select period_key from ledger.return_period_fence where account_id = $1`, [accountId])).rows).toEqual([{ period_key: '2025-Q1' }]);
    });

    it('validation reclassifies the open quarter; the locked quarter\'s event goes to correction review and its snapshot stays byte-identical', async () => {
      const sub = await h.inject({ method: 'POST', url: url(), headers: { 'x-api-key': key }, payload: { scheme: 'cpa', exact_code: '62.01.11', product_reference: 'sku-rep', requested_valid_from: '2025-01-01', attestation: { statement: 'Custom software since 2025.', attested_by: 'Jane Doe' } } });
      expect(sub.statusCode, sub.body).toBe(201);
      assignmentId = sub.json().assignment_id;
      expect((await h.inject({ method: 'POST', url: `${url()}/${assignmentId}/validate`, headers: { 'x-api-key': key } })).statusCode).toBe(200);
      await jobsSettled();
      // q2-a and imp-1 (DE: mapped, classified standard) and q2-b (FR: unmapped, needs_review) get decisions;
      // q1-a is in the locked quarter. imp-1 is imported goods: a Union OSS lock never holds it back.
      expect(await decisionsApplied()).toBe(3);
      const facts = await pool.query(`select event_id, classification_status, tax_class_id, decision_generation from compliance_reports.supply_fact where account_id = $1 order by event_id`, [accountId]);
      expect(facts.rows).toEqual([
        { event_id: 'imp-1', classification_status: 'classified', tax_class_id: 'standard', decision_generation: 1 },
        { event_id: 'q1-a', classification_status: 'needs_review', tax_class_id: null, decision_generation: 0 },
        { event_id: 'q2-a', classification_status: 'classified', tax_class_id: 'standard', decision_generation: 1 },
        { event_id: 'q2-b', classification_status: 'needs_review', tax_class_id: null, decision_generation: 1 },
      ]);
      // 2025-Q2 now includes q2-a: section 2a (services supplied from the MSI AT), DE at its standard 19 %:
      // taxable 12,000.00 EUR, VAT 12,000.00 × 19 % = 2,280.00 EUR; q2-b stays excluded as needs_review.
      const q2 = await summary('2025-Q2');
      expect(q2.rows).toEqual([{ section: '2a', member_state_of_consumption: 'DE', origin_member_state: null, supply_kind: 'services', vat_rate_bps: 1900, rate_type: 'STANDARD', taxable_amount_minor: 1200000, vat_amount_minor: 228000, source_event_count: 1 }]);
      expect(q2).toMatchObject({ included_source_event_count: 1, excluded_source_event_count: 2, totals: { payable_vat_minor: 228000 } });
      expect(q2.warnings).toEqual([
        { code: 'needs_review_excluded', reason: 'needs_review_excluded', review: 'needs_review', count: 1 },
        { code: 'unsupported_supply_kind_excluded', reason: 'imported_goods', review: 'informational', count: 1 },
      ]);
      // The IOSS month of May 2025 includes the reclassified imported-goods sale: DE 19 %, 50.00 EUR, VAT 9.50.
      const fp = (await ok('/v1/reports/filing-prep?period=2025-Q2')).json();
      expect(fp.ioss.months[1]).toMatchObject({ period_key: '2025-05', status: 'ready', rows: [{ member_state_of_consumption: 'DE', vat_rate_bps: 1900, taxable_amount_minor: 5000, vat_amount_minor: 950, source_event_count: 1 }] });
      // The locked quarter: preview frozen, artifacts byte-identical.
      expect(await summary('2025-Q1')).toMatchObject({ rows: [], included_source_event_count: 0, period_status: 'locked' });
      for (const e of lockedExports) expect((await ok(e.download_path)).rawPayload.equals(e.body), e.download_path).toBe(true);
      // The correction-review list (REST) holds q1-a with the decision that was not applied.
      const list = (await ok('/v1/classification/correction-reviews', readKey)).json();
      expect(list.items).toHaveLength(1);
      expect(list.items[0]).toMatchObject({ event_id: 'q1-a', reason: 'union_oss_period_locked', order_reference: 'order-q1-a', product_reference: 'sku-rep', integration_id: Number(integration), occurred_at: '2025-02-10T00:00:00.000Z' });
      expect(list.items[0].proposed).toMatchObject({ classification_status: 'classified', tax_class_id: 'standard', source: 'assignment', rule_id: 'DE-CPA-62.01', assignment_id: assignmentId });
      expect(list.next_cursor).toBeNull();
    });

    it('thresholds: the reclassified sale moves into the counted total and proves the crossing once', async () => {
      // 2025 (AT-established, EUR 10,000 = 1,000,000 cents): counted 1,200,000 > 1,000,000, crossed by q2-a alone.
      // imported goods are in the totals too (a conclusive exclusion, never counted): classified 1,200,000 + 5,000.
      expect(await totals2025()).toEqual({ classified: { n: 2, net: 1205000 }, needs_review: { n: 2, net: 500000 } });
      const crossing = await pool.query(`select event_id, cumulative_minor::text, threshold_minor::text from thresholds.article59c_crossing where account_id = $1 and year = 2025`, [accountId]);
      expect(crossing.rows).toEqual([{ event_id: 'q2-a', cumulative_minor: '1200000', threshold_minor: '1000000' }]);
      const notes = (await ok('/v1/compliance/notifications', readKey)).json();
      expect(notes.items.map((n: { kind: string; event_id: string; year: number }) => [n.kind, n.event_id, n.year]).sort()).toEqual([
        ['article_59c_threshold_crossed', 'q2-a', 2025],
        ['article_59c_warning_band_entered', 'q2-a', 2025],
      ]);
      // The status counts a projection that has not applied every published decision as lagging.
      const status = async () => (await ok('/v1/compliance/threshold-status', readKey)).json();
      expect((await status()).issues).not.toContain('projection_lagging');
      await pool.query(`update thresholds.supply_projection_position set decisions_applied = decisions_applied - 1 where account_id = $1`, [accountId]);
      try {
        expect(await status()).toMatchObject({ evidence_status: 'incomplete_evidence' });
        expect((await status()).issues).toContain('projection_lagging');
      } finally {
        await pool.query(`update thresholds.supply_projection_position set decisions_applied = decisions_applied + 1 where account_id = $1`, [accountId]);
      }
    });

    it('archival restores the committed facts everywhere; the crossing and the notifications stay as recorded', async () => {
      expect((await h.inject({ method: 'POST', url: `${url()}/${assignmentId}/archive`, headers: { 'x-api-key': key } })).statusCode).toBe(200);
      await jobsSettled();
      expect(await decisionsApplied()).toBe(6);
      const q2 = await summary('2025-Q2');
      // The exclusion codes are tried in order: the classification first, so imp-1 counts as needs_review here.
      expect(q2).toMatchObject({ rows: [], included_source_event_count: 0, excluded_source_event_count: 3, warnings: [{ code: 'needs_review_excluded', count: 3 }] });
      const fp = (await ok('/v1/reports/filing-prep?period=2025-Q2')).json();
      expect(fp.ioss.months[1]).toMatchObject({ status: 'review_required', rows: [], warnings: [{ code: 'needs_review_excluded', count: 1 }] });
      expect(await totals2025()).toEqual({ needs_review: { n: 4, net: 1705000 } });
      expect((await pool.query(`select event_id from thresholds.article59c_crossing where account_id = $1`, [accountId])).rows).toEqual([{ event_id: 'q2-a' }]);
      expect((await ok('/v1/compliance/notifications', readKey)).json().items).toHaveLength(2);
      for (const e of lockedExports) expect((await ok(e.download_path)).rawPayload.equals(e.body), e.download_path).toBe(true);
    });

    it('a decision older than the one applied never wins (out-of-order delivery), and a repeat has no effect', async () => {
      const q2a = (await pool.query(`select id, decision_generation, classification_status from thresholds.supply_fact where account_id = $1 and event_id = 'q2-a'`, [accountId])).rows[0];
      expect(q2a).toMatchObject({ decision_generation: 2, classification_status: 'needs_review' });
      const stale = create(ClassificationDecidedSchema, { eventId: randomUUID(), accountId: BigInt(accountId), supplyEventId: q2a.id, generation: 1, classificationStatus: 'classified', taxClassId: 'standard', source: 'assignment', decidedAt: new Date().toISOString() });
      const msg = { id: stale.eventId, subject: 'vat.ledger.v1.classification_decided', data: toBinary(ClassificationDecidedSchema, stale) };
      for (const schema of ['compliance_reports', 'thresholds']) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          expect(await applyClassificationDecisions(client, schema, 'test-out-of-order', [msg, msg])).toEqual([]);
          await client.query('rollback');
        } finally {
          client.release();
        }
      }
      expect((await pool.query(`select classification_status from compliance_reports.supply_fact where id = $1`, [q2a.id])).rows[0].classification_status).toBe('needs_review');
      // A decision that overtakes its fact's SupplyCommitted fails the batch (rolled back, delivered again).
      const early = create(ClassificationDecidedSchema, { ...stale, eventId: randomUUID(), supplyEventId: randomUUID(), generation: 1 });
      const client = await pool.connect();
      try {
        await client.query('begin');
        await expect(applyClassificationDecisions(client, 'compliance_reports', 'test-out-of-order', [{ id: early.eventId, subject: msg.subject, data: toBinary(ClassificationDecidedSchema, early) }])).rejects.toThrow(/not projected yet/);
      } finally {
        await client.query('rollback');
        client.release();
      }
    });

    it('GET /v1/classification/correction-reviews: filters, cursor, scopes, other accounts and bad input', async () => {
      const L = '/v1/classification/correction-reviews';
      expect((await ok(`${L}?reason=union_oss_period_locked&product_reference=sku-rep&limit=1`)).json().items).toHaveLength(1);
      expect((await ok(`${L}?reason=order_too_large`)).json()).toEqual({ items: [], next_cursor: null });
      expect((await ok(L, otherKey)).json()).toEqual({ items: [], next_cursor: null });
      const calc = (await h.key('reports-acct', 'calculate-only')).key;
      expect((await get(L, calc)).statusCode).toBe(403);
      expect((await h.inject({ method: 'GET', url: L })).statusCode).toBe(401);
      const write = (await h.key('reports-acct', 'classification-write')).key;
      expect((await ok(L, write)).json().items).toHaveLength(1);
      for (const [q, code] of [['limit=0', 'invalid_limit'], ['limit=x', 'invalid_limit'], ['limit=201', 'invalid_limit'], ['cursor=zz', 'invalid_cursor'], ['reason=nope', 'invalid_reason'], ['supply_event_id=q1-a', 'invalid_supply_event_id'], ['order_reference=', 'invalid_order_reference'], ['unknown=1', 'unknown_parameter']]) {
        const r = await get(`${L}?${q}`);
        expect(r.statusCode, `${q}: ${r.body}`).toBe(400);
        expect(r.json().error, q).toBe(code);
      }
    });

    it('POST /v1/classification/correction-reviews/{id}/resolve: apply reaches the Union OSS preview to the cent; locked entries are dismissed; scopes, other accounts and bad input', async () => {
      const L = '/v1/classification/correction-reviews';
      const resolve = (id: string, payload: unknown, k = key) => h.inject({ method: 'POST', url: `${L}/${id}/resolve`, headers: { 'x-api-key': k }, payload: payload as Record<string, unknown> });
      // An order of 501 events (above the 500-event limit): one 2025-Q3 sale of sku-rep to DE, 2,500.00 EUR at 19 % = 475.00 VAT,
      // and 500 sales of another product in 2024 (outside every 2025 figure).
      const fillers = Array.from({ length: 500 }, (_, i) => ({ ...repSale(`big-${i}`, '2024-06-01', 'DE', 100, Number(integration)), product_reference: 'sku-filler', order_reference: 'order-big' }));
      const bigSale = { ...repSale('big-rep', '2025-08-05', 'DE', 250000, Number(integration)), order_reference: 'order-big' };
      const committed = await h.inject({ method: 'POST', url: '/v1/supply-events', headers: { 'x-api-key': key }, payload: { events: [bigSale, ...fillers] } });
      expect(committed.statusCode, committed.body).toBe(201);
      await factsProjected();
      // A new validated assignment reprocesses sku-rep: big-rep's order is too large, so it goes to review.
      const sub = await h.inject({ method: 'POST', url: url(), headers: { 'x-api-key': key }, payload: { scheme: 'cpa', exact_code: '62.01.11', product_reference: 'sku-rep', requested_valid_from: '2025-01-01', attestation: { statement: 'Custom software again.', attested_by: 'Jane Doe' } } });
      expect(sub.statusCode, sub.body).toBe(201);
      expect((await h.inject({ method: 'POST', url: `${url()}/${sub.json().assignment_id}/validate`, headers: { 'x-api-key': key } })).statusCode).toBe(200);
      await jobsSettled();
      await decisionsApplied();
      const q3Before = await summary('2025-Q3');
      expect(q3Before).toMatchObject({ rows: [], included_source_event_count: 0, excluded_source_event_count: 1, warnings: [{ code: 'needs_review_excluded', count: 1 }] });
      const open = (await ok(`${L}?status=open`)).json().items as { id: string; event_id: string; reason: string; status: string; resolution: unknown }[];
      const big = open.find((i) => i.event_id === 'big-rep')!;
      expect(big).toMatchObject({ reason: 'order_too_large', status: 'open', resolution: null });
      const locked = open.filter((i) => i.event_id === 'q1-a');
      expect(locked.length).toBeGreaterThanOrEqual(1);

      // Scopes, other accounts and unknown ids (identical 404), bad input: nothing is resolved.
      const readOnly = await resolve(big.id, { action: 'apply', note: 'x' }, readKey);
      expect(readOnly.statusCode).toBe(403);
      expect((await h.inject({ method: 'POST', url: `${L}/${big.id}/resolve`, payload: { action: 'apply', note: 'x' } })).statusCode).toBe(401);
      const other = await resolve(big.id, { action: 'apply', note: 'x' }, otherKey);
      const unknown = await resolve('01900000-0000-7000-8000-0000000000ff', { action: 'apply', note: 'x' });
      const notUuid = await resolve('q1-a', { action: 'apply', note: 'x' });
      for (const r of [other, unknown, notUuid]) {
        expect(r.statusCode, r.body).toBe(404);
        expect(r.json()).toEqual(other.json());
      }
      expect(other.json().error).toBe('correction_not_found');
      for (const [payload, code] of [
        [{ action: 'apply' }, 'invalid_note'],
        [{ note: 'x' }, 'invalid_action'],
        [{ action: 'fix', note: 'x' }, 'invalid_action'],
        [{ action: 1, note: 'x' }, 'invalid_action'],
        [{ action: 'apply', note: 5 }, 'invalid_note'],
        [{ action: 'apply', note: '' }, 'invalid_note'],
        [{ action: 'apply', note: 'x'.repeat(1001) }, 'invalid_note'],
        [{ action: 'apply', note: 'a\u0001b' }, 'invalid_note'],
        [{ action: 'apply', note: 'x', extra: 1 }, 'unknown_field'],
      ] as const) {
        const r = await resolve(big.id, payload);
        expect(r.statusCode, `${JSON.stringify(payload).slice(0, 60)}: ${r.body}`).toBe(400);
        expect(r.json().error, JSON.stringify(payload).slice(0, 60)).toBe(code);
      }
      const malformed = await h.inject({ method: 'POST', url: `${L}/${big.id}/resolve`, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: '{"action":' });
      expect([malformed.statusCode, malformed.json().error]).toEqual([400, 'invalid_json']);
      expect((await ok(`${L}?status=open`)).json().items.map((i: { id: string }) => i.id)).toContain(big.id);

      // A locked quarter's entry: apply is refused (409 period_locked), dismiss closes it.
      const refused = await resolve(locked[0]!.id, { action: 'apply', note: 'reclassify' });
      expect([refused.statusCode, refused.json().error]).toEqual([409, 'period_locked']);
      const dismissed = await resolve(locked[0]!.id, { action: 'dismiss', note: 'Corrected in a later return.' });
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect(dismissed.json()).toMatchObject({ id: locked[0]!.id, status: 'dismissed', resolution: { action: 'dismiss', note: 'Corrected in a later return.', decision_id: null }, resolved_with: [] });

      // Apply with a classification-write key: a manual decision, published to the projections.
      const writer = await h.key('reports-acct', 'classification-write');
      const applied = await resolve(big.id, { action: 'apply', note: 'Checked: custom software, standard rate.' }, writer.key);
      expect(applied.statusCode, applied.body).toBe(200);
      const body = applied.json();
      expect(body).toMatchObject({ id: big.id, event_id: 'big-rep', status: 'applied', resolved_with: [], resolution: { action: 'apply', note: 'Checked: custom software, standard rate.' } });
      expect(typeof body.resolution.resolved_by_api_key_id).toBe('number');
      expect(body.resolution.decision_id).toMatch(/^[0-9a-f-]{36}$/);
      await decisionsApplied();
      // 2025-Q3 now includes big-rep: section 2a, DE 19 %: taxable 2,500.00 EUR, VAT 2,500.00 × 19 % = 475.00 EUR.
      const q3 = await summary('2025-Q3');
      expect(q3.rows).toEqual([{ section: '2a', member_state_of_consumption: 'DE', origin_member_state: null, supply_kind: 'services', vat_rate_bps: 1900, rate_type: 'STANDARD', taxable_amount_minor: 250000, vat_amount_minor: 47500, source_event_count: 1 }]);
      expect(q3).toMatchObject({ included_source_event_count: 1, excluded_source_event_count: 0, totals: { payable_vat_minor: 47500 } });
      const fact = await pool.query(`select classification_status, tax_class_id from compliance_reports.supply_fact where account_id = $1 and event_id = 'big-rep'`, [accountId]);
      expect(fact.rows).toEqual([{ classification_status: 'classified', tax_class_id: 'standard' }]);

      // Identical retry: the stored resolution; another action or note: 409.
      const retry = await resolve(big.id, { action: 'apply', note: 'Checked: custom software, standard rate.' });
      expect(retry.statusCode, retry.body).toBe(200);
      expect(retry.json().resolution).toEqual(body.resolution);
      const conflict = await resolve(big.id, { action: 'dismiss', note: 'Checked: custom software, standard rate.' });
      expect([conflict.statusCode, conflict.json().error]).toEqual([409, 'correction_already_resolved']);
      // The list shows the status and resolution; the status filter selects them.
      expect((await ok(`${L}?status=applied`, readKey)).json().items.map((i: { id: string; resolution: unknown }) => [i.id, i.resolution])).toEqual([[big.id, body.resolution]]);
      expect((await ok(`${L}?status=dismissed`)).json().items.map((i: { id: string }) => i.id)).toEqual([locked[0]!.id]);
      expect((await get(`${L}?status=closed`)).json().error).toBe('invalid_status');
    });
  });
}

reprocessingSuite('PostgreSQL', false);
reprocessingSuite('embedded PGlite', true);
reportsSuite('PostgreSQL', false);
reportsSuite('embedded PGlite', true);
reportsSuite('PostgreSQL + JetStream', false, true);
